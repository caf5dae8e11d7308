/**
 * Finding 6: a Clio client that has not proved its token (no header; the token is due in `connect`)
 * may not hold a socket open past the deadline, may not send big frames, and only a few such sockets
 * may wait at once. After `connect` with the token the full frame limit applies.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startClioEndpoint, type ClioEndpoint } from '../../src-main/bridge/clio';
import { MAX_PREAUTH_FRAME_BYTES } from '../../src-main/loopback/frame-limits';
import { MAX_PENDING_PREAUTH_CONNECTIONS } from '../../src-main/loopback/socket-guard';
import { closed, sendFrameHeader, sendInvalidUtf8 } from '../support/raw-frames';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview } from '../support/wait';

const HEADER = 'x-clio-ide-authorization';
const DEADLINE_MS = 400;

let t: TestRuntime;
let endpoint: ClioEndpoint;
let sockets: WebSocket[];

beforeEach(async () => {
  t = await startTestRuntime();
  sockets = [];
  endpoint = await startClioEndpoint({
    core: t.runtime.core,
    lockFile: path.join(t.home, 'clio-bridge.json'),
    authDeadlineMs: DEADLINE_MS,
  });
});

afterEach(async () => {
  for (const socket of sockets) socket.terminate();
  await endpoint.close();
  await t.close();
});

/** Opens a socket; resolves with it and the messages it receives, or with the HTTP status of a refusal. */
function open(headers: Record<string, string> = {}): Promise<{ socket: WebSocket; inbox: unknown[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${endpoint.port}`, { headers });
    sockets.push(socket);
    const inbox: unknown[] = [];
    socket.on('message', (data) => inbox.push(JSON.parse(data.toString())));
    socket.once('open', () => resolve({ socket, inbox }));
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

function nextMessage(socket: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) =>
    socket.once('message', (data) => resolve(JSON.parse(data.toString()) as Record<string, unknown>)),
  );
}

describe('Clio before authentication', () => {
  it('a socket that never sends connect is told why and closed after the deadline (1008)', async () => {
    const { socket, inbox } = await open();
    const end = await closed(socket, 5000);
    expect(end.code).toBe(1008);
    expect(end.reason).toMatch(/No connect with the token within 400 ms/);
    expect(inbox).toEqual([
      { type: 'error', code: 'UNAUTHORIZED', message: expect.stringMatching(/within 400 ms/) },
    ]);
  });

  it('a socket that keeps sending but never the token is closed after the deadline too', async () => {
    const { socket } = await open();
    const timer = setInterval(() => socket.send(JSON.stringify({ type: 'status', message: 'hi' })), 50);
    try {
      expect((await closed(socket, 5000)).code).toBe(1008);
    } finally {
      clearInterval(timer);
    }
  });

  it('a frame bigger than the pre-auth limit closes the socket (1009) from its header alone', async () => {
    const { socket } = await open();
    const end = closed(socket);
    // 60 MB announced, nothing of it sent: the server must not wait to buffer it.
    sendFrameHeader(socket, 60 * 1024 * 1024);
    expect((await end).code).toBe(1009);
  });

  it('a frame just over MAX_PREAUTH_FRAME_BYTES is refused; other sockets are unaffected', async () => {
    const bystander = await open({ [HEADER]: endpoint.token });
    const { socket } = await open();
    const end = closed(socket);
    socket.send(
      JSON.stringify({ type: 'connect', token: endpoint.token, pad: 'x'.repeat(MAX_PREAUTH_FRAME_BYTES) }),
    );
    expect((await end).code).toBe(1009);
    const answer = nextMessage(bystander.socket);
    bystander.socket.send(JSON.stringify({ type: 'connect' }));
    expect(await answer).toMatchObject({ type: 'connected' });
  });

  it('invalid UTF-8 before authentication closes that socket (1007) and nothing else', async () => {
    const { socket } = await open();
    const end = closed(socket);
    sendInvalidUtf8(socket);
    expect((await end).code).toBe(1007);
    const { socket: next } = await open();
    const answer = nextMessage(next);
    next.send(JSON.stringify({ type: 'connect', token: endpoint.token }));
    expect(await answer).toMatchObject({ type: 'connected' });
  });

  it(`at most ${MAX_PENDING_PREAUTH_CONNECTIONS} sockets may wait to authenticate at once (503)`, async () => {
    for (let i = 0; i < MAX_PENDING_PREAUTH_CONNECTIONS; i++) await open();
    await expect(open()).rejects.toThrow('HTTP 503');
    // A client with the header token is not kept out by them.
    const { socket } = await open({ [HEADER]: endpoint.token });
    expect(socket.readyState).toBe(WebSocket.OPEN);
  });

  it('after connect with the token: no deadline, and frames up to the full limit are taken', async () => {
    const { socket } = await open();
    const connected = nextMessage(socket);
    socket.send(JSON.stringify({ type: 'connect', token: endpoint.token }));
    expect(await connected).toMatchObject({ type: 'connected' });
    const file = path.join(t.workspace, 'big.txt');
    writeFileSync(file, 'old\n');
    // Ten times the pre-auth limit.
    const after = `${'x'.repeat(10 * MAX_PREAUTH_FRAME_BYTES)}\n`;
    socket.send(JSON.stringify({ type: 'openDiff', file, after }));
    const review = await waitForReview(t.runtime.core);
    expect(review.title).toBe('big.txt');
    await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS * 2));
    expect(socket.readyState).toBe(WebSocket.OPEN);
  });
});
