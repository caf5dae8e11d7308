/**
 * Clio's messages as data: one handler per message type (./index.ts), each receiving the message as its
 * schema in ../messages.ts parsed it. The connection (../connection.ts) decodes and validates; handlers
 * map the message onto core and answer.
 */
import type { ClientInfo } from '../../../../shared/app-api';
import type { AgentSession, ClientPort } from '../../../core/clients/agent-session';
import type { ClioErrorCode, ClioMessage, ClioMessageType, ClioServerMessage } from '../messages';

export const CLIO_CLIENT_NAME = 'Clio';
export const CLIO_AUTH_HEADER = 'x-clio-ide-authorization';

/** What handlers use of the endpoint: the same for every connection. */
export interface ClioServices {
  /** Core, as adapters reach it. */
  port: ClientPort;
  token: string;
  /** Client names whose applyDiff is written without review (settings `autoApply`), read at each applyDiff. */
  autoApply: () => readonly string[];
  log: (message: string) => void;
}

/** The connection a message arrived on, as handlers see it. */
export interface ClioLink {
  /** Core's client entry, once the client proved its token. */
  readonly client: ClientInfo | undefined;
  /** Its session with core, once the client proved its token. */
  readonly session: AgentSession | undefined;
  /** The socket has closed (or is closing): nothing sent now reaches the client. */
  readonly closed: boolean;
  /** Lists the client under Connections (once): it proved its token. */
  register(): AgentSession;
  /** Closes the socket; nothing more is taken from it. */
  close(code: number, reason: string): void;
  send(message: ClioServerMessage): void;
  sendError(code: ClioErrorCode, message: string, file?: string): void;
  /**
   * A `connect` without a token, where the endpoint offers a connection prompt: the person is asked
   * (./prompt.ts); until allowed nothing else is taken. Absent: a token is required.
   */
  askToConnect?(clientName: string | undefined, clientVersion: string | undefined): void;
}

export interface ClioContext {
  readonly services: ClioServices;
  readonly connection: ClioLink;
}

/** A refusal with its protocol code; the message reaches the CLI as is. */
export class ClioRequestError extends Error {
  constructor(
    readonly code: ClioErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type ClioHandler<T extends ClioMessageType> = (
  message: ClioMessage<T>,
  context: ClioContext,
) => void | Promise<void>;

/** The client; the connection lets only `connect` through before the client proved its token. */
export function clientOf(context: ClioContext): ClientInfo {
  return sessionOf(context).client;
}

/** The client's session with core, on the same terms as clientOf. */
export function sessionOf({ connection }: ClioContext): AgentSession {
  const session = connection.session;
  if (!session) throw new ClioRequestError('UNAUTHORIZED', 'Not authenticated');
  return session;
}
