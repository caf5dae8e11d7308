/**
 * One native connection: seed-003 envelopes over one WebSocket, mapped onto core.
 *
 * - Every message is validated; a bad one gets an `error_response` with a numbered code and the
 *   connection lives on. Messages are taken in one at a time, in order.
 * - `hello` opens (or resumes) a session; change sets are proposed in it and their results are pushed
 *   (`change_set_result`) to whichever connection holds the session when the person decides.
 * - Every frame counts against the rate limits, well-formed or not: the connection's own and the
 *   endpoint's (shared by all connections, so opening many does not escape it).
 * - Any message counts as a sign of life; with none for about three heartbeat intervals the server closes
 *   the socket with 4001 (the session then waits for a reconnect, see sessions.ts).
 */
import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import type { AppCore } from '../../core/app-core';
import type { ProposedFile } from '../../core/review-queue';
import { TooManyPendingReviewsError } from '../../core/review-queue';
import { rawDataToString } from '../raw-data';
import { RateWindow, type RateLimit } from '../rate-limit';
import { onGuardedMessage, sendText, SerialIntake } from '../socket-guard';
import {
  ChangeSetError,
  planChangeSet,
  type PlannedFile,
  type ReviewedFile,
  type SkippedFile,
} from './change-set';
import { ContextError, getFileContent, getFileTree } from './context';
import {
  CloseCode,
  describeIssue,
  envelopeSchema,
  ErrorCode,
  isRequestCommand,
  NATIVE_MAX_FILE_BYTES,
  NATIVE_MAX_FILES_PER_CHANGE_SET,
  NATIVE_MAX_MESSAGE_BYTES,
  NATIVE_PROTOCOL_VERSION,
  requestSchemas,
  SESSIONLESS_COMMANDS,
  type ChangeSetResult,
  type Envelope,
  type ErrorPayload,
  type HelloResponse,
  type Limits,
  type ProposeResponse,
  type RequestCommand,
  type RequestPayload,
  type ReviewInfo,
  type ShowWindowResponse,
  type StatusResponse,
} from '../../../shared/native-protocol';
import { settleChangeSet } from './outcome';
import type { NativeSessions, ReviewRecord, Session, SessionConnection } from './sessions';

export interface AppHooks {
  /** The headless UI's address (with its token), when DiffTray runs headless. */
  headlessUrl?: () => string | undefined;
  /** Shows and focuses the window (the desktop app). */
  showWindow?: () => void;
}

export interface NativeConnectionOptions {
  core: AppCore;
  sessions: NativeSessions;
  serverVersion: string;
  heartbeatIntervalMs: number;
  /** This connection's own limit. */
  rateLimit: RateLimit;
  /** The endpoint's limit, shared by every connection. */
  endpointRate: RateWindow;
  hooks: () => AppHooks;
  log: (message: string) => void;
}

/** A refusal with its protocol code; the message reaches the client as is. */
class RequestError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Heartbeats a client may miss before the server gives up on the connection. */
const MISSED_HEARTBEATS = 3;

export function serveNativeConnection(socket: WebSocket, options: NativeConnectionOptions): void {
  new NativeConnection(socket, options);
}

