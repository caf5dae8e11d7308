/**
 * The answers of the two native sockets that speak before a token (pair-socket.ts and
 * handshake-socket.ts): one response to a request, or one refusal after which the socket closes.
 */
import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import {
  NATIVE_PROTOCOL_VERSION,
  type Envelope,
  type ErrorCode,
  type ErrorPayload,
} from '../../../shared/native-protocol';
import { sendText } from '../../loopback/socket-guard';

/** Policy violation: the socket is closed after its one refusal. */
const CLOSE_REFUSED = 1008;

export interface PreauthSocket {
  socket: WebSocket;
  /** Names the socket in the log ("native pair", "native handshake"). */
  label: string;
  log: (message: string) => void;
}

type RequestHead = Pick<Envelope, 'message_id' | 'command'>;

/** Answers `request` with `payload`. */
export function respondBeforeAuth(
  { socket, label, log }: PreauthSocket,
  request: RequestHead,
  payload: unknown,
) {
  send(
    { socket, label, log },
    {
      protocol_version: NATIVE_PROTOCOL_VERSION,
      message_id: request.message_id,
      type: 'response',
      command: request.command,
      payload,
    },
  );
}

/** Refuses `request` (or a frame that was none) with `code`, then closes the socket with `reason`. */
export function refuseBeforeAuth(
  to: PreauthSocket,
  request: RequestHead | undefined,
  code: ErrorCode,
  message: string,
  close: { reason: string; details?: unknown },
): void {
  const payload: ErrorPayload = {
    code,
    message,
    ...(close.details !== undefined && { details: close.details }),
  };
  send(to, {
    protocol_version: NATIVE_PROTOCOL_VERSION,
    message_id: request?.message_id ?? randomUUID(),
    type: 'error_response',
    command: request?.command ?? 'error',
    payload,
  });
  to.socket.close(CLOSE_REFUSED, close.reason);
}

function send({ socket, label, log }: PreauthSocket, envelope: Envelope): void {
  sendText(socket, JSON.stringify(envelope), label, log);
}
