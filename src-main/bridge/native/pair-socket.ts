/**
 * The one way into the native endpoint without a token: `pair` at PAIR_PATH, for an agent on another host
 * that reaches DiffTray through a tunnel and cannot read the lock file.
 *
 * Kept as small as it can be: frames of at most PAIR_MAX_FRAME_BYTES (ws closes on a larger one with
 * 1009 before buffering it), one message in a few seconds (AUTH_DEADLINE_MS), a few such sockets at once,
 * and nothing but `pair` understood. Whatever it gets, the socket answers once and closes: a right code
 * gets the client's own token and DiffTray's host key (signed over the client's nonce), which the client
 * pins; anything else an error. Wrong codes are counted per peer address and
 * overall (core/pairing/pairing-codes.ts).
 */
import type http from 'node:http';
import type WebSocket from 'ws';
import {
  envelopeSchema,
  ErrorCode,
  PAIR_COMMAND,
  PAIR_MAX_FRAME_BYTES,
  PAIR_SIGNATURE_LABEL,
  pairPayloadSchema,
  describeIssue,
  type Envelope,
  type PairResponse,
} from '../../../shared/native-protocol';
import type { PairingPort } from '../../core/clients/agent-session';
import { PAIRING_MAX_WRONG } from '../../core/pairing/pairing-codes';
import { AUTH_DEADLINE_MS } from '../../loopback/frame-limits';
import { rawDataToString } from '../../loopback/raw-data';
import { createSocketServer, guardSocket, startAuthDeadline } from '../../loopback/socket-guard';
import { refuseBeforeAuth, respondBeforeAuth, type PreauthSocket } from './preauth-answers';
import { messageOf } from '../../../shared/error-message';

/** Pairing sockets open at once: pairing is one person typing one code. */
export const MAX_PAIR_SOCKETS = 4;

export class PairGate {
  readonly sockets = createSocketServer(PAIR_MAX_FRAME_BYTES);

  constructor(
    private readonly pairing: PairingPort,
    private readonly log: (message: string) => void,
  ) {}

  get full(): boolean {
    return this.sockets.clients.size >= MAX_PAIR_SOCKETS;
  }

  serve(socket: WebSocket, request: http.IncomingMessage): void {
    guardSocket(socket, 'native pair', this.log);
    const source = request.socket.remoteAddress ?? 'unknown';
    let answered = false;
    const deadline = startAuthDeadline(
      socket,
      () => {
        if (answered) return;
        answered = true;
        this.refuse(socket, undefined, ErrorCode.MISSING_TOKEN, 'No pair request in time');
      },
      AUTH_DEADLINE_MS,
    );
    socket.on('message', (data, isBinary) => {
      if (answered) return;
      answered = true;
      deadline.done();
      try {
        this.answer(socket, isBinary ? undefined : rawDataToString(data), source);
      } catch (error) {
        this.log(`native pair: failed: ${messageOf(error)}`);
        this.refuse(socket, undefined, ErrorCode.INTERNAL, 'DiffTray could not handle this message');
      }
    });
  }

  private answer(socket: WebSocket, text: string | undefined, source: string): void {
    let raw: unknown;
    try {
      raw = text === undefined ? undefined : JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const envelope = envelopeSchema.safeParse(raw);
    if (!envelope.success || envelope.data.type !== 'request') {
      const why = envelope.success ? 'a client sends requests' : describeIssue(envelope.error);
      return this.refuse(socket, undefined, ErrorCode.INVALID_ENVELOPE, `Invalid envelope: ${why}`);
    }
    const message = envelope.data;
    if (message.command !== PAIR_COMMAND) {
      return this.refuse(
        socket,
        message,
        ErrorCode.MISSING_TOKEN,
        `Only "pair" is taken without a token; send the lock file's or your paired token for "${message.command}"`,
      );
    }
    const payload = pairPayloadSchema.safeParse(message.payload ?? {});
    if (!payload.success) {
      return this.refuse(
        socket,
        message,
        ErrorCode.INVALID_PAYLOAD,
        `Invalid payload for pair: ${describeIssue(payload.error)}`,
      );
    }
    const result = this.pairing.pair(payload.data.code, payload.data.client_name, source);
    if (!result.ok) {
      this.log(`native pair: refused (${result.why}) from ${source}`);
      if (result.why === 'locked' || result.lockedUntil !== undefined) {
        const seconds = Math.max(1, Math.ceil(((result.lockedUntil ?? Date.now()) - Date.now()) / 1000));
        return this.refuse(
          socket,
          message,
          ErrorCode.PAIRING_LOCKED,
          `${result.why === 'wrong' ? 'Wrong pairing code. ' : ''}Pairing is locked for ${seconds} s after ${PAIRING_MAX_WRONG} wrong codes`,
          { locked_until: result.lockedUntil },
        );
      }
      const said = {
        no_code: 'No pairing code is active: press "Pair a remote agent" in DiffTray first',
        expired: 'The pairing code expired: press "Pair a remote agent" again for a new one',
        wrong: 'Wrong pairing code (or already used)',
      }[result.why];
      return this.refuse(socket, message, ErrorCode.PAIRING_REFUSED, said);
    }
    this.log(`native pair: paired "${payload.data.client_name}" from ${source}`);
    const { hostKey } = this.pairing;
    const { nonce } = payload.data;
    const response: PairResponse = {
      token: result.token,
      client_id: result.id,
      server_name: 'DiffTray',
      host_key: hostKey.info,
      ...(nonce !== undefined && { signature: hostKey.sign(PAIR_SIGNATURE_LABEL, nonce) }),
    };
    respondBeforeAuth(this.preauth(socket), message, response);
    socket.close(1000, 'paired');
  }

  private refuse(
    socket: WebSocket,
    request: Pick<Envelope, 'message_id' | 'command'> | undefined,
    code: ErrorCode,
    message: string,
    details?: unknown,
  ): void {
    refuseBeforeAuth(this.preauth(socket), request, code, message, { reason: 'pairing refused', details });
  }

  private preauth(socket: WebSocket): PreauthSocket {
    return { socket, label: 'native pair', log: this.log };
  }
}