class NativeConnection implements SessionConnection {
  private session: Session | undefined;
  private closed = false;
  private readonly intake: SerialIntake;
  private lastSeen = Date.now();
  private readonly heartbeatTimer: NodeJS.Timeout;
  private readonly rate: RateWindow;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: NativeConnectionOptions,
  ) {
    this.intake = new SerialIntake('native', options.log, socket);
    this.rate = new RateWindow(options.rateLimit);
    // Whatever a message handler throws is logged and answered with 5001; the socket lives on.
    const failed = () =>
      this.sendError(undefined, 'error', {
        code: ErrorCode.INTERNAL,
        message: 'DiffTray could not handle this message',
      });
    onGuardedMessage(
      socket,
      'native',
      options.log,
      (data) => {
        this.lastSeen = Date.now();
        // Counted as it arrives, before anything is parsed.
        const limited = this.rateLimited();
        const text = rawDataToString(data);
        this.intake.enqueue(() => this.receive(text, limited), failed);
      },
      failed,
    );
    socket.on('close', () => this.onClose());
    this.heartbeatTimer = setInterval(() => this.checkHeartbeat(), options.heartbeatIntervalMs);
    this.heartbeatTimer.unref?.();
  }

  private get core(): AppCore {
    return this.options.core;
  }

  // SessionConnection

  deliver(result: ChangeSetResult): void {
    this.push('change_set_result', result);
  }

  end(code: number, reason: string): void {
    this.closed = true;
    this.session = undefined;
    clearInterval(this.heartbeatTimer);
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.close(code, reason);
    }
  }

  private onClose(): void {
    this.closed = true;
    clearInterval(this.heartbeatTimer);
    const session = this.session;
    this.session = undefined;
    if (session) this.options.sessions.detach(session, this);
  }

  private checkHeartbeat(): void {
    if (this.closed) return;
    if (Date.now() - this.lastSeen <= MISSED_HEARTBEATS * this.options.heartbeatIntervalMs) return;
    this.options.log('native: closing a connection that stopped sending heartbeats');
    this.sendError(undefined, 'heartbeat', {
      code: ErrorCode.HEARTBEAT_TIMEOUT,
      message: `No heartbeat for ${MISSED_HEARTBEATS} intervals of ${this.options.heartbeatIntervalMs} ms`,
    });
    this.socket.close(CloseCode.HEARTBEAT_TIMEOUT, 'heartbeat timeout');
  }

  /**
   * Counts one frame against this connection's limit and the endpoint's (fixed windows). Over either,
   * the frame is answered with 4002 and not handled; the refusal says which limit it was.
   */
  private rateLimited(): string | undefined {
    const ownOk = this.rate.take();
    const endpointOk = this.options.endpointRate.take();
    if (!ownOk) {
      const { messages, perMs } = this.rate.limit;
      return `Rate limited: at most ${messages} messages per ${perMs} ms on one connection`;
    }
    if (!endpointOk) {
      const { messages, perMs } = this.options.endpointRate.limit;
      return `Rate limited: at most ${messages} messages per ${perMs} ms across all connections`;
    }
    return undefined;
  }

  private async receive(text: string, rateLimited: string | undefined): Promise<void> {
    if (this.closed) return;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      this.sendError(undefined, 'error', {
        code: rateLimited !== undefined ? ErrorCode.RATE_LIMITED : ErrorCode.MALFORMED_JSON,
        message: rateLimited ?? `Malformed JSON: ${(error as Error).message}`,
      });
      return;
    }
    const messageId = isRecord(raw) && typeof raw.message_id === 'string' ? raw.message_id : undefined;
    const command = isRecord(raw) && typeof raw.command === 'string' ? raw.command : 'error';
    try {
      if (rateLimited !== undefined) throw new RequestError(ErrorCode.RATE_LIMITED, rateLimited);
      const envelope = envelopeSchema.safeParse(raw);
      if (!envelope.success) {
        throw new RequestError(
          ErrorCode.INVALID_ENVELOPE,
          `Invalid envelope: ${describeIssue(envelope.error)}`,
        );
      }
      const message = envelope.data;
      if (message.type !== 'request') {
        throw new RequestError(
          ErrorCode.INVALID_ENVELOPE,
          `Invalid envelope: a client sends "request"s, not "${message.type}"`,
        );
      }
      if (!isRequestCommand(message.command)) {
        throw new RequestError(ErrorCode.UNKNOWN_COMMAND, `Unknown command: ${message.command}`);
      }
      const parsed = requestSchemas[message.command].safeParse(message.payload ?? {});
      if (!parsed.success) {
        throw new RequestError(
          ErrorCode.INVALID_PAYLOAD,
          `Invalid payload for ${message.command}: ${describeIssue(parsed.error)}`,
        );
      }
      if (!this.session && !SESSIONLESS_COMMANDS.has(message.command)) {
        throw new RequestError(
          ErrorCode.SESSION_UNKNOWN,
          `No session: send "hello" before "${message.command}"`,
        );
      }
      await this.handle(message as Envelope, message.command, parsed.data);
    } catch (error) {
      if (error instanceof RequestError) {
        this.sendError(messageId, command, {
          code: error.code,
          message: error.message,
          ...(error.details !== undefined && { details: error.details }),
        });
      } else if (error instanceof TooManyPendingReviewsError) {
        this.sendError(messageId, command, {
          code: ErrorCode.TOO_MANY_PENDING_REVIEWS,
          message: error.message,
          details: { limit: error.limit },
        });
      } else {
        this.options.log(`native: failed to handle a message: ${(error as Error).stack ?? String(error)}`);
        this.sendError(messageId, command, {
          code: ErrorCode.INTERNAL,
          message: `DiffTray could not handle this message: ${(error as Error).message}`,
        });
      }
    }
  }

  private async handle(message: Envelope, command: RequestCommand, payload: unknown): Promise<void> {
    const respond = (result: unknown) => this.respond(message, result);
    switch (command) {
      case 'hello':
        return this.hello(message, payload as RequestPayload<'hello'>);
      case 'heartbeat':
        return respond({ server_time: Date.now() });
      case 'propose_change_set':
        return this.propose(message, payload as RequestPayload<'propose_change_set'>);
      case 'get_review':
        return respond(this.reviewInfo(this.record((payload as RequestPayload<'get_review'>).review_id)));
      case 'list_reviews':
        return respond({
          reviews: [...this.session!.reviews.values()].map((record) => this.reviewInfo(record)),
        });
      case 'cancel_review':
        return respond(this.cancel(payload as RequestPayload<'cancel_review'>));
      case 'status':
        return respond(this.status(payload as RequestPayload<'status'>));
      case 'show_window':
        return respond(this.showWindow());
      case 'get_file_tree':
        return respond(
          await this.context(() =>
            getFileTree(payload as RequestPayload<'get_file_tree'>, this.core.workspaceFolders),
          ),
        );
      case 'get_file_content':
        return respond(
          await this.context(() =>
            getFileContent((payload as RequestPayload<'get_file_content'>).path, this.core.workspaceFolders),
          ),
        );
    }
  }

  private hello(message: Envelope, payload: RequestPayload<'hello'>): void {
    const { sessions } = this.options;
    let resumed = false;
    if (this.session) {
      if (payload.session_id !== undefined && payload.session_id !== this.session.id) {
        throw new RequestError(
          ErrorCode.INVALID_PAYLOAD,
          `This connection already has session ${this.session.id}`,
        );
      }
    } else if (payload.session_id !== undefined) {
      const session = sessions.get(payload.session_id);
      if (!session) {
        throw new RequestError(
          ErrorCode.SESSION_UNKNOWN,
          `Unknown session ${payload.session_id}: it ended (or DiffTray restarted); say hello without session_id`,
        );
      }
      sessions.attach(session, this, payload.client_name, payload.client_version);
      this.session = session;
      resumed = true;
    } else {
      this.session = sessions.create(payload.client_name, payload.client_version, this);
    }
    const response: HelloResponse = {
      session_id: this.session.id,
      resumed,
      server_name: 'DiffTray',
      server_version: this.options.serverVersion,
      heartbeat_interval_ms: this.options.heartbeatIntervalMs,
      limits: this.limits(),
      workspace_folders: [...this.core.workspaceFolders],
    };
    this.respond(message, response);
    // What was decided while the client was away follows the hello response.
    for (const result of sessions.takeUndelivered(this.session)) this.deliver(result);
  }

  private limits(): Limits {
    return {
      max_file_bytes: NATIVE_MAX_FILE_BYTES,
      max_message_bytes: NATIVE_MAX_MESSAGE_BYTES,
      max_files_per_change_set: NATIVE_MAX_FILES_PER_CHANGE_SET,
      rate_limit: { messages: this.options.rateLimit.messages, per_ms: this.options.rateLimit.perMs },
    };
  }

  private async propose(message: Envelope, payload: RequestPayload<'propose_change_set'>): Promise<void> {
    let planned: PlannedFile[];
    try {
      planned = await planChangeSet(payload, { workspaceFolders: this.core.workspaceFolders });
    } catch (error) {
      if (error instanceof ChangeSetError) throw new RequestError(error.code, error.message, error.details);
      throw error;
    }
    const session = this.session;
    // The socket closed while the files were read: the client never learns of this review; add none.
    if (this.closed || !session) return;
    const reviewed = planned.filter((entry): entry is ReviewedFile => entry.kind === 'review');
    const skipped = planned.filter((entry) => entry.kind === 'skipped');
    const files = planned.map(fileStatus);
    if (reviewed.length === 0 && skipped.length > 0) {
      const first = skipped[0]!;
      throw new RequestError(
        first.code,
        `Nothing to review: ${skipped.map((entry) => `${entry.path}: ${entry.reason}`).join('; ')}`,
        { files },
      );
    }
    if (reviewed.length === 0) {
      // Every file already is as proposed: answered at once, with nothing to review.
      const id = `noop-${randomUUID()}`;
      const record: ReviewRecord = {
        id,
        title: payload.title,
        createdAt: Date.now(),
        request: undefined,
        planned,
      };
      session.reviews.set(id, record);
      this.respond(message, { review_id: id, files } satisfies ProposeResponse);
      const result = await settleChangeSet(
        this.core.files,
        id,
        planned,
        { kind: 'accepted', files: [] },
        undefined,
      );
      this.options.sessions.deliver(session, record, result);
      return;
    }
    const request = {
      client: session.client!,
      title: payload.title,
      description: describe(payload, planned),
      files: reviewed.map(toProposedFile),
    };
    const { id, outcome } = this.core.queue.add(request);
    const record: ReviewRecord = { id, title: payload.title, createdAt: Date.now(), request, planned };
    session.reviews.set(id, record);
    this.respond(message, { review_id: id, files } satisfies ProposeResponse);
    const settling = outcome
      .then(async (result) => {
        // Undefined once trimmed from history: the hunks cannot be described, the files still can.
        const summary = this.core.queue.find(id);
        const settled = await settleChangeSet(this.core.files, id, planned, result, summary);
        // One result per planned file, in order. Files refused before review were never decided;
        // those that failed when written were, and History must say so.
        settled.files.forEach((file, i) => {
          if (planned[i]?.kind === 'skipped') return;
          if (file.status === 'conflict' || file.status === 'error') {
            this.core.queue.addNote(id, `${file.path}: ${file.reason ?? file.status}`);
          }
        });
        this.options.sessions.deliver(session, record, settled);
      })
      .catch((error: unknown) =>
        this.options.log(`native: failed to settle review ${id}: ${(error as Error).stack ?? String(error)}`),
      );
    // Tracked from the moment the review ends: closing waits for what is being written.
    void outcome.then(() => this.options.sessions.track(settling));
  }

  private record(reviewId: string): ReviewRecord {
    const record = this.session!.reviews.get(reviewId);
    if (!record) throw new RequestError(ErrorCode.INVALID_PAYLOAD, `No review ${reviewId} in this session`);
    return record;
  }

  private reviewInfo(record: ReviewRecord): ReviewInfo {
    let state: ReviewInfo['state'] = 'pending';
    if (record.result) {
      state =
        record.result.status === 'cancelled'
          ? 'cancelled'
          : record.result.status === 'rejected'
            ? 'rejected'
            : 'accepted';
    } else if (record.request) {
      // Undefined when gone from history while still settling.
      state = this.core.queue.find(record.id)?.state ?? state;
    }
    return {
      review_id: record.id,
      title: record.title,
      state,
      created_at: record.createdAt,
      ...(record.result && { result: record.result }),
    };
  }

  private cancel(payload: RequestPayload<'cancel_review'>): { cancelled: boolean } {
    const record = this.record(payload.review_id);
    const request = record.request;
    if (!request || record.result) return { cancelled: false };
    const count = this.core.queue.cancelWhere(
      (candidate) => candidate === request,
      payload.reason?.trim() || 'cancelled by the client',
    );
    return { cancelled: count > 0 };
  }

  private status(payload: RequestPayload<'status'>): StatusResponse {
    if (payload.message !== undefined) {
      const client = this.session?.client;
      if (!client)
        throw new RequestError(ErrorCode.SESSION_UNKNOWN, 'No session: send "hello" before a status message');
      const level = payload.level ?? 'info';
      this.core.clients.setStatus(
        client.id,
        level === 'info' ? payload.message : `${level}: ${payload.message}`,
      );
    }
    const headlessUrl = this.options.hooks().headlessUrl?.();
    return {
      server_version: this.options.serverVersion,
      pid: process.pid,
      workspace_folders: [...this.core.workspaceFolders],
      pending: this.core.queue.pendingCount(),
      clients: this.core.clients.list().map((client) => ({
        name: client.name,
        protocol: client.protocol,
        ...(client.version !== undefined && { version: client.version }),
        since: client.connectedAt,
        ...(client.status && { status: client.status.text }),
      })),
      ...(headlessUrl !== undefined && { headless_url: headlessUrl }),
    };
  }

  private showWindow(): ShowWindowResponse {
    const hooks = this.options.hooks();
    const headlessUrl = hooks.headlessUrl?.();
    if (hooks.showWindow) {
      hooks.showWindow();
      return { shown: true, ...(headlessUrl !== undefined && { headless_url: headlessUrl }) };
    }
    return { shown: false, ...(headlessUrl !== undefined && { headless_url: headlessUrl }) };
  }

  private async context<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof ContextError) throw new RequestError(error.code, error.message);
      throw error;
    }
  }

  private respond(request: Envelope, payload: unknown): void {
    this.send({
      protocol_version: NATIVE_PROTOCOL_VERSION,
      message_id: request.message_id,
      type: 'response',
      command: request.command,
      payload,
    });
  }

  private push(command: string, payload: unknown): void {
    this.send({
      protocol_version: NATIVE_PROTOCOL_VERSION,
      message_id: randomUUID(),
      type: 'push',
      command,
      payload,
    });
  }

  /** Echoes the request's message_id when it had one; otherwise a fresh id. */
  private sendError(messageId: string | undefined, command: string, payload: ErrorPayload): void {
    this.send({
      protocol_version: NATIVE_PROTOCOL_VERSION,
      message_id: messageId ?? randomUUID(),
      type: 'error_response',
      command,
      payload,
    });
  }

  private send(message: Envelope): void {
    sendText(this.socket, JSON.stringify(message), 'native', this.options.log);
  }
}

