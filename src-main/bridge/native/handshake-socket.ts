/**
 * A socket opened at HANDSHAKE_PATH without a token (shared/native-handshake.ts): the client first makes
 * DiffTray prove who it is (`challenge`), then proves its own token (`authenticate`); from there on the
 * socket is an ordinary native connection.
 *
 * Until then it is kept as small as the pairing socket: frames of at most HANDSHAKE_MAX_FRAME_BYTES (ws
 * closes on a larger one with 1009 before buffering it), AUTH_DEADLINE_MS to authenticate, one challenge,
 * and nothing but these two commands understood. Anything else, or a wrong token, is answered once and
 * the socket closes.
 */
import type WebSocket from 'ws';
import type { RawData } from 'ws';
import {
  AUTHENTICATE_COMMAND,
  authenticatePayloadSchema,
  CHALLENGE_COMMAND,
  challengePayloadSchema,
  describeIssue,
  envelopeSchema,
  ErrorCode,
  NATIVE_MAX_MESSAGE_BYTES,
  SERVER_SIGNATURE_LABEL,
  type AuthenticateResponse,
  type ChallengeResponse,
  type Envelope,
} from '../../../shared/native-protocol';
import type { HostKey } from '../../core/pairing/host-key';
import { serverProof } from '../../core/pairing/handshake-proof';
import { rawDataToString } from '../../loopback/raw-data';
import { lastResort, setFrameLimit, startAuthDeadline } from '../../loopback/socket-guard';
import type { PairedIdentity } from './commands';
import { refuseBeforeAuth, respondBeforeAuth, type PreauthSocket } from './preauth-answers';

export interface HandshakeOptions {
  /** The lock file's token: the key of the server's proof. */
  token: string;
  hostKey: HostKey;
  /** The token's owner: the lock file's (local), a paired client, or nobody. */
  identify(token: string): { local: true } | { paired: PairedIdentity } | undefined;
  /** The socket authenticated: it is served as a native connection from now on. */
  admit(socket: WebSocket, paired: PairedIdentity | undefined): void;
  log: (message: string) => void;
}

export function serveHandshake(socket: WebSocket, options: HandshakeOptions): void {
  const self: PreauthSocket = { socket, label: 'native handshake', log: options.log };
  const refuse = (request: Envelope | undefined, code: ErrorCode, message: string) =>
    refuseBeforeAuth(self, request, code, message, { reason: 'not authenticated' });
  let challenged = false;
  let finished = false;
  const deadline = startAuthDeadline(socket, () => {
    if (finished) return;
    finished = true;
    refuse(undefined, ErrorCode.MISSING_TOKEN, 'No authenticate in time');
  });
  const onMessage = (data: RawData, isBinary: boolean) =>
    lastResort(
      () => handle(data, isBinary),
      'native handshake',
      options.log,
      () => {
        finished = true;
        refuse(undefined, ErrorCode.INTERNAL, 'DiffTray could not handle this message');
      },
    );
  const handle = (data: RawData, isBinary: boolean) => {
    if (finished) return;
    const message = isBinary ? undefined : parseRequest(rawDataToString(data));
    if (typeof message === 'string' || message === undefined) {
      finished = true;
      return refuse(undefined, ErrorCode.INVALID_ENVELOPE, message ?? 'Binary frame');
    }
    if (message.command === CHALLENGE_COMMAND && !challenged) {
      challenged = true;
      const payload = challengePayloadSchema.safeParse(message.payload ?? {});
      if (!payload.success) {
        finished = true;
        const why = `Invalid payload for challenge: ${describeIssue(payload.error)}`;
        return refuse(message, ErrorCode.INVALID_PAYLOAD, why);
      }
      const { nonce } = payload.data;
      const answer: ChallengeResponse = {
        proof: serverProof(options.token, nonce),
        signature: options.hostKey.sign(SERVER_SIGNATURE_LABEL, nonce),
        host_key: options.hostKey.info,
      };
      return respondBeforeAuth(self, message, answer);
    }
    finished = true;
    if (message.command !== AUTHENTICATE_COMMAND) {
      const why = `Only "challenge" (once) and "authenticate" are taken before authenticating, not "${message.command}"`;
      return refuse(message, ErrorCode.MISSING_TOKEN, why);
    }
    const payload = authenticatePayloadSchema.safeParse(message.payload ?? {});
    const who = payload.success ? options.identify(payload.data.token) : undefined;
    if (!who) return refuse(message, ErrorCode.INVALID_TOKEN, 'Invalid token');
    deadline.done();
    socket.off('message', onMessage);
    // Within this message's event: a frame that followed in the same read already meets the full limit
    // and the connection's own listener.
    setFrameLimit(socket, NATIVE_MAX_MESSAGE_BYTES);
    const paired = 'paired' in who ? who.paired : undefined;
    const answer: AuthenticateResponse = { authenticated: true, paired: paired !== undefined };
    respondBeforeAuth(self, message, answer);
    options.admit(socket, paired);
  };
  socket.on('message', onMessage);
}

/** The request, or why it is not one. */
function parseRequest(text: string): Envelope | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return 'Malformed JSON';
  }
  const envelope = envelopeSchema.safeParse(raw);
  if (!envelope.success) return `Invalid envelope: ${describeIssue(envelope.error)}`;
  if (envelope.data.type !== 'request') return 'Invalid envelope: a client sends requests';
  return envelope.data as Envelope;
}
