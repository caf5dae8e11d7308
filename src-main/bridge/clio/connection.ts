/**
 * One Clio connection: JSON messages with a `type` over one WebSocket, mapped onto core.
 *
 * - Every message is validated; a bad one gets an `error` and the connection lives on.
 * - Messages are taken in one at a time, in order, so a `closeDiff` always finds the proposal sent before
 *   it; answers (diffAccepted / diffRejected) go out whenever the person decides.
 * - openDiff: the CLI writes the accepted text (sent as `content`). proposeDiff / applyDiff: DiffTray
 *   writes it, atomically, after checking the file still holds what was reviewed.
 * - When the socket goes, the client's pending reviews are cancelled: nobody is left to answer.
 */
import path from 'node:path';
import type WebSocket from 'ws';
import type { ClientInfo } from '../../../shared/app-api';
import { DIFFTRAY_VERSION } from '../../../shared/version';
import type { AppCore } from '../../core/app-core';
import { MAX_FILE_BYTES, type DiskSnapshot } from '../../core/disk-snapshot';
import type { ApplyFailureCode } from '../../core/apply-outcome';
import { readProposalBase } from '../../core/proposal-base';
import type { ReviewOutcome } from '../../core/review-queue';
import { ReviewError, TooManyPendingReviewsError } from '../../core/review-queue';
import { resolveInsideWorkspace, resolveRealPath } from '../../core/workspace-paths';
import { tokensEqual } from '../../loopback/auth';
import { displayPath } from '../display-path';
import { rawDataToString } from '../../loopback/raw-data';
import { onGuardedMessage, sendText, SerialIntake } from '../../loopback/socket-guard';
import { applyRangeEdits, RangeEditError } from './edits';
import {
  CLIO_CAPABILITIES,
  clioMessageSchemas,
  describeIssue,
  isClioMessageType,
  type ClioErrorCode,
  type ClioMessage,
  type ClioServerMessage,
} from './messages';

export const CLIO_CLIENT_NAME = 'Clio';
export const CLIO_AUTH_HEADER = 'x-clio-ide-authorization';

const CLOSED_BY_CLIENT = 'closed by the client';

export const BEFORE_DIFFERS_NOTE =
  'Note: the agent\'s "before" text differs from the file on disk. This diff is against the file on disk.';
export const BEFORE_OF_MISSING_FILE_NOTE =
  'Note: the agent\'s "before" text is not empty, but the file does not exist on disk. This diff creates the file.';
export const AUTO_APPLIED_NOTE = 'Applied without review: auto-apply is on for this client.';

export interface ClioConnectionOptions {
  core: AppCore;
  token: string;
  /** The upgrade carried the right token in the auth header. */
  authenticated: boolean;
  /** Called once, when the client has proved its token (at once when `authenticated`). */
  onAuthenticated?: () => void;
  /** Client names whose applyDiff is written without review (settings `autoApply`), read at each applyDiff. */
  autoApply: () => readonly string[];
  log: (message: string) => void;
}

/** A refusal with its protocol code; the message reaches the CLI as is. */
class ClioRequestError extends Error {
  constructor(
    readonly code: ClioErrorCode,
    message: string,
  ) {
    super(message);
  }
}

interface Prepared {
  /** The real path, inside the workspace. */
  path: string;
  base: DiskSnapshot;
  /** The text on disk ('' for a file that does not exist). */
  text: string;
}

interface Proposal extends Prepared {
  /** The path as the client gave it: answers name the file this way. */
  file: string;
  proposedText: string;
  description: string | undefined;
  /** DiffTray writes the accepted text (proposeDiff, applyDiff); otherwise the CLI does (openDiff). */
  difftrayWrites: boolean;
  autoApply: boolean;
}

export interface ServedClioConnection {
  /** Tells a client that has not authenticated why it is dropped, and closes the socket (1008). */
  refuse(reason: string): void;
}

export function serveClioConnection(socket: WebSocket, options: ClioConnectionOptions): ServedClioConnection {
  const connection = new ClioConnection(socket, options);
  return { refuse: (reason) => connection.refuse(reason) };
}

