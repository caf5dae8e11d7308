/**
 * One Clio connection: JSON messages with a `type` over one WebSocket. This file keeps the socket's
 * lifecycle and decodes messages; each message type has its handler in the table of ./handlers.
 *
 * - Every message is validated; a bad one gets an `error` and the connection lives on.
 * - Messages are taken in one at a time, in order, so a `closeDiff` always finds the proposal sent before
 *   it; answers (diffAccepted / diffRejected) go out whenever the person decides.
 * - Until the client proved its token (header at the upgrade, or `connect`), only `connect` is taken.
 * - When the socket goes, the client's pending reviews are cancelled: nobody is left to answer.
 */
import type WebSocket from 'ws';
import type { ClientInfo } from '../../../shared/app-api';
import type { AgentSession } from '../../core/clients/agent-session';
import { TooManyPendingReviewsError } from '../../core/review/review-queue';
import { rawDataToString } from '../../loopback/raw-data';
import { onGuardedMessage, sendText, SerialIntake } from '../../loopback/socket-guard';
import {
  CLIO_AUTH_HEADER,
  CLIO_CLIENT_NAME,
  ClioRequestError,
  connectedMessage,
  handleClioMessage,
  type ClioLink,
  type ClioServices,
} from './handlers';
import { describeIssue, isClioMessageType, type ClioErrorCode, type ClioServerMessage } from './messages';
import { isRecord } from '../../../shared/is-record';
import { messageOf, stackOf } from '../../../shared/error-message';

export { CLIO_AUTH_HEADER, CLIO_CLIENT_NAME } from './handlers';

export interface ClioConnectionOptions extends ClioServices {
  /** The upgrade carried the right token in the auth header. */
  authenticated: boolean;
  /** Called once, when the client has proved its token (at once when `authenticated`). */
  onAuthenticated?: () => void;
  /**
   * A `connect` without a token: the endpoint asks the person (prompt.ts) and later calls `allow` or
   * `refuse`. Until then every message is refused unread. Absent: a token is required.
   */
  onTokenlessConnect?: (clientName: string | undefined) => void;
}

export interface ServedClioConnection {
  /** Tells a client that has not authenticated why it is dropped, and closes the socket (1008). */
  refuse(reason: string): void;
  /**
   * Lets a client without a token in (the person allowed it): it is listed, with its process where it
   * was identified, and told `connected`.
   */
  allow(process?: { pid?: number; cwd?: string }): void;
}

export function serveClioConnection(socket: WebSocket, options: ClioConnectionOptions): ServedClioConnection {
  const connection = new ClioConnection(socket, options);
  return { refuse: (reason) => connection.refuse(reason), allow: (peer) => connection.allow(peer) };
}

const WAITING_FOR_PERMISSION =
  'Waiting for the person to allow this connection in DiffTray; nothing is taken until then';

class ClioConnection implements ClioLink {
  session: AgentSession | undefined;
  closed = false;
  /** A `connect` without a token is waiting for the person's answer. */
  private awaitingPermission = false;
  private clientVersion: string | undefined;
  readonly askToConnect?: (clientName: string | undefined, clientVersion: string | undefined) => void;
  private readonly intake: SerialIntake;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: ClioConnectionOptions,
  ) {
    this.intake = new SerialIntake('clio', options.log, socket);
    const onTokenlessConnect = options.onTokenlessConnect;
    if (onTokenlessConnect) {
      this.askToConnect = (clientName, clientVersion) => {
        this.awaitingPermission = true;
        this.clientVersion = clientVersion;
        onTokenlessConnect(clientName);
      };
    }
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
      this.session?.gone();
    });
  }

  refuse(reason: string): void {
    if (this.closed || this.client) return;
    this.sendError('UNAUTHORIZED', `${reason}: closing the connection`);
    this.close(1008, reason.slice(0, 120));
  }

  allow(peer: { pid?: number; cwd?: string } = {}): void {
    if (this.closed || this.client) return;
    this.awaitingPermission = false;
    this.register().describe({
      ...(this.clientVersion && { version: this.clientVersion }),
      ...(peer.pid !== undefined && { pid: peer.pid }),
      ...(peer.cwd !== undefined && { workspace: peer.cwd }),
    });
    this.send(connectedMessage());
  }

  // ClioLink

  get client(): ClientInfo | undefined {
    return this.session?.client;
  }

  register(): AgentSession {
    if (this.session) return this.session;
    this.session = this.options.port.connect(CLIO_CLIENT_NAME, 'clio', () =>
      this.socket.close(1000, 'disconnected by the user'),
    );
    this.options.onAuthenticated?.();
    return this.session;
  }

  close(code: number, reason: string): void {
    this.closed = true;
    this.socket.close(code, reason);
  }

  send(message: ClioServerMessage): void {
    sendText(this.socket, JSON.stringify(message), 'clio', this.options.log);
  }

  sendError(code: ClioErrorCode, message: string, file?: string): void {
    this.send({ type: 'error', code, message, ...(file !== undefined && { file }) });
  }

  private async receive(text: string): Promise<void> {
    if (this.closed) return;
    // Not even parsed: until the person allows it, a waiting client gets nothing done.
    if (this.awaitingPermission) return this.sendError('UNAUTHORIZED', WAITING_FOR_PERMISSION);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      this.sendError('INVALID_JSON', `Invalid JSON: ${messageOf(error)}`);
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
      const invalid = await handleClioMessage(type, raw, { services: this.options, connection: this });
      if (invalid) {
        throw new ClioRequestError('INVALID_MESSAGE', `Invalid ${type}: ${describeIssue(invalid)}`);
      }
    } catch (error) {
      if (error instanceof ClioRequestError) {
        this.sendError(error.code, error.message, file);
      } else if (error instanceof TooManyPendingReviewsError) {
        this.sendError('TOO_MANY_PENDING_REVIEWS', error.message, file);
      } else {
        this.options.log(`clio: failed to handle a message: ${stackOf(error)}`);
        this.sendError('INTERNAL_ERROR', `DiffTray could not handle this message: ${messageOf(error)}`, file);
      }
    }
  }
}
