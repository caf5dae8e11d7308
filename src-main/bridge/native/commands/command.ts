/**
 * The native protocol's commands as data: each one a name, the zod schema of its payload (from
 * shared/native-protocol.ts) and a handler that receives the payload as that schema parsed it.
 * The connection (../connection.ts) decodes envelopes and looks commands up in the table (./index.ts).
 */
import type { z } from 'zod';
import {
  ErrorCode,
  requestSchemas,
  SESSIONLESS_COMMANDS,
  type RequestCommand,
  type RequestPayload,
} from '../../../../shared/native-protocol';
import type { ClientPort } from '../../../core/clients/agent-session';
import type { ContextPool } from '../../../core/context/context-pool';
import type { WatchMode } from '../../../core/watch/watch-mode';
import type { RateLimit } from '../../rate-limit';
import type { NativeSessions, Session, SessionConnection } from '../sessions';

/**
 * How the app shows itself to the person. Neither hook tells the caller where the UI is: the headless
 * UI's address carries its token, and whoever holds that decides reviews (the agent under review must not).
 */
export interface AppHooks {
  /** Shows and focuses the window (the desktop app). */
  showWindow?: () => void;
  /** Opens the headless UI in the person's browser, launched by DiffTray itself; false if it could not. */
  openInBrowser?: () => Promise<boolean>;
}

/** What commands use of the endpoint: the same for every connection. */
export interface NativeServices {
  /** Core, as adapters reach it. */
  port: ClientPort;
  sessions: NativeSessions;
  serverVersion: string;
  heartbeatIntervalMs: number;
  /** Each connection's own rate limit (stated in the hello response). */
  rateLimit: RateLimit;
  hooks: () => AppHooks;
  /** Watch mode, whose folders `watch_folder` turns on and off; absent where the app runs none (tests). */
  watch?: WatchMode;
  log: (message: string) => void;
  /** The worker threads that walk and search the workspace for the context commands. */
  contextPool: ContextPool;
  /** A minute of a turn review's time limit, in ms (turn-deadline.ts MINUTE_MS; shorter in tests). */
  turnMinuteMs?: number;
}

/** A paired client (an agent on another host) that proved its own token at the upgrade. */
export interface PairedIdentity {
  id: string;
  name: string;
}

/** The connection a command runs on, as commands see it. */
export interface CommandConnection extends SessionConnection {
  /** Set when the connection authenticated with a paired client's token, not the lock file's. */
  readonly paired: PairedIdentity | undefined;
  /** The session this connection holds, once it said hello. */
  readonly session: Session | undefined;
  /** The socket has closed: the client learns of nothing done from now on. */
  readonly closed: boolean;
  /** After hello: this connection holds `session`. */
  hold(session: Session): void;
}

export interface CommandContext {
  readonly services: NativeServices;
  readonly connection: CommandConnection;
  /** Answers the request being handled (a `response` with its message_id). */
  respond(payload: unknown): void;
  /**
   * Lets the connection go on to its next messages while `work` runs (a context job in a worker);
   * `work` answers with `respond`, and what it throws is answered as the handler's errors are.
   */
  answerLater(work: Promise<void>): void;
}

/** A refusal with its protocol code; the message reaches the client as is. */
export class RequestError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export type CommandHandler<C extends RequestCommand> = (
  payload: RequestPayload<C>,
  context: CommandContext,
) => void | Promise<void>;

/** A payload that passed its command's schema, bound to the command's handler. */
export type ParsedCommand =
  { success: true; run: (context: CommandContext) => Promise<void> } | { success: false; error: z.ZodError };

export interface NativeCommand<C extends RequestCommand = RequestCommand> {
  readonly name: C;
  /** May run before hello (a one-shot `difftray status` is not a client). */
  readonly sessionless: boolean;
  parse(payload: unknown): ParsedCommand;
}

/** Each command's schema, typed so that looking one up by a generic name keeps its payload type. */
const schemas: { readonly [C in RequestCommand]: z.ZodType<RequestPayload<C>> } = requestSchemas;

/** Pairs a command's schema with its handler, so the handler is typed by what the schema parses. */
export function defineCommand<C extends RequestCommand>(
  name: C,
  handle: CommandHandler<C>,
): NativeCommand<C> {
  const schema = schemas[name];
  return {
    name,
    sessionless: SESSIONLESS_COMMANDS.has(name),
    parse(payload) {
      const parsed = schema.safeParse(payload);
      if (!parsed.success) return { success: false, error: parsed.error };
      const { data } = parsed;
      return { success: true, run: async (context) => handle(data, context) };
    },
  };
}

/** The connection's session; the connection lets no command that needs one run without it. */
export function sessionOf(context: CommandContext, command: string): Session {
  const session = context.connection.session;
  if (!session) {
    throw new RequestError(ErrorCode.SESSION_UNKNOWN, `No session: send "hello" before "${command}"`);
  }
  return session;
}