class ClioConnection {
  private client: ClientInfo | undefined;
  private closed = false;
  private readonly intake: SerialIntake;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: ClioConnectionOptions,
  ) {
    this.intake = new SerialIntake('clio', options.log, socket);
    if (options.authenticated) this.register();
    // Whatever a message handler throws is logged and answered with INTERNAL_ERROR; the socket lives on.
    const failed = () => this.sendError('INTERNAL_ERROR', 'DiffTray could not handle this message');
    onGuardedMessage(
      socket,
      'clio',
      options.log,
      (data) => {
        const text = rawDataToString(data);
        this.intake.enqueue(() => this.receive(text), failed);
      },
      failed,
    );
    socket.on('close', () => {
      this.closed = true;
      const client = this.client;
      if (!client) return;
      options.core.clientGone(client.id);
    });
  }

  refuse(reason: string): void {
    if (this.closed || this.client) return;
    this.sendError('UNAUTHORIZED', `${reason}: closing the connection`);
    this.closed = true;
    this.socket.close(1008, reason.slice(0, 120));
  }

  private get core(): AppCore {
    return this.options.core;
  }

  private register(): ClientInfo {
    if (this.client) return this.client;
    this.client = this.core.clients.connect(CLIO_CLIENT_NAME, 'clio', () =>
      this.socket.close(1000, 'disconnected by the user'),
    );
    this.options.onAuthenticated?.();
    return this.client;
  }

  private async receive(text: string): Promise<void> {
    if (this.closed) return;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      this.sendError('INVALID_JSON', `Invalid JSON: ${(error as Error).message}`);
      return;
    }
    const file = isRecord(raw) && typeof raw.file === 'string' ? raw.file : undefined;
    try {
      if (!isRecord(raw) || typeof raw.type !== 'string') {
        throw new ClioRequestError('INVALID_MESSAGE', 'A message must be a JSON object with a string "type"');
      }
      const type = raw.type;
      if (!this.client && type !== 'connect') {
        throw new ClioRequestError(
          'UNAUTHORIZED',
          'Not authenticated: send {"type":"connect","token":"<authToken from ~/.clio/ide/bridge.json>"} ' +
            `first, or the ${CLIO_AUTH_HEADER} header when connecting`,
        );
      }
      if (!isClioMessageType(type)) {
        throw new ClioRequestError('UNKNOWN_TYPE', `Unknown message type: ${type}`);
      }
      const parsed = clioMessageSchemas[type].safeParse(raw);
      if (!parsed.success) {
        throw new ClioRequestError('INVALID_MESSAGE', `Invalid ${type}: ${describeIssue(parsed.error)}`);
      }
      await this.handle(parsed.data);
    } catch (error) {
      if (error instanceof ClioRequestError) {
        this.sendError(error.code, error.message, file);
      } else if (error instanceof TooManyPendingReviewsError) {
        this.sendError('TOO_MANY_PENDING_REVIEWS', error.message, file);
      } else {
        this.options.log(`clio: failed to handle a message: ${(error as Error).stack ?? String(error)}`);
        this.sendError(
          'INTERNAL_ERROR',
          `DiffTray could not handle this message: ${(error as Error).message}`,
          file,
        );
      }
    }
  }

  private async handle(message: ClioMessage): Promise<void> {
    switch (message.type) {
      case 'connect':
        return this.connect(message);
      case 'openDiff':
        return this.openDiff(message);
      case 'proposeDiff':
      case 'applyDiff':
        return this.rangeEdits(message);
      case 'closeDiff':
        return this.closeDiff(message);
      case 'status':
        return this.status(message);
    }
  }

  private connect(message: ClioMessage<'connect'>): void {
    if (message.token !== undefined && !tokensEqual(message.token, this.options.token)) {
      this.sendError('UNAUTHORIZED', 'Invalid token');
      this.options.log('clio: refused a connection (invalid token in connect)');
      // Nothing more is taken from this socket; the close handler cleans up as for any close.
      this.closed = true;
      this.socket.close(1008, 'invalid token');
      return;
    }
    if (!this.client && message.token === undefined) {
      throw new ClioRequestError(
        'UNAUTHORIZED',
        `A token is required: send "token" (the authToken in ~/.clio/ide/bridge.json) in connect, or the ${CLIO_AUTH_HEADER} header`,
      );
    }
    const client = this.register();
    if (message.clientVersion) this.core.clients.describe(client.id, { version: message.clientVersion });
    this.send({
      type: 'connected',
      serverVersion: DIFFTRAY_VERSION,
      capabilities: [...CLIO_CAPABILITIES],
      ideName: 'DiffTray',
    });
  }

  private async openDiff(message: ClioMessage<'openDiff'>): Promise<void> {
    const prepared = await this.prepare(message.file, { mustExist: false });
    checkSize(message.after);
    let note: string | undefined;
    if (message.before !== undefined && message.before !== prepared.text) {
      note = prepared.base.exists ? BEFORE_DIFFERS_NOTE : BEFORE_OF_MISSING_FILE_NOTE;
    }
    this.propose({
      ...prepared,
      file: message.file,
      proposedText: message.after,
      description: joinText(message.description, note),
      difftrayWrites: false,
      autoApply: false,
    });
  }

  private async rangeEdits(message: ClioMessage<'proposeDiff' | 'applyDiff'>): Promise<void> {
    const prepared = await this.prepare(message.file, { mustExist: true });
    let proposedText: string;
    try {
      proposedText = applyRangeEdits(prepared.text, message.edits);
    } catch (error) {
      if (error instanceof RangeEditError) throw new ClioRequestError('INVALID_RANGE', error.message);
      throw error;
    }
    checkSize(proposedText);
    const autoApply = message.type === 'applyDiff' && this.autoApplyIsOn();
    this.propose({
      ...prepared,
      file: message.file,
      proposedText,
      description: joinText(message.description, autoApply ? AUTO_APPLIED_NOTE : undefined),
      difftrayWrites: true,
      autoApply,
    });
  }

  private closeDiff(message: ClioMessage<'closeDiff'>): void {
    const client = this.client!;
    const target = path.isAbsolute(message.file) ? resolveRealPath(message.file) : message.file;
    // The review's own answer is a diffRejected {reason: 'closed'}, so a CLI waiting on it never hangs.
    this.core.queue.cancelWhere(
      (request) => request.client.id === client.id && request.tabName === target,
      CLOSED_BY_CLIENT,
    );
  }

  private status(message: ClioMessage<'status'>): void {
    const level = message.level ?? 'info';
    this.core.clients.setStatus(
      this.client!.id,
      level === 'info' ? message.message : `${level}: ${message.message}`,
    );
  }

  /** Resolves and reads the file a proposal is about, refusing what cannot be proposed. */
  private async prepare(file: string, { mustExist }: { mustExist: boolean }): Promise<Prepared> {
    let real: string;
    try {
      real = resolveInsideWorkspace(file, this.core.workspaceFolders);
    } catch (error) {
      throw new ClioRequestError('PATH_OUTSIDE_WORKSPACE', (error as Error).message);
    }
    let base: DiskSnapshot;
    try {
      base = await readProposalBase(real, this.core.workspaceFolders);
    } catch (error) {
      throw new ClioRequestError('UNREVIEWABLE_FILE', (error as Error).message);
    }
    if (base.exists && base.kind === 'opaque') {
      throw new ClioRequestError(
        'UNREVIEWABLE_FILE',
        `File is ${base.why}; Clio edits are text only: ${file}`,
      );
    }
    if (!base.exists && mustExist) throw new ClioRequestError('FILE_NOT_FOUND', `File not found: ${file}`);
    return { path: real, base, text: base.exists ? base.text : '' };
  }

  private propose(proposal: Proposal): void {
    // The socket closed while the file was read: its reviews were cancelled already; add none.
    if (this.closed) return;
    const client = this.client!;
    // Nothing would change: nothing to review or write.
    if (proposal.base.exists && proposal.proposedText === proposal.text) {
      this.send({ type: 'diffAccepted', file: proposal.file, content: proposal.text });
      return;
    }
    const { id, outcome } = this.core.queue.add({
      client,
      title: displayPath(proposal.path, this.core.workspaceFolders),
      ...(proposal.description !== undefined && { description: proposal.description }),
      // One pending review per file and client: a newer proposal for the file supersedes the older.
      tabName: proposal.path,
      files: [{ path: proposal.path, base: proposal.base, proposedText: proposal.proposedText }],
    });
    if (proposal.autoApply) {
      try {
        this.core.queue.submit(id);
      } catch (error) {
        // E.g. conflict markers in the proposed text: left pending, for the person to decide.
        if (!(error instanceof ReviewError)) throw error;
        this.options.log(`clio: auto-apply left ${proposal.file} for review: ${error.message}`);
      }
    }
    void this.answer(id, proposal, outcome).catch((error: unknown) =>
      this.options.log(`clio: failed to answer for ${proposal.file}: ${(error as Error).message}`),
    );
  }

  private async answer(id: string, proposal: Proposal, outcome: Promise<ReviewOutcome>): Promise<void> {
    const result = await outcome;
    const { file } = proposal;
    switch (result.kind) {
      case 'accepted': {
        const final = result.files[0]!;
        if (proposal.difftrayWrites) {
          const written = await this.core.files.apply({
            path: proposal.path,
            expected: final.expectedOnDisk,
            target: { exists: true, kind: 'text', text: final.finalText },
          });
          if (written.status !== 'applied') {
            this.options.log(`clio: did not write ${proposal.path}: ${written.reason}`);
            this.core.queue.addNote(id, `Not written: ${written.reason}`);
            this.sendError(clioWriteErrorCode(written.code), `Not written: ${file}: ${written.reason}`, file);
            return;
          }
        }
        this.send({ type: 'diffAccepted', file, content: final.finalText });
        return;
      }
      case 'rejected':
        this.send({
          type: 'diffRejected',
          file,
          ...(result.reason !== undefined && { reason: result.reason }),
        });
        return;
      case 'superseded':
        this.send({ type: 'diffRejected', file, reason: 'superseded' });
        return;
      case 'cancelled':
        this.send({
          type: 'diffRejected',
          file,
          reason: result.reason === CLOSED_BY_CLIENT ? 'closed' : result.reason,
        });
        return;
    }
  }

  private autoApplyIsOn(): boolean {
    const name = this.client!.name.toLowerCase();
    return this.options.autoApply().some((entry) => entry.trim().toLowerCase() === name);
  }

  private send(message: ClioServerMessage): void {
    sendText(this.socket, JSON.stringify(message), 'clio', this.options.log);
  }

  private sendError(code: ClioErrorCode, message: string, file?: string): void {
    this.send({ type: 'error', code, message, ...(file !== undefined && { file }) });
  }
}

/** The Clio error code for a write the core refused or could not make. */
function clioWriteErrorCode(code: ApplyFailureCode): ClioErrorCode {
  if (code === 'outside_workspace') return 'PATH_OUTSIDE_WORKSPACE';
  if (code === 'changed_on_disk') return 'FILE_CHANGED';
  if (code === 'not_regular_file' || code === 'not_text') return 'UNREVIEWABLE_FILE';
  return 'WRITE_FAILED';
}

function checkSize(text: string): void {
  if (Buffer.byteLength(text, 'utf8') > MAX_FILE_BYTES) {
    throw new ClioRequestError(
      'UNREVIEWABLE_FILE',
      `The proposed text is larger than the ${MAX_FILE_BYTES / 1024 / 1024} MB limit`,
    );
  }
}

function joinText(...parts: Array<string | undefined>): string | undefined {
  const present = parts.filter((part): part is string => part !== undefined && part.trim() !== '');
  return present.length > 0 ? present.join('\n\n') : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