function fileStatus(entry: PlannedFile): ProposeResponse['files'][number] {
  switch (entry.kind) {
    case 'review':
      return { path: entry.path, status: 'pending', disk: entry.disk };
    case 'unchanged':
      return { path: entry.path, status: 'pending', disk: 'old_side', reason: 'already as proposed' };
    case 'skipped':
      return {
        path: entry.path,
        status: entry.status,
        disk: entry.disk,
        reason: entry.reason,
        code: entry.code,
      };
  }
}

function toProposedFile(entry: ReviewedFile): ProposedFile {
  return {
    path: entry.real,
    base: entry.base,
    proposedText: entry.proposedText,
    ...(entry.onDisk && { onDisk: entry.onDisk }),
  };
}

/** The review's description: rationale, acceptance criteria, and what the person should know about the files. */
function describe(
  payload: RequestPayload<'propose_change_set'>,
  planned: readonly PlannedFile[],
): string | undefined {
  const parts: string[] = [];
  if (payload.rationale?.trim()) parts.push(payload.rationale.trim());
  const criteria = (payload.acceptance_criteria ?? []).map((c) => c.trim()).filter(Boolean);
  if (criteria.length > 0) parts.push(`Acceptance criteria:\n${criteria.map((c) => `- ${c}`).join('\n')}`);
  const written = planned.filter((entry) => entry.kind === 'review' && entry.disk === 'new_side');
  if (written.length > 0) {
    parts.push(
      `Already written by the agent (rejected hunks are reverted on disk): ${written.map((e) => e.path).join(', ')}`,
    );
  }
  const deleted = planned.filter((entry) => entry.kind === 'review' && entry.deletes);
  if (deleted.length > 0) {
    parts.push(
      `Deleted by this change (accepted whole, the file is removed): ${deleted.map((e) => e.path).join(', ')}`,
    );
  }
  const left = planned.filter((entry): entry is SkippedFile => entry.kind === 'skipped');
  if (left.length > 0) parts.push(`Left out: ${left.map((e) => `${e.path} (${e.reason})`).join(', ')}`);
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
