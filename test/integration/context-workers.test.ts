/**
 * The context services' walks and searches never hold the thread that answers the window (issue 23,
 * item 10): thirty regular expression searches from ten native clients and a walk of a big folder are
 * asked for, then the window's app API is called over the headless server's WebSocket, again and again.
 * Every window call is answered, correctly, before the first context answer comes back; then every
 * search answers what it should. No clock is read: the order of the answers is the proof. (On the main
 * thread, each walk of the big folder held the event loop from start to end, so each window call waited
 * for a whole walk, and context answers came back in between.)
 *
 * The same for get_file_tree's walk of a folder outside git: once the walk has begun (it reads the
 * folder's .gitignore), every window call is answered before the tree comes back. (On the main thread the
 * walk let other work run only every 10 ms, so it ended after a few turns of the event loop, before the
 * window's calls, which need two turns each, were all answered.)
 *
 * Also: a client that asks for more context work at once than its share is refused, clearly (4006),
 * and its socket lives on; get_file_tree counts in that share.
 */
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HeadlessServerMessage } from '../../shared/app-api';
import { CONTEXT_MAX_FILES, CONTEXT_MAX_JOBS_PER_CLIENT, SEARCH_MAX_RESULTS } from '../../shared/limits';
import { ErrorCode, NATIVE_AUTH_HEADER } from '../../shared/native-protocol';
import { observeFileReads } from '../../src-main/core/disk/disk-snapshot';
import { HeadlessServer } from '../../src-main/headless/headless-server';
import { makeTempDir } from '../support/temp';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

/** One folder of this many files: a walk of it is one long stretch of system calls. */
const BIG_FILES = 1000;
/** Every this many files holds the word searched for, once. */
const PLANT_EVERY = 100;
const SEARCH_CLIENTS = 10;
const SEARCHES_PER_CLIENT = 3;
const WINDOW_CALLS = 5;
/** Empty files in one folder for get_file_tree: a walk of tens of milliseconds, no file read. */
const TREE_FILES = 2_000;

let t: TestRuntime;
let headless: HeadlessServer;
let renderer: { dir: string; cleanup: () => void };
const sockets: WebSocket[] = [];

beforeEach(async () => {
  t = await startTestRuntime();
  renderer = makeTempDir('renderer');
  writeFileSync(path.join(renderer.dir, 'index.html'), '<!doctype html><title>DiffTray</title>');
  headless = await HeadlessServer.start({
    core: t.runtime.core,
    handler: t.runtime.handler,
    rendererDir: renderer.dir,
  });
});

afterEach(async () => {
  observeFileReads(undefined);
  for (const socket of sockets.splice(0)) socket.terminate();
  await headless.close();
  await t.close();
  renderer.cleanup();
});

/** `BIG_FILES` files of about 2 KB in `big/`; returns how many hold `needle<n>`. */
function writeBigFolder(): number {
  const folder = path.join(t.workspace, 'big');
  mkdirSync(folder);
  const filler = Array.from({ length: 40 }, (_, line) => `const value${line} = compute(${line});`);
  let planted = 0;
  for (let i = 0; i < BIG_FILES; i++) {
    const lines = [...filler];
    if (i % PLANT_EVERY === 0) {
      lines[20] = `call(needle${i});`;
      planted++;
    }
    writeFileSync(path.join(folder, `f${String(i).padStart(5, '0')}.ts`), `${lines.join('\n')}\n`);
  }
  return planted;
}

/** `TREE_FILES` empty files in `tree/`, and a .gitignore beside it that the walk reads first. */
function writeTreeFolder(): void {
  writeFileSync(path.join(t.workspace, '.gitignore'), '*.log\n');
  const folder = path.join(t.workspace, 'tree');
  mkdirSync(folder);
  for (let i = 0; i < TREE_FILES; i++) {
    closeSync(openSync(path.join(folder, `t${String(i).padStart(5, '0')}.txt`), 'w'));
  }
}

interface Answer {
  type: string;
  payload: Record<string, unknown>;
}

