/**
 * One native connection: seed-003 envelopes over one WebSocket. This file keeps the socket's lifecycle
 * and decodes envelopes; each command is an entry of the command table (./commands).
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
import {
  CloseCode,
  describeIssue,
  envelopeSchema,
  ErrorCode,
  isRequestCommand,
  NATIVE_PROTOCOL_VERSION,
  PAIRED_COMMANDS,
  type Envelope,
  type ErrorPayload,
} from '../../../shared/native-protocol';
import { ReviewsPausedError, TooManyPendingReviewsError } from '../../core/review/review-queue';
import { rawDataToString } from '../../loopback/raw-data';
import { RateWindow } from '../rate-limit';
import { onGuardedMessage, sendText, SerialIntake } from '../../loopback/socket-guard';
import {
  nativeCommands,
  RequestError,
  type CommandConnection,
  type NativeServices,
  type PairedIdentity,
} from './commands';
import type { Session, SessionPush } from './sessions';
import { isRecord } from '../../../shared/is-record';
import { messageOf, stackOf } from '../../../shared/error-message';

export type { AppHooks } from './commands';

export interface NativeConnectionOptions extends NativeServices {
  /** The endpoint's limit, shared by every connection. */
  endpointRate: RateWindow;
  /** The paired client this connection authenticated as; undefined: the lock file's token. */
  paired?: PairedIdentity;
}

/** Heartbeats a client may miss before the server gives up on the connection. */
const MISSED_HEARTBEATS = 3;

export function serveNativeConnection(socket: WebSocket, options: NativeConnectionOptions): void {
  new NativeConnection(socket, options);
}

class NativeConnection implements CommandConnection {
  // Read by the commands (CommandConnection); set only here and by hold().
  session: Session | undefined;
  closed = false;
  readonly paired: PairedIdentity | undefined;
  private readonly intake: SerialIntake;
  private lastSeen = Date.now();
  private readonly heartbeatTimer: NodeJS.Timeout;
  private readonly rate: RateWindow;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: NativeConnectionOptions,
  ) {
    this.paired = options.paired;
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

  // CommandConnection

  hold(session: Session): void {
    this.session = session;
  }

  deliver({ command, payload }: SessionPush): void {
    this.push(command, payload);
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
    this.options.sessions.dropTarget(this);
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
        message: rateLimited ?? `Malformed JSON: ${messageOf(error)}`,
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
      if (this.paired && !PAIRED_COMMANDS.has(message.command)) {
        throw new RequestError(
          ErrorCode.LOCAL_ONLY,
          `"${message.command}" works on this machine's files: a paired client on another host may not use it`,
        );
      }
      const handler = nativeCommands[message.command];
      const parsed = handler.parse(message.payload ?? {});
      if (!parsed.success) {
        throw new RequestError(
          ErrorCode.INVALID_PAYLOAD,
          `Invalid payload for ${message.command}: ${describeIssue(parsed.error)}`,
        );
      }
      if (!this.session && !handler.sessionless) {
        throw new RequestError(
          ErrorCode.SESSION_UNKNOWN,
          `No session: send "hello" before "${message.command}"`,
        );
      }
      await parsed.run({
        services: this.options,
        connection: this,
        respond: (payload) => this.respond(message, payload),
        answerLater: (work) => {
          work.catch((error: unknown) => this.refuse(messageId, command, error));
        },
      });
    } catch (error) {
      this.refuse(messageId, command, error);
    }
  }

  /** A failed request's error_response: its protocol code, or 5001 (logged) for anything unforeseen. */
  private refuse(messageId: string | undefined, command: string, error: unknown): void {
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
    } else if (error instanceof ReviewsPausedError) {
      this.sendError(messageId, command, { code: ErrorCode.REVIEWS_PAUSED, message: error.message });
    } else {
      this.options.log(`native: failed to handle a message: ${stackOf(error)}`);
      this.sendError(messageId, command, {
        code: ErrorCode.INTERNAL,
        message: `DiffTray could not handle this message: ${messageOf(error)}`,
      });
    }
  }

  private respond(request: Pick<Envelope, 'message_id' | 'command'>, payload: unknown): void {
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
