/**
 * Finding 3: one frame on the headless API socket must not end the app. The real headless app runs as a
 * subprocess (node dist/main/headless.cjs, built first) with a temp HOME; two API sockets are opened
 * with the UI token; the first gets the bad frame, the second must still be answered and the process
 * must still run.
 */
import WebSocket from 'ws';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HeadlessServerMessage } from '../../shared/app-api';
import { MAX_FRAME_BYTES } from '../../src-main/loopback/frame-limits';
import { closed, sendFrameHeader, sendInvalidUtf8 } from '../support/raw-frames';
import { startHeadlessProcess, type HeadlessProcess } from '../support/headless-process';
import { BUILD_TIMEOUT_MS, buildMain } from '../support/build';

beforeAll(buildMain, BUILD_TIMEOUT_MS);

type App = HeadlessProcess;

const startApp = () => startHeadlessProcess('headless-frames');

/** An API socket as the UI opens it, with its answers collected by id. */
class ApiSocket {
  private readonly messages: HeadlessServerMessage[] = [];
  private readonly waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as HeadlessServerMessage);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static open(url: string): Promise<ApiSocket> {
    const { port, searchParams } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api?token=${searchParams.get('token')}`, {
        origin: `http://127.0.0.1:${port}`,
      });
      const api = new ApiSocket(socket);
      socket.once('open', () => resolve(api));
      socket.once('error', reject);
    });
  }

  /** The first answer with `id`, waiting up to five seconds for it. */
  answer(id: number): Promise<HeadlessServerMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${id}`)), 5000);
      const check = () => {
        const found = this.messages.find((m) => 'id' in m && m.id === id);
        if (!found) return void this.waiters.push(check);
        clearTimeout(timer);
        resolve(found);
      };
      check();
    });
  }

  async getSnapshot(id: number): Promise<HeadlessServerMessage> {
    this.socket.send(JSON.stringify({ id, method: 'getSnapshot', params: {} }));
    return this.answer(id);
  }
}

let app: App;
let victim: ApiSocket;
let bystander: ApiSocket;

beforeEach(async () => {
  app = await startApp();
  victim = await ApiSocket.open(app.url);
  bystander = await ApiSocket.open(app.url);
}, 30_000);

afterEach(async () => {
  victim.socket.terminate();
  bystander.socket.terminate();
  await app.stop();
});

async function expectAppAlive(): Promise<void> {
  expect(await bystander.getSnapshot(100)).toMatchObject({ id: 100, result: { reviews: [] } });
  expect(app.child.exitCode).toBeNull();
  expect(app.child.signalCode).toBeNull();
}

describe('the headless API socket survives any frame', () => {
  it.each([
    ['null', 'null'],
    ['a number', '42'],
    ['an array', '[1,2]'],
    ['a string', '"getSnapshot"'],
    ['an object without method', '{"id": 3}'],
    ['an id that is not a number', '{"id": "x", "method": "getSnapshot"}'],
  ])('JSON %s: answered with an error, the socket and the app live on', async (_name, frame) => {
    victim.socket.send(frame);
    const answer = await victim.answer(typeof JSON.parse(frame)?.id === 'number' ? 3 : -1);
    expect(answer).toMatchObject({ error: { message: expect.stringContaining('Malformed message') } });
    expect(await victim.getSnapshot(7)).toMatchObject({ id: 7, result: { reviews: [] } });
    await expectAppAlive();
  });

  it('a text frame with invalid UTF-8 closes that socket (1007); the app lives on', async () => {
    const end = closed(victim.socket);
    sendInvalidUtf8(victim.socket);
    expect((await end).code).toBe(1007);
    await expectAppAlive();
  });

  it('a frame over the limit closes that socket (1009) before its payload is sent; the app lives on', async () => {
    const end = closed(victim.socket);
    // Over today's 64 MB limit as well as MAX_FRAME_BYTES.
    sendFrameHeader(victim.socket, Math.max(MAX_FRAME_BYTES, 64 * 1024 * 1024) + 1);
    expect((await end).code).toBe(1009);
    await expectAppAlive();
  });
});