/** A native client whose requests may overlap: answers are matched by message_id, with no time limit. */
async function nativeClient(): Promise<(command: string, payload: unknown) => Promise<Answer>> {
  const { native } = t.runtime;
  const socket = new WebSocket(`ws://127.0.0.1:${native.port}`, {
    headers: { [NATIVE_AUTH_HEADER]: native.token },
  });
  sockets.push(socket);
  const waiting = new Map<string, (answer: Answer) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Answer & { message_id: string };
    waiting.get(message.message_id)?.(message);
    waiting.delete(message.message_id);
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let next = 0;
  const request = (command: string, payload: unknown) => {
    const message_id = `c${next++}`;
    socket.send(JSON.stringify({ protocol_version: '1.0', message_id, type: 'request', command, payload }));
    return new Promise<Answer>((resolve) => waiting.set(message_id, resolve));
  };
  expect((await request('hello', { client_name: 'context-agent' })).type).toBe('response');
  return request;
}

/** The window's side: the app API over the headless server's WebSocket, as the page uses it. */
async function windowApi(): Promise<(method: string) => Promise<HeadlessServerMessage>> {
  const socket = new WebSocket(`ws://127.0.0.1:${headless.port}/api?token=${headless.token}`, {
    origin: `http://127.0.0.1:${headless.port}`,
  });
  sockets.push(socket);
  const waiting = new Map<number, (message: HeadlessServerMessage) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as HeadlessServerMessage;
    if ('id' in message) {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let next = 1;
  return (method) => {
    const id = next++;
    socket.send(JSON.stringify({ id, method, params: {} }));
    return new Promise((resolve) => waiting.set(id, resolve));
  };
}

describe('context services in worker threads', () => {
  // Thirty searches take their time on two busy cores; nothing here waits for a clock.
  it(
    'the window is answered while 30 searches and a big walk run, before any of them',
    { timeout: 120_000 },
    async () => {
      const planted = writeBigFolder();
      const call = await windowApi();
      const clients = await Promise.all(Array.from({ length: SEARCH_CLIENTS + 1 }, () => nativeClient()));
      const order: string[] = [];
      const searches = clients.slice(0, SEARCH_CLIENTS).flatMap((request) =>
        Array.from({ length: SEARCHES_PER_CLIENT }, () =>
          request('search_workspace', {
            query: 'needle\\d+',
            isRegex: true,
            maxResults: SEARCH_MAX_RESULTS,
          }).then((answer) => {
            order.push('context');
            return answer;
          }),
        ),
      );
      const walk = clients[SEARCH_CLIENTS]!('get_folder_content', {
        folderPath: path.join(t.workspace, 'big'),
      }).then((answer) => {
        order.push('context');
        return answer;
      });

      for (let i = 0; i < WINDOW_CALLS; i++) {
        const answer = await call('getSnapshot');
        expect(answer).toMatchObject({ result: { workspaceFolders: [t.workspace], reviews: [] } });
        order.push('window');
      }
      const answers = await Promise.all(searches);
      const folder = await walk;

      expect(order.slice(0, WINDOW_CALLS)).toEqual(Array(WINDOW_CALLS).fill('window'));
      expect(order).toHaveLength(WINDOW_CALLS + searches.length + 1);
      for (const answer of answers) {
        expect(answer.type).toBe('response');
        const results = answer.payload.results as Array<{ path: string; line: number; lineText: string }>;
        expect(results).toHaveLength(planted);
        expect(results[1]).toMatchObject({
          path: path.join(t.workspace, 'big', `f${String(PLANT_EVERY).padStart(5, '0')}.ts`),
          line: 21,
          lineText: `call(needle${PLANT_EVERY});`,
        });
        expect(answer.payload.filesSearched).toBe(BIG_FILES);
      }
      expect(folder.type).toBe('response');
      expect((folder.payload.files as unknown[]).length).toBe(Math.min(BIG_FILES, CONTEXT_MAX_FILES));
      expect(folder.payload.truncated).toBe(BIG_FILES > CONTEXT_MAX_FILES);
    },
  );

  it(
    "get_file_tree's walk outside git: the window is answered while it runs, before it",
    { timeout: 60_000 },
    async () => {
      writeTreeFolder();
      const call = await windowApi();
      const request = await nativeClient();
      // The walk has begun once it reads the workspace's .gitignore (git ls-files was tried and failed).
      let walkBegun!: () => void;
      const begun = new Promise<void>((resolve) => (walkBegun = resolve));
      observeFileReads((file) => {
        if (file === path.join(t.workspace, '.gitignore')) walkBegun();
      });
      const order: string[] = [];
      const tree = request('get_file_tree', { max_entries: TREE_FILES + 10 }).then((answer) => {
        order.push('tree');
        return answer;
      });

      await begun;
      for (let i = 0; i < WINDOW_CALLS; i++) {
        const answer = await call('getSnapshot');
        expect(answer).toMatchObject({ result: { workspaceFolders: [t.workspace], reviews: [] } });
        order.push('window');
      }
      const answer = await tree;

      expect(order).toEqual([...Array<string>(WINDOW_CALLS).fill('window'), 'tree']);
      expect(answer.type).toBe('response');
      const files = answer.payload.files as string[];
      expect(files).toHaveLength(TREE_FILES + 1);
      expect(files[0]).toBe('.gitignore');
      expect(files[1]).toBe('tree/t00000.txt');
      expect(files.at(-1)).toBe(`tree/t${String(TREE_FILES - 1).padStart(5, '0')}.txt`);
      expect(answer.payload).toMatchObject({
        folder: t.workspace,
        filter_type: 'gitignore',
        truncated: false,
      });
    },
  );

  it('a client asking for more context work at once than its share gets 4006; the socket lives on', async () => {
    for (let i = 0; i < 50; i++) {
      writeFileSync(path.join(t.workspace, `f${i}.txt`), `line\nneedle ${i}\n`);
    }
    const request = await nativeClient();
    const asked = CONTEXT_MAX_JOBS_PER_CLIENT + 3;
    // Sent at once: the connection takes each in turn, long before a worker answers the first.
    const answers = await Promise.all(
      Array.from({ length: asked }, () => request('search_workspace', { query: 'needle', isRegex: true })),
    );

    const served = answers.filter((answer) => answer.type === 'response');
    const refused = answers.filter((answer) => answer.type === 'error_response');
    expect(served).toHaveLength(CONTEXT_MAX_JOBS_PER_CLIENT);
    for (const answer of served) expect(answer.payload.results).toHaveLength(50);
    expect(refused).toHaveLength(asked - CONTEXT_MAX_JOBS_PER_CLIENT);
    for (const answer of refused) {
      expect(answer.payload.code).toBe(ErrorCode.CONTEXT_BUSY);
      expect(answer.payload.message).toContain(
        `already has ${CONTEXT_MAX_JOBS_PER_CLIENT} context requests running or waiting`,
      );
    }
    // Answered, its share is free again.
    const again = await request('search_workspace', { query: 'needle 7' });
    expect(again.type).toBe('response');
    expect(again.payload.results).toMatchObject([{ path: path.join(t.workspace, 'f7.txt'), line: 2 }]);
  });

  it('get_file_tree counts in the same share: past it, 4006 at once', async () => {
    for (let i = 0; i < 50; i++) writeFileSync(path.join(t.workspace, `f${i}.txt`), 'x\n');
    const request = await nativeClient();
    const asked = CONTEXT_MAX_JOBS_PER_CLIENT + 2;
    const answers = await Promise.all(Array.from({ length: asked }, () => request('get_file_tree', {})));

    const served = answers.filter((answer) => answer.type === 'response');
    const refused = answers.filter((answer) => answer.type === 'error_response');
    expect(served).toHaveLength(CONTEXT_MAX_JOBS_PER_CLIENT);
    for (const answer of served) expect(answer.payload.files).toHaveLength(50);
    expect(refused.map((answer) => answer.payload.code)).toEqual(Array(2).fill(ErrorCode.CONTEXT_BUSY));
    const again = await request('get_file_tree', {});
    expect(again.payload).toMatchObject({ folder: t.workspace, filter_type: 'default', truncated: false });
  });
});
