/**
 * The native handshake on the server's side (shared/native-handshake.ts): a socket opened at
 * HANDSHAKE_PATH without a token challenges DiffTray, then authenticates in a message. Real runtime, real
 * sockets: the proof is checked as the `difftray` command checks it, and the socket before
 * authentication takes nothing but one challenge and one authenticate, in small frames, in a few seconds.
 */
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ErrorCode,
  HANDSHAKE_MAX_FRAME_BYTES,
  HANDSHAKE_PATH,
  SERVER_SIGNATURE_LABEL,
} from '../../shared/native-protocol';
import { isServerProof, isSignedBy, newNonce } from '../../src-main/core/pairing/handshake-proof';
import { MAX_PENDING_PREAUTH_CONNECTIONS } from '../../src-main/loopback/socket-guard';
import { RawNative } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

let t: TestRuntime;
const opened: RawNative[] = [];
beforeEach(async () => {
  t = await startTestRuntime();
});
afterEach(async () => {
  for (const client of opened.splice(0)) client.close();
  await t.close();
});

async function handshake(): Promise<RawNative> {
  const client = await RawNative.open(t.runtime.native.port, {}, HANDSHAKE_PATH);
  opened.push(client);
  return client;
}

const frame = (command: string, payload: unknown, id = 'h1') =>
  JSON.stringify({ protocol_version: '1.0', message_id: id, type: 'request', command, payload });

/** Frames sent at once on a fresh handshake socket: the first answer, and how the socket closed. */
function refusedAfter(
  frames: Array<string | Buffer>,
): Promise<{ answer?: Record<string, unknown>; close: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${t.runtime.native.port}${HANDSHAKE_PATH}`);
    const answers: Array<Record<string, unknown>> = [];
    socket.once('open', () => {
      for (const data of frames) socket.send(data);
    });
    socket.on('message', (data) => answers.push(JSON.parse(data.toString()) as Record<string, unknown>));
    socket.once('close', (close) =>
      resolve({ ...(answers.length > 0 && { answer: answers.at(-1) }), close }),
    );
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
    socket.once('error', () => {
      // Reported through close.
    });
  });
}

describe('the native handshake', () => {
  it('proves the lock token (HMAC of the nonce) and the host key (a signature), then serves the whole protocol', async () => {
    const client = await handshake();
    const nonce = newNonce();
    const challenge = await client.request('challenge', { nonce });
    expect(challenge.type).toBe('response');
    const answer = challenge.payload as {
      proof: string;
      signature: string;
      host_key: { fingerprint: string };
    };
    expect(isServerProof(t.runtime.native.token, nonce, answer.proof)).toBe(true);
    expect(isServerProof('another-token', nonce, answer.proof)).toBe(false);
    expect(isServerProof(t.runtime.native.token, newNonce(), answer.proof)).toBe(false);
    expect(answer.host_key).toEqual(t.runtime.pairing.hostKey.info);
    expect(isSignedBy(t.runtime.pairing.hostKey.info, SERVER_SIGNATURE_LABEL, nonce, answer.signature)).toBe(
      true,
    );
    // The proof is not the token, nor a signature for another purpose.
    expect(JSON.stringify(answer)).not.toContain(t.runtime.native.token);
    expect(isSignedBy(t.runtime.pairing.hostKey.info, 'another label', nonce, answer.signature)).toBe(false);

    const auth = await client.request('authenticate', { token: t.runtime.native.token });
    expect(auth).toMatchObject({ type: 'response', payload: { authenticated: true, paired: false } });
    // A frame over the pre-auth limit: the socket now takes what an authenticated one takes.
    const hello = await client.request('hello', {
      client_name: 'handshake-test',
      client_version: 'v'.repeat(2 * HANDSHAKE_MAX_FRAME_BYTES),
    });
    expect(hello).toMatchObject({ type: 'response', payload: { server_name: 'DiffTray' } });
  });

  it('authenticate may come without a challenge (the client’s risk); a wrong token is refused and closed', async () => {
    const wrong = await refusedAfter([frame('authenticate', { token: 'guess' })]);
    expect(wrong).toMatchObject({ answer: { payload: { code: ErrorCode.INVALID_TOKEN } }, close: 1008 });
    const client = await handshake();
    const auth = await client.request('authenticate', { token: t.runtime.native.token });
    expect(auth.payload).toMatchObject({ authenticated: true });
  });

  it('before authenticating: one challenge, nothing else; garbage, binary, a bad nonce answered once and closed', async () => {
    const nonce = newNonce();
    const twice = await refusedAfter([frame('challenge', { nonce }), frame('challenge', { nonce }, 'h2')]);
    expect(twice).toMatchObject({ answer: { payload: { code: ErrorCode.MISSING_TOKEN } }, close: 1008 });
    const hello = await refusedAfter([frame('hello', { client_name: 'x' })]);
    expect(hello).toMatchObject({ answer: { payload: { code: ErrorCode.MISSING_TOKEN } }, close: 1008 });
    const garbage = await refusedAfter(['{not json']);
    expect(garbage).toMatchObject({ answer: { payload: { code: ErrorCode.INVALID_ENVELOPE } }, close: 1008 });
    const binary = await refusedAfter([Buffer.from([0, 1, 2])]);
    expect(binary.close).toBe(1008);
    const badNonce = await refusedAfter([frame('challenge', { nonce: 'short' })]);
    expect(badNonce).toMatchObject({ answer: { payload: { code: ErrorCode.INVALID_PAYLOAD } }, close: 1008 });
  });

  it('closes on a frame over the pre-auth limit without answering, and on silence at the deadline', async () => {
    const huge = await refusedAfter([
      frame('authenticate', { token: 'x'.repeat(HANDSHAKE_MAX_FRAME_BYTES) }),
    ]);
    expect(huge).toEqual({ close: 1009 });
    const silent = await refusedAfter([]);
    expect(silent).toMatchObject({ answer: { payload: { code: ErrorCode.MISSING_TOKEN } }, close: 1008 });
  });

  it(`holds at most ${MAX_PENDING_PREAUTH_CONNECTIONS} sockets waiting to authenticate`, async () => {
    for (let i = 0; i < MAX_PENDING_PREAUTH_CONNECTIONS; i++) await handshake();
    await expect(handshake()).rejects.toMatchObject({ message: 'HTTP 503' });
    // One that authenticates makes room.
    await opened[0]!.request('authenticate', { token: t.runtime.native.token });
    await handshake();
  });
});
