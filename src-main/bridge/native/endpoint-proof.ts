/**
 * Whether a loopback port is served by the DiffTray whose native lock file names it. A second start
 * asks this before it hands over to the DiffTray of an instance record (single-instance.ts): a record
 * left by a crash must never hand over to the program that took its port since.
 *
 * The check is the native handshake's challenge (shared/native-handshake.ts), as the `difftray` command
 * makes it: a fresh nonce goes out, and only the DiffTray that wrote `<lockDir>/<port>.lock` can answer
 * with the proof under that file's token. Nothing else is sent: the token never leaves this process.
 * A bare TCP connect proves nothing (any program may listen there now), nor do a pid and start time
 * alone: where start times cannot be read (macOS, Windows) a reused pid looks alive, and even where they
 * can, they say that the process lives, not that it still serves this port.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import WebSocket, { type RawData } from 'ws';
import {
  CHALLENGE_COMMAND,
  challengeResponseSchema,
  envelopeSchema,
  HANDSHAKE_PATH,
  lockFileSchema,
  NATIVE_PROTOCOL_VERSION,
  type Envelope,
} from '../../../shared/native-protocol';
import { isServerProof, newNonce } from '../../core/pairing/handshake-proof';
import { readRegularFile } from '../../core/disk/regular-file';

/**
 * How long the program on the port has to answer. Generous: a DiffTray busy with a large review must not
 * be taken for a stranger (a second DiffTray would start beside it); a stranger that says nothing costs a
 * second start this long, once.
 */
export const ENDPOINT_PROOF_TIMEOUT_MS = 5000;

/** Lock files and the answer to a challenge are a few hundred bytes; a stranger may send more. */
const MAX_LOCK_FILE_BYTES = 64 * 1024;
const MAX_ANSWER_BYTES = 16 * 1024;

export interface ClaimedEndpoint {
  /** Where the native lock files are: DIFFTRAY_HOME. */
  lockDir: string;
  port: number;
  /** The process that claims to serve there: its lock file must name it. */
  pid: number;
  processStart?: string;
}

/** True only when the program on `port` proves it knows the token of the lock file of `pid` for that port. */
export async function provesNativeEndpoint(
  claimed: ClaimedEndpoint,
  timeoutMs: number = ENDPOINT_PROOF_TIMEOUT_MS,
): Promise<boolean> {
  const token = lockFileToken(claimed);
  return token !== undefined && (await answersChallenge(claimed.port, token, timeoutMs));
}

/** The token of `<lockDir>/<port>.lock` when that file is the claimed process's, for that port. */
function lockFileToken({ lockDir, port, pid, processStart }: ClaimedEndpoint): string | undefined {
  let content: unknown;
  try {
    const file = path.join(lockDir, `${port}.lock`);
    content = JSON.parse(readRegularFile(file, { noFollow: true, maxBytes: MAX_LOCK_FILE_BYTES }));
  } catch {
    // Gone, a link, a FIFO, too large, not JSON: nothing to prove against.
    return undefined;
  }
  const lock = lockFileSchema.safeParse(content);
  if (!lock.success || lock.data.port !== port || lock.data.pid !== pid) return undefined;
  if (
    processStart !== undefined &&
    lock.data.processStart !== undefined &&
    lock.data.processStart !== processStart
  )
    return undefined;
  return lock.data.authToken;
}

/** Sends `challenge` at HANDSHAKE_PATH and checks the answer's proof; false on anything else, or silence. */
function answersChallenge(port: number, token: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const nonce = newNonce();
    const request: Envelope = {
      protocol_version: NATIVE_PROTOCOL_VERSION,
      message_id: randomUUID(),
      type: 'request',
      command: CHALLENGE_COMMAND,
      payload: { nonce },
    };
    const socket = new WebSocket(`ws://127.0.0.1:${port}${HANDSHAKE_PATH}`, {
      maxPayload: MAX_ANSWER_BYTES,
      handshakeTimeout: timeoutMs,
    });
    let settled = false;
    const done = (proved: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.terminate();
      resolve(proved);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('open', () => socket.send(JSON.stringify(request)));
    socket.once('message', (data: RawData, isBinary: boolean) =>
      done(!isBinary && isProof(data.toString(), request.message_id, token, nonce)),
    );
    // An HTTP server (not an upgrade), a refusal, a reset, a close: not DiffTray's answer.
    socket.once('unexpected-response', () => done(false));
    socket.on('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

function isProof(text: string, messageId: string, token: string, nonce: string): boolean {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return false;
  }
  const envelope = envelopeSchema.safeParse(raw);
  if (!envelope.success || envelope.data.type !== 'response' || envelope.data.message_id !== messageId)
    return false;
  const answer = challengeResponseSchema.safeParse(envelope.data.payload);
  return answer.success && isServerProof(token, nonce, answer.data.proof);
}
