/**
 * The native endpoint end to end below the UI: a raw `ws` client speaks the envelope protocol to the
 * real endpoint over loopback, the test decides through the app API (as the renderer would) or through
 * core.queue, and checks exactly what the client receives and what is on disk.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startNativeEndpoint,
  type NativeEndpoint,
  type NativeEndpointOptions,
} from '../../src-main/bridge/native';
import { MAX_FRAME_BYTES } from '../../src-main/loopback/frame-limits';
import { sendFrameHeader, sendInvalidUtf8 } from '../support/raw-frames';
import { NATIVE_HEADER as HEADER, RawNative } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview, waitForSnapshot } from '../support/wait';
import { messageOf } from '../../shared/error-message';

let t: TestRuntime;
let endpoint: NativeEndpoint;
let extraEndpoints: NativeEndpoint[];
let lockDir: string;
let clients: RawNative[];
let logs: string[];
let shown: number;
let browserOpens: number;
let browserOpensSucceed: boolean;

async function startEndpoint(options: Partial<NativeEndpointOptions> = {}): Promise<NativeEndpoint> {
  return startNativeEndpoint({
    core: t.runtime.core,
    lockDir,
    log: (message) => logs.push(message),
    ...options,
  });
}

beforeEach(async () => {
  t = await startTestRuntime();
  // A folder of its own: once the runtime starts a native endpoint too, its lock file (in
  // DIFFTRAY_HOME) stays out of these tests' way.
  lockDir = path.join(t.home, 'native-locks');
  clients = [];
  logs = [];
  shown = 0;
  browserOpens = 0;
  browserOpensSucceed = true;
  extraEndpoints = [];
  endpoint = await startEndpoint();
});

afterEach(async () => {
  for (const client of clients) client.close();
  for (const extra of extraEndpoints) await extra.close();
  await endpoint.close();
  await t.close();
});

const api = (method: string, params: Record<string, unknown>) => t.runtime.handler(method, params);
const core = () => t.runtime.core;
const ws = (name: string) => path.join(t.workspace, name);
const read = (name: string) => readFileSync(ws(name), 'utf8');
const sha256 = (name: string) =>
  createHash('sha256')
    .update(readFileSync(ws(name)))
    .digest('hex');

async function open(on: NativeEndpoint = endpoint, headers: Record<string, string> = { [HEADER]: on.token }) {
  const client = await RawNative.open(on.port, headers);
  clients.push(client);
  return client;
}

async function connected(
  on: NativeEndpoint = endpoint,
  name = 'test-agent',
): Promise<{ client: RawNative; sessionId: string }> {
  const client = await open(on);
  const hello = await client.request('hello', { client_name: name, client_version: '1.2.3' });
  expect(hello.type).toBe('response');
  return { client, sessionId: hello.payload.session_id as string };
}

/** A git-style unified diff of one file (a/ b/ prefixes, /dev/null for a missing side). */
function diffOf(name: string, before: string | null, after: string | null): string {
  return createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${name}`,
    after === null ? '/dev/null' : `b/${name}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: 1 },
  );
}

const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');
const A_OLD = lines('alpha', 'beta', 'gamma');
const A_NEW = lines('alpha', 'BETA', 'gamma');
const B_OLD = lines('one', 'two', 'three');
const B_NEW = lines('one', 'two', 'three', 'four');
const C_OLD = lines('1', '2', '3', '4', '5', '6', '7', '8', '9');
const C_NEW = lines('ONE', '2', '3', '4', '5', '6', '7', '8', 'NINE');
const C_SPLIT = lines('ONE', '2', '3', '4', '5', '6', '7', '8', '9');

function writeThree(): void {
  mkdirSync(ws('src'), { recursive: true });
  writeFileSync(ws('src/a.txt'), A_OLD);
  writeFileSync(ws('b.txt'), B_OLD);
  writeFileSync(ws('src/c.txt'), C_OLD);
}

const THREE_FILE_PATCH = () =>
  diffOf('src/a.txt', A_OLD, A_NEW) + diffOf('b.txt', B_OLD, B_NEW) + diffOf('src/c.txt', C_OLD, C_NEW);

describe('discovery and the connection gate', () => {
  it('writes <lockDir>/<port>.lock (0600 in a 0700 folder) and removes it on close', async () => {
    const file = path.join(lockDir, `${endpoint.port}.lock`);
    expect(endpoint.lockFile).toBe(file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      pid: process.pid,
      // When this process started (Linux), so that a reused pid makes the lock stale.
      ...(process.platform === 'linux' && { processStart: expect.stringMatching(/^\d+$/) }),
      port: endpoint.port,
      authToken: endpoint.token,
      workspaceFolders: [t.workspace],
      ideName: 'DiffTray',
      transport: 'ws',
      protocol_version: '1.0',
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(lockDir).mode & 0o777).toBe(0o700);
    await endpoint.close();
    expect(existsSync(file)).toBe(false);
  });

  it('removes stale lock files of dead processes at start', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const stale = path.join(lockDir, '1.lock');
    writeFileSync(
      stale,
      JSON.stringify({ pid: Number(dead.stdout.toString()), port: 1, ideName: 'DiffTray' }),
    );
    extraEndpoints.push(await startEndpoint());
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(lockDir).sort()).toEqual(
      [`${endpoint.port}.lock`, `${extraEndpoints[0]!.port}.lock`].sort(),
    );
  });

  it('refuses a missing token (401, 1001), a wrong one (401, 1002), any Origin (403) and a foreign Host (403)', async () => {
    const refused = async (headers: Record<string, string>) => {
      const error = (await RawNative.open(endpoint.port, headers).then(
        () => {
          throw new Error('connected');
        },
        (e: unknown) => e,
      )) as Error & { body: string };
      return { status: error.message, body: error.body };
    };
    expect(await refused({})).toEqual({
      status: 'HTTP 401',
      body: `${JSON.stringify({ code: 1001, message: `Missing token: send the authToken of the lock file in ${HEADER}` })}\n`,
    });
    expect(await refused({ [HEADER]: 'guess' })).toEqual({
      status: 'HTTP 401',
      body: `${JSON.stringify({ code: 1002, message: 'Invalid token' })}\n`,
    });
    expect((await refused({ [HEADER]: endpoint.token, Origin: 'https://evil.example' })).status).toBe(
      'HTTP 403',
    );
    expect((await refused({ [HEADER]: endpoint.token, Origin: 'null' })).status).toBe('HTTP 403');
    expect((await refused({ [HEADER]: endpoint.token, Host: `evil.example:${endpoint.port}` })).status).toBe(
      'HTTP 403',
    );
    await open(endpoint, { [HEADER]: endpoint.token, Host: `localhost:${endpoint.port}` });
    expect(logs.filter((line) => line.includes('refused'))).toHaveLength(5);
    expect((await fetch(`http://127.0.0.1:${endpoint.port}/`)).status).toBe(404);
  });
});

describe('session', () => {
  it('hello answers with a session, the heartbeat interval and the limits; the session is a client', async () => {
    const client = await open();
    const hello = await client.request('hello', { client_name: 'my-agent', client_version: '0.9' });
    expect(hello).toEqual({
      protocol_version: '1.0',
      message_id: 'm1',
      type: 'response',
      command: 'hello',
      payload: {
        session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        resumed: false,
        server_name: 'DiffTray',
        server_version: '0.1.0',
        heartbeat_interval_ms: 30_000,
        limits: {
          max_file_bytes: 10 * 1024 * 1024,
          max_message_bytes: MAX_FRAME_BYTES,
          max_files_per_change_set: 500,
          rate_limit: { messages: 600, per_ms: 60_000 },
        },
        workspace_folders: [t.workspace],
      },
    });
    const info = await waitForSnapshot(core(), (s) => s.clients.find((c) => c.protocol === 'native'));
    expect(info).toMatchObject({ name: 'my-agent', version: '0.9', connected: true });
    const heartbeat = await client.request('heartbeat', {});
    expect(heartbeat).toMatchObject({ type: 'response', command: 'heartbeat', message_id: 'm2' });
    expect(heartbeat.payload.server_time).toEqual(expect.any(Number));

    await client.request('status', { message: 'running tests…' });
    expect(core().clients.list()[0]?.status?.text).toBe('running tests…');
  });

  it('a connection that stops sending anything is closed with 4001 after about three heartbeat intervals', async () => {
    const quick = await startEndpoint({ heartbeatIntervalMs: 40 });
    extraEndpoints.push(quick);
    const { client } = await connected(quick);
    const started = Date.now();
    expect(await client.closed).toEqual({ code: 4001, reason: 'heartbeat timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('heartbeats keep a connection open', async () => {
    const quick = await startEndpoint({ heartbeatIntervalMs: 40 });
    extraEndpoints.push(quick);
    const { client } = await connected(quick);
    for (let i = 0; i < 8; i++) {
      expect((await client.request('heartbeat')).type).toBe('response');
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('every bad message gets a numbered error_response and the connection lives on', async () => {
    const client = await open();
    const before = await client.request('propose_change_set', { title: 'x', patch: 'x' });
    expect(before).toMatchObject({ type: 'error_response', message_id: 'm1', payload: { code: 1003 } });

    const badJson = await client.sendRaw('{not json');
    expect(badJson).toMatchObject({ type: 'error_response', command: 'error', payload: { code: 2001 } });
    expect(badJson.payload.message).toMatch(/^Malformed JSON: /);

    const noVersion = await client.sendRaw(
      { message_id: 'x1', type: 'request', command: 'hello', payload: {} },
      'x1',
    );
    expect(noVersion).toMatchObject({ type: 'error_response', message_id: 'x1', payload: { code: 2002 } });
    const wrongVersion = await client.sendRaw(
      { protocol_version: '2.0', message_id: 'x2', type: 'request', command: 'hello', payload: {} },
      'x2',
    );
    expect(wrongVersion.payload).toMatchObject({
      code: 2002,
      message: expect.stringMatching(/protocol_version/),
    });
    const notARequest = await client.sendRaw(
      { protocol_version: '1.0', message_id: 'x3', type: 'push', command: 'hello', payload: {} },
      'x3',
    );
    expect(notARequest.payload).toMatchObject({ code: 2002 });
    expect(await client.sendRaw('[1,2]')).toMatchObject({ payload: { code: 2002 } });

    const unknown = await client.request('format_disk', {});
    expect(unknown).toMatchObject({
      type: 'error_response',
      command: 'format_disk',
      payload: { code: 2003, message: 'Unknown command: format_disk' },
    });
    const badPayload = await client.request('hello', { client_name: 42 });
    expect(badPayload.payload).toMatchObject({
      code: 2004,
      message: expect.stringMatching(/^Invalid payload for hello: client_name/),
    });

    expect((await client.request('hello', { client_name: 'x', session_id: 'nope' })).payload).toMatchObject({
      code: 1003,
    });
    expect((await client.request('hello', { client_name: 'x' })).type).toBe('response');
    const both = await client.request('propose_change_set', {
      title: 't',
      patch: 'x',
      files: [{ path: 'a', after: '' }],
    });
    expect(both.payload).toMatchObject({ code: 2004 });
    expect((await client.request('heartbeat')).type).toBe('response');
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('more requests than the rate limit allows are answered with 4002', async () => {
    const limited = await startEndpoint({ rateLimit: { messages: 3, perMs: 60_000 } });
    extraEndpoints.push(limited);
    const client = await open(limited);
    for (let i = 0; i < 3; i++) expect((await client.request('heartbeat')).type).toBe('response');
    expect((await client.request('heartbeat')).payload).toMatchObject({ code: 4002 });
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('malformed frames count against the rate limit too (item 9b)', async () => {
    const limited = await startEndpoint({ rateLimit: { messages: 3, perMs: 60_000 } });
    extraEndpoints.push(limited);
    const client = await open(limited);
    for (const junk of ['not json', '{', 'null']) {
      expect((await client.sendRaw(junk)).payload).toMatchObject({ code: expect.any(Number) });
    }
    const refused = await client.request('heartbeat');
    expect(refused.payload).toMatchObject({
      code: 4002,
      message: 'Rate limited: at most 3 messages per 60000 ms on one connection',
    });
    // Over the limit, even a malformed frame is answered as rate limited, not parsed for its fault.
    expect((await client.sendRaw('not json')).payload).toMatchObject({ code: 4002 });
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('many connections do not escape the limit: the endpoint counts frames across them (item 9b)', async () => {
    const limited = await startEndpoint({
      rateLimit: { messages: 100, perMs: 60_000 },
      endpointRateLimit: { messages: 4, perMs: 60_000 },
    });
    extraEndpoints.push(limited);
    const first = await open(limited);
    const second = await open(limited);
    for (const client of [first, second, first]) {
      expect((await client.request('heartbeat')).type).toBe('response');
    }
    expect((await second.sendRaw('junk')).payload).toMatchObject({ code: 2001 });
    const third = await open(limited);
    expect((await third.request('heartbeat')).payload).toMatchObject({
      code: 4002,
      message: 'Rate limited: at most 4 messages per 60000 ms across all connections',
    });
    expect((await first.request('heartbeat')).payload).toMatchObject({ code: 4002 });
  });

  it('connections beyond the cap are refused at the upgrade: 503 with code 4003 (item 9b)', async () => {
    const capped = await startEndpoint({ maxConnections: 2 });
    extraEndpoints.push(capped);
    const first = await open(capped);
    await open(capped);
    const refused = await open(capped).catch((error: Error & { body?: string }) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(messageOf(refused)).toBe('HTTP 503');
    expect(JSON.parse((refused as { body: string }).body)).toEqual({
      code: 4003,
      message: 'Too many connections: this endpoint takes at most 2 at once',
    });
    // Room again once one has gone.
    const gone = first.closed;
    first.close();
    await gone;
    expect((await (await open(capped)).request('heartbeat')).type).toBe('response');
  });

  it('a frame over the limit or invalid UTF-8 closes only that socket (1009, 1007)', async () => {
    const bystander = await open();
    const big = await open();
    sendFrameHeader(big.socket, MAX_FRAME_BYTES + 1);
    expect((await big.closed).code).toBe(1009);
    const bad = await open();
    sendInvalidUtf8(bad.socket);
    expect((await bad.closed).code).toBe(1007);
    expect((await bystander.request('heartbeat')).type).toBe('response');
  });

  it('the person’s Disconnect ends the session: socket closed (4011), pending reviews cancelled', async () => {
    writeThree();
    const { client } = await connected();
    await client.request('propose_change_set', { title: 'x', patch: diffOf('b.txt', B_OLD, B_NEW) });
    const review = await waitForReview(core());
    const info = core().clients.list()[0]!;
    await api('disconnectClient', { clientId: info.id });
    expect(await client.closed).toEqual({ code: 4011, reason: 'disconnected by the user' });
    expect(core().queue.summary(review.id)).toMatchObject({
      state: 'cancelled',
      reason: 'disconnected by the user',
    });
    await waitForSnapshot(core(), (s) => (s.clients.length === 0 ? true : undefined));
  });
});

describe('propose_change_set with a unified diff', () => {
  it('three files: one accepted, one rejected, one split by hunks; exact result, hashes and disk', async () => {
    writeThree();
    chmodSync(ws('src/a.txt'), 0o664);
    const { client } = await connected();
    const proposed = await client.request('propose_change_set', {
      title: 'Tidy up',
      rationale: 'Because.',
      acceptance_criteria: ['tests pass', 'no behaviour change'],
      patch: THREE_FILE_PATCH(),
    });
    expect(proposed.payload).toEqual({
      review_id: expect.any(String),
      files: [
        { path: 'src/a.txt', status: 'pending', disk: 'old_side' },
        { path: 'b.txt', status: 'pending', disk: 'old_side' },
        { path: 'src/c.txt', status: 'pending', disk: 'old_side' },
      ],
    });
    const reviewId = proposed.payload.review_id as string;
    const review = await waitForReview(core());
    expect(review.id).toBe(reviewId);
    expect(review).toMatchObject({
      title: 'Tidy up',
      description: 'Because.\n\nAcceptance criteria:\n- tests pass\n- no behaviour change',
      client: { name: 'test-agent', protocol: 'native' },
    });
    expect(review.files.map((f) => f.path)).toEqual([ws('src/a.txt'), ws('b.txt'), ws('src/c.txt')]);
    expect(review.files.map((f) => f.hunks.length)).toEqual([1, 1, 2]);
    // Nothing is written before the decision.
    expect(read('src/a.txt')).toBe(A_OLD);

    await api('decideFile', { reviewId, fileIndex: 0, decision: 'accepted' });
    await api('decideFile', { reviewId, fileIndex: 1, decision: 'rejected' });
    await api('decideHunks', { reviewId, fileIndex: 2, hunkIndexes: [0], decision: 'accepted' });
    await api('decideHunks', { reviewId, fileIndex: 2, hunkIndexes: [1], decision: 'rejected' });
    await client.expectNoPush();
    await api('submit', { reviewId });

    const push = await client.nextPush();
    expect(push).toMatchObject({ protocol_version: '1.0', type: 'push', command: 'change_set_result' });
    expect(read('src/a.txt')).toBe(A_NEW);
    expect(read('b.txt')).toBe(B_OLD);
    expect(read('src/c.txt')).toBe(C_SPLIT);
    expect(statSync(ws('src/a.txt')).mode & 0o777).toBe(0o664);
    expect(push.payload).toEqual({
      review_id: reviewId,
      status: 'partially_accepted',
      files: [
        {
          path: 'src/a.txt',
          status: 'applied',
          applied_hash: sha256('src/a.txt'),
          disk: 'old_side',
          hunks: [
            {
              index: 0,
              base_start: 1,
              base_end: 2,
              proposed_start: 1,
              proposed_end: 2,
              decision: 'accepted',
              patch_hunk: 0,
            },
          ],
        },
        {
          path: 'b.txt',
          status: 'rejected',
          reason: 'every hunk rejected',
          disk: 'old_side',
          hunks: [
            {
              index: 0,
              base_start: 3,
              base_end: 3,
              proposed_start: 3,
              proposed_end: 4,
              decision: 'rejected',
              patch_hunk: 0,
            },
          ],
        },
        {
          path: 'src/c.txt',
          status: 'applied',
          applied_hash: sha256('src/c.txt'),
          disk: 'old_side',
          hunks: [
            {
              index: 0,
              base_start: 0,
              base_end: 1,
              proposed_start: 0,
              proposed_end: 1,
              decision: 'accepted',
              patch_hunk: 0,
            },
            {
              index: 1,
              base_start: 8,
              base_end: 9,
              proposed_start: 8,
              proposed_end: 9,
              decision: 'rejected',
              patch_hunk: 1,
            },
          ],
        },
      ],
    });
    expect(createHash('sha256').update(C_SPLIT).digest('hex')).toBe(sha256('src/c.txt'));
    expect(readdirSync(ws('src')).sort()).toEqual(['a.txt', 'c.txt']); // no temp file left

    const info = await client.request('get_review', { review_id: reviewId });
    expect(info.payload).toMatchObject({
      review_id: reviewId,
      state: 'accepted',
      title: 'Tidy up',
      result: push.payload,
    });
  });

  it('everything accepted: status accepted; a rejection with a reason reaches the client, nothing written', async () => {
    writeThree();
    const { client } = await connected();
    const first = await client.request('propose_change_set', { title: 'all', patch: THREE_FILE_PATCH() });
    await api('submit', { reviewId: first.payload.review_id });
    const accepted = (await client.nextPush()).payload;
    expect(accepted.status).toBe('accepted');
    expect([read('src/a.txt'), read('b.txt'), read('src/c.txt')]).toEqual([A_NEW, B_NEW, C_NEW]);

    writeThree();
    const second = await client.request('propose_change_set', { title: 'none', patch: THREE_FILE_PATCH() });
    await api('reject', { reviewId: second.payload.review_id, reason: 'not now' });
    const rejected = (await client.nextPush()).payload as {
      status: string;
      reason: string;
      files: Array<Record<string, unknown>>;
    };
    expect(rejected).toMatchObject({ status: 'rejected', reason: 'not now' });
    expect(rejected.files.map((f) => [f.path, f.status, f.reason])).toEqual([
      ['src/a.txt', 'rejected', 'not now'],
      ['b.txt', 'rejected', 'not now'],
      ['src/c.txt', 'rejected', 'not now'],
    ]);
    expect([read('src/a.txt'), read('b.txt'), read('src/c.txt')]).toEqual([A_OLD, B_OLD, C_OLD]);
  });

  it('new and deleted files: created on accept; deleted on accept', async () => {
    writeFileSync(ws('old.txt'), 'bye\n');
    const { client } = await connected();
    const patch = diffOf('lib/new.txt', null, 'hello\n') + diffOf('old.txt', 'bye\n', null);
    const proposed = await client.request('propose_change_set', { title: 'files', patch });
    const review = await waitForReview(core());
    expect(review.files.map((f) => f.isNewFile)).toEqual([true, false]);
    expect(review.description).toContain(
      'Deleted by this change (accepted whole, the file is removed): old.txt',
    );
    await api('submit', { reviewId: proposed.payload.review_id });
    const result = (await client.nextPush()).payload as { status: string; files: unknown[] };
    expect(result.status).toBe('accepted');
    expect(result.files).toEqual([
      expect.objectContaining({
        path: 'lib/new.txt',
        status: 'applied',
        applied_hash: sha256('lib/new.txt'),
      }),
      expect.objectContaining({ path: 'old.txt', status: 'applied', deleted: true }),
    ]);
    expect(read('lib/new.txt')).toBe('hello\n');
    expect(existsSync(ws('old.txt'))).toBe(false);
  });

  it('a malformed patch is refused with 2005; nothing is queued', async () => {
    const { client } = await connected();
    for (const patch of ['', 'this is not a diff', '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-x\n+y\n']) {
      const answer = await client.request('propose_change_set', { title: 'bad', patch });
      expect(answer).toMatchObject({
        type: 'error_response',
        command: 'propose_change_set',
        payload: { code: 2005 },
      });
      expect(answer.payload.message).toMatch(/^Malformed patch|The patch/);
    }
    expect(core().snapshot().reviews).toEqual([]);
  });

  it('a path outside the workspace refuses the whole change set (3001)', async () => {
    writeThree();
    const { client } = await connected();
    const outside = diffOf('../outside.txt', 'x\n', 'y\n');
    const answer = await client.request('propose_change_set', {
      title: 'escape',
      patch: THREE_FILE_PATCH() + outside,
    });
    expect(answer.payload).toMatchObject({ code: 3001, details: { path: '../outside.txt' } });
    const absolute = await client.request('propose_change_set', {
      title: 'escape',
      files: [{ path: path.join(t.home, 'x.txt'), after: 'x' }],
    });
    expect(absolute.payload).toMatchObject({ code: 3001 });
    expect(core().snapshot().reviews).toEqual([]);
  });

  it('a file over 10 MB is refused with 3002 (proposed text, or the file on disk)', async () => {
    const { client } = await connected();
    const big = 'x'.repeat(10 * 1024 * 1024 + 1);
    const answer = await client.request('propose_change_set', {
      title: 'big',
      files: [{ path: 'big.txt', after: big }],
    });
    expect(answer.payload).toMatchObject({
      code: 3002,
      message: 'Nothing to review: big.txt: larger than the 10 MB limit',
    });
    writeFileSync(ws('huge.txt'), `${big}\n`);
    const onDisk = await client.request('propose_change_set', {
      title: 'big',
      patch: '--- a/huge.txt\n+++ b/huge.txt\n@@ -1 +1 @@\n-x\n+y\n',
    });
    expect(onDisk.payload).toMatchObject({ code: 3002 });
    expect(core().snapshot().reviews).toEqual([]);
  });

  it('a binary file on disk is refused with 3004', async () => {
    writeFileSync(ws('img.bin'), Buffer.from([0, 1, 2, 3]));
    const { client } = await connected();
    const answer = await client.request('propose_change_set', {
      title: 'bin',
      files: [{ path: 'img.bin', after: 'text' }],
    });
    expect(answer.payload).toMatchObject({ code: 3004 });
  });
});

describe('conflicts', () => {
  it('a file changed on disk after the diff was made: reported as conflict at once, untouched; the rest is reviewed', async () => {
    writeThree();
    const patch = THREE_FILE_PATCH();
    // Within the hunk's context: a diff cannot see edits elsewhere in the file.
    const edited = B_OLD.replace('three', 'THREE (edited by hand)');
    writeFileSync(ws('b.txt'), edited);
    const { client } = await connected();
    const proposed = await client.request('propose_change_set', { title: 'stale', patch });
    expect(proposed.payload.files).toEqual([
      { path: 'src/a.txt', status: 'pending', disk: 'old_side' },
      {
        path: 'b.txt',
        status: 'conflict',
        disk: 'neither',
        code: 3005,
        reason: 'changed on disk since the diff was made: line 3 does not match the patch',
      },
      { path: 'src/c.txt', status: 'pending', disk: 'old_side' },
    ]);
    const review = await waitForReview(core());
    expect(review.files.map((f) => f.path)).toEqual([ws('src/a.txt'), ws('src/c.txt')]);
    expect(review.description).toBe(
      'Left out: b.txt (changed on disk since the diff was made: line 3 does not match the patch)',
    );
    await api('submit', { reviewId: review.id });
    const result = (await client.nextPush()).payload as {
      status: string;
      files: Array<Record<string, unknown>>;
    };
    expect(result.status).toBe('partially_accepted');
    expect(result.files[1]).toEqual({
      path: 'b.txt',
      status: 'conflict',
      code: 3005,
      reason: 'changed on disk since the diff was made: line 3 does not match the patch',
      disk: 'neither',
      hunks: [],
    });
    expect(read('b.txt')).toBe(edited);
    expect([read('src/a.txt'), read('src/c.txt')]).toEqual([A_NEW, C_NEW]);
  });

  it('when no file can be reviewed, the change set is refused with 3005 and per-file details', async () => {
    writeFileSync(ws('b.txt'), 'something else\n');
    const { client } = await connected();
    const answer = await client.request('propose_change_set', {
      title: 'stale',
      patch: diffOf('b.txt', B_OLD, B_NEW),
    });
    expect(answer).toMatchObject({
      type: 'error_response',
      payload: {
        code: 3005,
        message:
          'Nothing to review: b.txt: changed on disk since the diff was made: the file ends at line 1, before line 3 of the patch',
        details: { files: [expect.objectContaining({ path: 'b.txt', status: 'conflict' })] },
      },
    });
    expect(read('b.txt')).toBe('something else\n');
    const missing = await client.request('propose_change_set', {
      title: 'gone',
      patch: diffOf('nope.txt', 'a\n', 'b\n'),
    });
    expect(missing.payload).toMatchObject({
      code: 3003,
      message: 'Nothing to review: nope.txt: not found on disk',
    });
  });

  it('a file changed on disk while the review waited is not overwritten: reported as conflict', async () => {
    writeThree();
    const { client } = await connected();
    const proposed = await client.request('propose_change_set', { title: 'race', patch: THREE_FILE_PATCH() });
    const reviewId = proposed.payload.review_id as string;
    await waitForReview(core());
    // Through the app API the submit is refused while a file differs from what was reviewed…
    writeFileSync(ws('src/c.txt'), 'meanwhile\n');
    await expect(api('submit', { reviewId })).rejects.toThrow(/changed on disk/);
    // …and should a decision still reach the writer (a change in the instant before the rename), the
    // writer's own check keeps the file.
    writeFileSync(ws('src/c.txt'), C_OLD);
    await waitForSnapshot(core(), (s) =>
      s.reviews[0]?.files[2]?.disk.state === 'unchanged' ? true : undefined,
    );
    core().queue.submit(reviewId);
    writeFileSync(ws('src/c.txt'), 'meanwhile\n');
    const result = (await client.nextPush()).payload as {
      status: string;
      files: Array<Record<string, unknown>>;
    };
    expect(read('src/c.txt')).toBe('meanwhile\n');
    expect(result.files[2]).toMatchObject({
      path: 'src/c.txt',
      status: 'conflict',
      code: 3005,
      reason: 'changed on disk since it was reviewed; not written',
    });
    expect(result.status).toBe('partially_accepted');
    // History tells the truth about the file that was decided but not written.
    await waitForSnapshot(core(), (s) => (s.reviews[0]?.notes ? true : undefined));
    expect(core().queue.summary(reviewId).notes).toEqual([
      'src/c.txt: changed on disk since it was reviewed; not written',
    ]);
  });
});

describe('a patch already applied on disk (disk holds the new side)', () => {
  it('rejected hunks are reverted on disk, accepted ones kept', async () => {
    mkdirSync(ws('src'), { recursive: true });
    writeFileSync(ws('src/c.txt'), C_NEW); // the agent already wrote it
    chmodSync(ws('src/c.txt'), 0o640);
    const { client } = await connected();
    const proposed = await client.request('propose_change_set', {
      title: 'after the fact',
      patch: diffOf('src/c.txt', C_OLD, C_NEW),
    });
    expect(proposed.payload.files).toEqual([{ path: 'src/c.txt', status: 'pending', disk: 'new_side' }]);
    const review = await waitForReview(core());
    expect(review.description).toBe(
      'Already written by the agent (rejected hunks are reverted on disk): src/c.txt',
    );
    const [content] = (await api('getReviewContent', { reviewId: review.id })) as Array<{
      baseText: string;
      proposedText: string;
    }>;
    expect(content).toMatchObject({ baseText: C_OLD, proposedText: C_NEW });
    await api('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' });
    await api('submit', { reviewId: review.id });
    const result = (await client.nextPush()).payload as {
      status: string;
      files: Array<Record<string, unknown>>;
    };
    expect(read('src/c.txt')).toBe(C_SPLIT);
    expect(statSync(ws('src/c.txt')).mode & 0o777).toBe(0o640);
    expect(result).toMatchObject({ status: 'partially_accepted' });
    expect(result.files[0]).toMatchObject({
      path: 'src/c.txt',
      status: 'applied',
      disk: 'new_side',
      reverted: true,
      applied_hash: sha256('src/c.txt'),
    });
  });

  it('all accepted: nothing written, applied with the hash of the file as it is', async () => {
    writeFileSync(ws('b.txt'), B_NEW);
    const inode = statSync(ws('b.txt')).ino;
    const { client } = await connected();
    await client.request('propose_change_set', { title: 'ok', patch: diffOf('b.txt', B_OLD, B_NEW) });
    const review = await waitForReview(core());
    await api('submit', { reviewId: review.id });
    const result = (await client.nextPush()).payload as {
      status: string;
      files: Array<Record<string, unknown>>;
    };
    expect(result.status).toBe('accepted');
    expect(result.files[0]).toMatchObject({
      status: 'applied',
      applied_hash: sha256('b.txt'),
      disk: 'new_side',
    });
    expect(result.files[0]!.reverted).toBeUndefined();
    expect(statSync(ws('b.txt')).ino).toBe(inode);
  });

  it('rejected: the agent’s changes are undone (edits reverted, a created file removed, a deleted one restored)', async () => {
    writeFileSync(ws('b.txt'), B_NEW);
    writeFileSync(ws('created.txt'), 'made by the agent\n');
    // deleted.txt: the agent removed it; the diff still names its old content.
    const patch =
      diffOf('b.txt', B_OLD, B_NEW) +
      diffOf('created.txt', null, 'made by the agent\n') +
      diffOf('deleted.txt', 'keep me\n', null);
    const { client } = await connected();
    const proposed = await client.request('propose_change_set', { title: 'undo', patch });
    expect((proposed.payload.files as Array<{ disk: string }>).map((f) => f.disk)).toEqual([
      'new_side',
      'new_side',
      'new_side',
    ]);
    await api('reject', { reviewId: proposed.payload.review_id, reason: 'no thanks' });
    const result = (await client.nextPush()).payload as {
      status: string;
      files: Array<Record<string, unknown>>;
    };
    expect(result.status).toBe('rejected');
    expect(result.files.map((f) => [f.path, f.status, f.reverted])).toEqual([
      ['b.txt', 'rejected', true],
      ['created.txt', 'rejected', true],
      ['deleted.txt', 'rejected', true],
    ]);
    expect(read('b.txt')).toBe(B_OLD);
    expect(existsSync(ws('created.txt'))).toBe(false);
    expect(read('deleted.txt')).toBe('keep me\n');
  });
});

describe('propose_change_set with full texts', () => {
  it('before/after texts, a new file (before: null); applied atomically, mode kept, hashes reported', async () => {
    writeFileSync(ws('a.txt'), A_OLD);
    chmodSync(ws('a.txt'), 0o664);
    const inode = statSync(ws('a.txt')).ino;
    const { client } = await connected();
    const proposed = await client.request('propose_change_set', {
      title: 'full texts',
      files: [
        { path: 'a.txt', before: A_OLD, after: A_NEW },
        { path: 'docs/new.md', before: null, after: '# New\n' },
        { path: ws('same.txt'), after: null },
      ],
    });
    expect(proposed.payload.files).toEqual([
      { path: 'a.txt', status: 'pending', disk: 'old_side' },
      { path: 'docs/new.md', status: 'pending', disk: 'old_side' },
      { path: ws('same.txt'), status: 'pending', disk: 'old_side', reason: 'already as proposed' },
    ]);
    const review = await waitForReview(core());
    expect(review.files).toHaveLength(2);
    await api('submit', { reviewId: review.id });
    const result = (await client.nextPush()).payload;
    expect(result).toEqual({
      review_id: review.id,
      status: 'accepted',
      files: [
        {
          path: 'a.txt',
          status: 'applied',
          applied_hash: sha256('a.txt'),
          disk: 'old_side',
          hunks: [
            {
              index: 0,
              base_start: 1,
              base_end: 2,
              proposed_start: 1,
              proposed_end: 2,
              decision: 'accepted',
            },
          ],
        },
        {
          path: 'docs/new.md',
          status: 'applied',
          applied_hash: sha256('docs/new.md'),
          disk: 'old_side',
          hunks: [
            {
              index: 0,
              base_start: 0,
              base_end: 0,
              proposed_start: 0,
              proposed_end: 1,
              decision: 'accepted',
            },
          ],
        },
        {
          path: ws('same.txt'),
          status: 'applied',
          reason: 'already as proposed',
          deleted: true,
          disk: 'old_side',
          hunks: [],
        },
      ],
    });
    expect(read('a.txt')).toBe(A_NEW);
    expect(statSync(ws('a.txt')).mode & 0o777).toBe(0o664);
    expect(statSync(ws('a.txt')).ino).not.toBe(inode);
    expect(read('docs/new.md')).toBe('# New\n');
  });

  it('a "before" that is neither on disk nor the "after": conflict', async () => {
    writeFileSync(ws('a.txt'), 'hand edit\n');
    const { client } = await connected();
    const answer = await client.request('propose_change_set', {
      title: 'x',
      files: [{ path: 'a.txt', before: A_OLD, after: A_NEW }],
    });
    expect(answer.payload).toMatchObject({ code: 3005 });
    expect(read('a.txt')).toBe('hand edit\n');
  });

  it('nothing to change at all: answered at once with an accepted result', async () => {
    writeFileSync(ws('a.txt'), A_OLD);
    const { client } = await connected();
    const proposed = await client.request('propose_change_set', {
      title: 'noop',
      files: [{ path: 'a.txt', after: A_OLD }],
    });
    const result = await client.nextPush();
    expect(result.payload).toEqual({
      review_id: proposed.payload.review_id,
      status: 'accepted',
      files: [
        {
          path: 'a.txt',
          status: 'applied',
          reason: 'already as proposed',
          applied_hash: sha256('a.txt'),
          disk: 'old_side',
          hunks: [],
        },
      ],
    });
    expect(core().snapshot().reviews).toEqual([]);
  });
});

describe('reconnect', () => {
  it('a hello with the session id restores the pending review; its result reaches the new connection', async () => {
    writeThree();
    const first = await connected();
    const proposed = await first.client.request('propose_change_set', {
      title: 'survive',
      patch: THREE_FILE_PATCH(),
    });
    const reviewId = proposed.payload.review_id as string;
    await waitForReview(core());
    first.client.close();
    await first.client.closed;
    // The session waits: its review stays pending, and it is still listed, saying why.
    await waitForSnapshot(core(), (s) =>
      s.clients[0]?.status?.text.startsWith('connection lost') ? true : undefined,
    );
    expect(core().queue.summary(reviewId).state).toBe('pending');

    const client = await open();
    const hello = await client.request('hello', { client_name: 'test-agent', session_id: first.sessionId });
    expect(hello.payload).toMatchObject({ session_id: first.sessionId, resumed: true });
    const listed = await client.request('list_reviews');
    expect(listed.payload).toEqual({
      reviews: [{ review_id: reviewId, title: 'survive', state: 'pending', created_at: expect.any(Number) }],
    });
    expect(core().clients.list()).toHaveLength(1);
    await api('submit', { reviewId });
    const result = await client.nextPush();
    expect(result).toMatchObject({
      command: 'change_set_result',
      payload: { review_id: reviewId, status: 'accepted' },
    });
    expect(read('src/a.txt')).toBe(A_NEW);
  });

  it('a result decided while the client was away is delivered right after its next hello', async () => {
    writeThree();
    const first = await connected();
    const proposed = await first.client.request('propose_change_set', {
      title: 'away',
      patch: diffOf('b.txt', B_OLD, B_NEW),
    });
    first.client.close();
    await first.client.closed;
    await waitForSnapshot(core(), (s) =>
      s.clients[0]?.status?.text.startsWith('connection lost') ? true : undefined,
    );
    await api('reject', { reviewId: proposed.payload.review_id, reason: 'later' });
    // Nothing is pending any more: the absent session leaves the Connections list.
    await waitForSnapshot(core(), (s) => (s.clients.length === 0 ? true : undefined));

    const client = await open();
    await client.request('hello', { client_name: 'test-agent', session_id: first.sessionId });
    const result = await client.nextPush();
    expect(result.payload).toMatchObject({
      review_id: proposed.payload.review_id,
      status: 'rejected',
      reason: 'later',
    });
  });

  it('a second connection taking over a live session closes the first (4010)', async () => {
    const first = await connected();
    const client = await open();
    await client.request('hello', { client_name: 'test-agent', session_id: first.sessionId });
    expect(await first.client.closed).toEqual({
      code: 4010,
      reason: 'session resumed on another connection',
    });
    expect((await client.request('heartbeat')).type).toBe('response');
  });

  it('after the grace period the pending reviews are cancelled and the session is forgotten (1003)', async () => {
    writeThree();
    const short = await startEndpoint({ sessionGraceMs: 100 });
    extraEndpoints.push(short);
    const first = await connected(short);
    const proposed = await first.client.request('propose_change_set', {
      title: 'late',
      patch: diffOf('b.txt', B_OLD, B_NEW),
    });
    first.client.close();
    const review = await waitForReview(core(), (r) => r.state === 'cancelled');
    expect(review).toMatchObject({ id: proposed.payload.review_id, reason: 'client disconnected' });
    expect(read('b.txt')).toBe(B_OLD);
    const client = await open(short);
    const hello = await client.request('hello', { client_name: 'test-agent', session_id: first.sessionId });
    expect(hello.payload).toMatchObject({ code: 1003 });
  });
});

describe('closing', () => {
  it('DiffTray closing: the lock file goes at once, pending reviews end as cancelled and the client hears so', async () => {
    writeThree();
    const { client } = await connected();
    const proposed = await client.request('propose_change_set', {
      title: 'bye',
      patch: diffOf('b.txt', B_OLD, B_NEW),
    });
    await waitForReview(core());
    const closing = endpoint.close();
    expect(existsSync(endpoint.lockFile)).toBe(false);
    const result = await client.nextPush();
    expect(result.payload).toMatchObject({
      review_id: proposed.payload.review_id,
      status: 'cancelled',
      reason: 'DiffTray is closing',
    });
    expect(await client.closed).toEqual({ code: 1001, reason: 'DiffTray is closing' });
    await closing;
    expect(read('b.txt')).toBe(B_OLD);
  });
});

describe('other commands', () => {
  it('cancel_review cancels a pending review: the result says cancelled, nothing is written', async () => {
    writeThree();
    const { client } = await connected();
    const proposed = await client.request('propose_change_set', { title: 'oops', patch: THREE_FILE_PATCH() });
    const reviewId = proposed.payload.review_id;
    expect((await client.request('cancel_review', { review_id: reviewId })).payload).toEqual({
      cancelled: true,
    });
    const result = (await client.nextPush()).payload as { status: string; files: Array<{ status: string }> };
    expect(result).toMatchObject({ status: 'cancelled', reason: 'cancelled by the client' });
    expect(result.files.map((f) => f.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(core().queue.summary(reviewId as string).state).toBe('cancelled');
    expect((await client.request('cancel_review', { review_id: reviewId })).payload).toEqual({
      cancelled: false,
    });
    expect((await client.request('get_review', { review_id: 'r999' })).payload).toMatchObject({ code: 2004 });
  });

  it('status and show_window work without a session: pending count, clients, the window or the browser', async () => {
    const withHooks = await startEndpoint({
      showWindow: () => shown++,
      openInBrowser: async () => {
        browserOpens++;
        return browserOpensSucceed;
      },
    });
    extraEndpoints.push(withHooks);
    await connected(withHooks, 'other agent');
    const client = await open(withHooks);
    const status = await client.request('status');
    expect(status.payload).toEqual({
      server_version: '0.1.0',
      pid: process.pid,
      workspace_folders: [t.workspace],
      pending: 0,
      clients: [{ name: 'other agent', protocol: 'native', version: '1.2.3', since: expect.any(Number) }],
    });
    expect((await client.request('show_window')).payload).toEqual({ shown: true });
    expect(shown).toBe(1);
    // Headless: DiffTray opens the person's browser itself; the caller is told that, never where.
    withHooks.setAppHooks({ showWindow: undefined });
    expect((await client.request('show_window')).payload).toEqual({ shown: true, in_browser: true });
    expect(browserOpens).toBe(1);
    browserOpensSucceed = false;
    expect((await client.request('show_window')).payload).toEqual({ shown: false });
    expect(browserOpens).toBe(2);
    expect((await client.request('status', { message: 'hi' })).payload).toMatchObject({ code: 1003 });
  });

  it('get_file_tree honours .gitignore (through git) and get_file_content reads a file with its hash', async () => {
    writeThree();
    writeFileSync(ws('.gitignore'), 'ignored.log\n');
    writeFileSync(ws('ignored.log'), 'noise\n');
    spawnSync('git', ['init', '-q'], { cwd: t.workspace });
    const { client } = await connected();
    const tree = await client.request('get_file_tree', {});
    expect(tree.payload).toEqual({
      folder: t.workspace,
      files: ['.gitignore', 'b.txt', 'src/a.txt', 'src/c.txt'],
      filter_type: 'gitignore',
      truncated: false,
    });
    const content = await client.request('get_file_content', { path: 'src/a.txt' });
    expect(content.payload).toEqual({
      path: ws('src/a.txt'),
      content: A_OLD,
      sha256: sha256('src/a.txt'),
      size: A_OLD.length,
    });
    expect((await client.request('get_file_content', { path: 'nope.txt' })).payload).toMatchObject({
      code: 3003,
    });
    expect((await client.request('get_file_content', { path: '../x' })).payload).toMatchObject({
      code: 3001,
    });
  });
});
