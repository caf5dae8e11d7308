/**
 * The Clio endpoint end to end below the UI: a raw `ws` client speaks seed 000's messages to the real
 * endpoint over loopback, the test decides through the app API as the renderer would, and checks exactly
 * what the client receives and what is on disk.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AUTO_APPLIED_NOTE,
  BEFORE_DIFFERS_NOTE,
  BEFORE_OF_MISSING_FILE_NOTE,
} from '../../src-main/bridge/clio/handlers';
import { startClioEndpoint, type ClioEndpoint } from '../../src-main/bridge/clio';
import { isProcessAlive } from '../../src-main/bridge/lock-files';
import { AppCore } from '../../src-main/core/app-core';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview, waitForSnapshot } from '../support/wait';

const HEADER = 'x-clio-ide-authorization';
type Message = Record<string, unknown>;

/** A Clio CLI stand-in: a bare WebSocket that queues what it receives. */
class RawClio {
  private readonly inbox: Message[] = [];
  private readonly waiters: Array<(message: Message) => void> = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Message;
      const waiter = this.waiters.shift();
      if (waiter) waiter(message);
      else this.inbox.push(message);
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static open(port: number, headers: Record<string, string> = {}): Promise<RawClio> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}`, { headers });
      const client = new RawClio(socket);
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`HTTP ${response.statusCode}`)),
      );
      socket.once('error', reject);
    });
  }

  send(message: Message | string): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  next(timeoutMs = 5000): Promise<Message> {
    const queued = this.inbox.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no message from DiffTray')), timeoutMs);
      this.waiters.push((message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }

  request(message: Message | string): Promise<Message> {
    this.send(message);
    return this.next();
  }

  /** Nothing more arrives for a while. */
  async expectSilence(ms = 150): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    expect(this.inbox).toEqual([]);
  }

  /** The connection still answers (connect is idempotent for an authenticated client). */
  async expectAlive(): Promise<void> {
    expect(this.socket.readyState).toBe(WebSocket.OPEN);
    expect(await this.request({ type: 'connect', clientVersion: '0.1.0' })).toMatchObject({
      type: 'connected',
    });
  }

  close(): void {
    this.socket.terminate();
  }
}

const CONNECTED = {
  type: 'connected',
  serverVersion: '0.1.0',
  capabilities: ['diff', 'apply', 'status'],
  ideName: 'DiffTray',
};

const BASE = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'].join('\n') + '\n';
const PROPOSED = ['ONE', 'two', 'three', 'four', 'FIVE', 'six', 'seven', 'eight', 'NINE'].join('\n') + '\n';
const PY = 'def add(a, b):\n    return a * b\n\n\ndef sub(a, b):\n    return a - b\n';

let t: TestRuntime;
let endpoint: ClioEndpoint;
let bridgeFile: string;
let autoApply: string[];
let logs: string[];
let clients: RawClio[];
let file: string;
let py: string;

beforeEach(async () => {
  t = await startTestRuntime();
  bridgeFile = path.join(t.home, '.clio', 'ide', 'bridge.json');
  autoApply = [];
  logs = [];
  clients = [];
  endpoint = await startClioEndpoint({
    core: t.runtime.core,
    lockFile: bridgeFile,
    autoApply: () => autoApply,
    log: (message) => logs.push(message),
  });
  file = path.join(t.workspace, 'notes.txt');
  writeFileSync(file, BASE);
  py = path.join(t.workspace, 'calc.py');
  writeFileSync(py, PY);
});

afterEach(async () => {
  for (const client of clients) client.close();
  await endpoint.close();
  await t.close();
});

const api = (method: string, params: Record<string, unknown>) => t.runtime.handler(method, params);
const core = () => t.runtime.core;

async function open(headers: Record<string, string> = { [HEADER]: endpoint.token }, port = endpoint.port) {
  const client = await RawClio.open(port, headers);
  clients.push(client);
  return client;
}

/** Connected and authenticated the way the brief's header-capable client does it. */
async function connected(): Promise<RawClio> {
  const client = await open();
  expect(await client.request({ type: 'connect', clientVersion: '0.1.0' })).toEqual(CONNECTED);
  return client;
}

const at = (line: number, character: number) => ({ line, character });
const range = (start: [number, number], end: [number, number]) => ({ start: at(...start), end: at(...end) });

describe('connect', () => {
  it('with the header token: connected with capabilities; the client is registered with its version', async () => {
    const client = await open();
    // Registered from the upgrade on, as soon as the token is proven.
    await waitForSnapshot(core(), (s) => s.clients.find((c) => c.protocol === 'clio'));
    expect(await client.request({ type: 'connect', clientVersion: '0.3.1' })).toEqual(CONNECTED);
    const info = await waitForSnapshot(core(), (s) => s.clients.find((c) => c.version === '0.3.1'));
    expect(info).toMatchObject({ name: 'Clio', protocol: 'clio', connected: true });
    expect(core().snapshot().clients).toHaveLength(1);
  });

  it('with the token in connect (no header): connected; until then every other message is UNAUTHORIZED', async () => {
    const client = await open({});
    expect(core().snapshot().clients).toEqual([]);
    const early = await client.request({ type: 'openDiff', file, before: BASE, after: PROPOSED });
    expect(early).toMatchObject({ type: 'error', code: 'UNAUTHORIZED', file });
    expect(await client.request({ type: 'status', message: 'hi' })).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await client.request({ type: 'nonsense' })).toMatchObject({ code: 'UNAUTHORIZED' });
    // (The seed's connect without any token asks the person instead: clio-prompt.test.ts.)
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    expect(await client.request({ type: 'connect', clientVersion: '0.1.0', token: endpoint.token })).toEqual(
      CONNECTED,
    );
    const info = await waitForSnapshot(core(), (s) => s.clients[0]);
    expect(info).toMatchObject({ name: 'Clio', protocol: 'clio', version: '0.1.0' });
    expect(core().snapshot().reviews).toEqual([]);
  });

  it('a wrong token in connect: UNAUTHORIZED, then the connection is closed', async () => {
    const client = await open({});
    expect(await client.request({ type: 'connect', token: 'guess' })).toEqual({
      type: 'error',
      code: 'UNAUTHORIZED',
      message: 'Invalid token',
    });
    expect(await client.closed).toEqual({ code: 1008, reason: 'invalid token' });
    expect(core().snapshot().clients).toEqual([]);
  });

  it('the person’s Disconnect closes the socket', async () => {
    const client = await connected();
    const info = await waitForSnapshot(core(), (s) => s.clients[0]);
    await api('disconnectClient', { clientId: info.id });
    expect((await client.closed).code).toBe(1000);
    await waitForSnapshot(core(), (s) => (s.clients.length === 0 ? true : undefined));
  });
});

describe('connection gate', () => {
  function upgradeStatus(headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${endpoint.port}`, { headers });
      socket.once('open', () => {
        socket.close();
        resolve(101);
      });
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('error', reject);
    });
  }

  it('refuses a wrong header token (401), any Origin (403) and a foreign Host (403)', async () => {
    expect(await upgradeStatus({ [HEADER]: endpoint.token })).toBe(101);
    expect(await upgradeStatus({})).toBe(101); // the token may still come in connect
    expect(await upgradeStatus({ [HEADER]: 'not-the-token' })).toBe(401);
    expect(await upgradeStatus({ [HEADER]: endpoint.token, Origin: 'https://evil.example' })).toBe(403);
    expect(await upgradeStatus({ Origin: 'null' })).toBe(403);
    expect(await upgradeStatus({ [HEADER]: endpoint.token, Host: `evil.example:${endpoint.port}` })).toBe(
      403,
    );
    expect(await upgradeStatus({ [HEADER]: endpoint.token, Host: `localhost:${endpoint.port}` })).toBe(101);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(core().snapshot().clients).toEqual([]);
    expect(logs.filter((line) => line.includes('refused'))).toHaveLength(4);
  });

  it('answers plain HTTP with 404', async () => {
    const response = await fetch(`http://127.0.0.1:${endpoint.port}/`);
    expect(response.status).toBe(404);
  });
});

describe('openDiff', () => {
  it('reviews against the disk; diffAccepted carries the composed text; the CLI writes, not DiffTray', async () => {
    const client = await connected();
    client.send({ type: 'openDiff', file, before: BASE, after: PROPOSED, description: 'Shout' });
    const review = await waitForReview(core());
    expect(review).toMatchObject({ title: 'notes.txt', description: 'Shout' });
    expect(review.files[0]?.hunks).toHaveLength(3);
    await api('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' });
    await api('submit', { reviewId: review.id });
    const expected = PROPOSED.replace('FIVE', 'five');
    expect(await client.next()).toEqual({ type: 'diffAccepted', file, content: expected });
    expect(readFileSync(file, 'utf8')).toBe(BASE);
    await client.expectSilence();
  });

  it("the person's note rides on diffAccepted (note) and on diffRejected (reason)", async () => {
    const client = await connected();
    client.send({ type: 'openDiff', file, before: BASE, after: PROPOSED });
    const first = await waitForReview(core());
    await api('submit', { reviewId: first.id, note: 'good, add a test next' });
    expect(await client.next()).toEqual({
      type: 'diffAccepted',
      file,
      content: PROPOSED,
      note: 'good, add a test next',
    });
    client.send({ type: 'openDiff', file, before: BASE, after: PROPOSED });
    const second = await waitForReview(core(), (r) => r.state === 'pending' && r.id !== first.id);
    await api('reject', { reviewId: second.id, reason: 'use the helper instead' });
    expect(await client.next()).toEqual({ type: 'diffRejected', file, reason: 'use the helper instead' });
  });

  it('the comments on lines ride on diffAccepted and diffRejected, by line and quoted', async () => {
    const client = await connected();
    client.send({ type: 'openDiff', file, before: BASE, after: PROPOSED });
    const first = await waitForReview(core());
    await api('putComment', { reviewId: first.id, fileIndex: 0, side: 'proposed', line: 0, text: 'why?' });
    await api('submit', { reviewId: first.id });
    const accepted = await client.next();
    expect(accepted.comments).toEqual([
      { side: 'proposed', line: 1, quote: PROPOSED.split('\n')[0], text: 'why?' },
    ]);
    client.send({ type: 'openDiff', file, before: BASE, after: PROPOSED });
    const second = await waitForReview(core(), (r) => r.state === 'pending' && r.id !== first.id);
    await api('putComment', { reviewId: second.id, fileIndex: 0, side: 'base', line: 1, text: 'keep' });
    await api('reject', { reviewId: second.id });
    expect(await client.next()).toMatchObject({
      type: 'diffRejected',
      comments: [{ side: 'base', line: 2, quote: BASE.split('\n')[1], text: 'keep' }],
    });
  });

  it('a "before" that differs from the disk is said so in the description; the diff is against the disk', async () => {
    const client = await connected();
    client.send({
      type: 'openDiff',
      file,
      before: 'something else\n',
      after: PROPOSED,
      description: 'Shout',
    });
    const review = await waitForReview(core());
    expect(review.description).toBe(`Shout\n\n${BEFORE_DIFFERS_NOTE}`);
    const [content] = (await api('getReviewContent', { reviewId: review.id })) as Array<{ baseText: string }>;
    expect(content?.baseText).toBe(BASE);
  });

  it('a rejection with a reason: diffRejected with the reason', async () => {
    const client = await connected();
    client.send({ type: 'openDiff', file, before: BASE, after: PROPOSED, description: 'Shout' });
    const review = await waitForReview(core());
    await api('reject', { reviewId: review.id, reason: 'keep it quiet' });
    expect(await client.next()).toEqual({ type: 'diffRejected', file, reason: 'keep it quiet' });
  });

  it('a rejection without a reason: diffRejected with just the file', async () => {
    const client = await connected();
    client.send({ type: 'openDiff', file, after: PROPOSED });
    const review = await waitForReview(core());
    expect(review.description).toBeUndefined();
    await api('reject', { reviewId: review.id });
    expect(await client.next()).toEqual({ type: 'diffRejected', file });
  });

  it('a new file is proposed against empty text', async () => {
    const client = await connected();
    const created = path.join(t.workspace, 'src', 'new.py');
    client.send({ type: 'openDiff', file: created, before: 'x = 0\n', after: 'x = 1\n' });
    const review = await waitForReview(core());
    expect(review.files[0]?.isNewFile).toBe(true);
    expect(review.description).toBe(BEFORE_OF_MISSING_FILE_NOTE);
    await api('submit', { reviewId: review.id });
    expect(await client.next()).toEqual({ type: 'diffAccepted', file: created, content: 'x = 1\n' });
    expect(existsSync(created)).toBe(false);
  });

  it('a proposal that changes nothing is accepted at once, with nothing to review', async () => {
    const client = await connected();
    expect(await client.request({ type: 'openDiff', file, before: BASE, after: BASE })).toEqual({
      type: 'diffAccepted',
      file,
      content: BASE,
    });
    expect(core().snapshot().reviews).toEqual([]);
  });
});

describe('proposeDiff', () => {
  const edits = [
    // A line inserted at the top.
    { range: range([0, 0], [0, 0]), newText: 'import math\n' },
    // An in-line change, checked against oldText (the seed's example).
    { range: range([1, 11], [1, 16]), oldText: 'a * b', newText: 'a + b' },
    // A multi-line replacement: sub() on one line.
    {
      range: range([4, 0], [5, 16]),
      oldText: 'def sub(a, b):\n    return a - b',
      newText: 'def sub(a, b): return a - b',
    },
  ];
  const COMPOSED = 'import math\ndef add(a, b):\n    return a + b\n\n\ndef sub(a, b): return a - b\n';

  it('applies the range edits to the file on disk to form the proposal; on accept DiffTray writes it atomically', async () => {
    chmodSync(py, 0o664); // group-writable: a bit the usual umask (022) would drop from a new file
    const inode = statSync(py).ino;
    const client = await connected();
    client.send({ type: 'proposeDiff', file: py, edits, description: 'Use addition' });
    const review = await waitForReview(core());
    expect(review).toMatchObject({ title: 'calc.py', description: 'Use addition' });
    const [content] = (await api('getReviewContent', { reviewId: review.id })) as Array<{
      baseText: string;
      proposedText: string;
    }>;
    expect(content).toMatchObject({ baseText: PY, proposedText: COMPOSED });
    // Nothing is written before the decision.
    expect(readFileSync(py, 'utf8')).toBe(PY);

    await api('submit', { reviewId: review.id });
    expect(await client.next()).toEqual({ type: 'diffAccepted', file: py, content: COMPOSED });
    expect(readFileSync(py, 'utf8')).toBe(COMPOSED);
    expect(statSync(py).mode & 0o777).toBe(0o664);
    expect(statSync(py).ino).not.toBe(inode); // replaced by a rename, not rewritten in place
    expect(readdirSync(t.workspace).sort()).toEqual(['calc.py', 'notes.txt']); // no temp file left
    await client.expectSilence();

    // Journaled: "Undo changes on disk" puts the file back as it was, mode included.
    const undone = (await api('undoWrites', { id: review.id })) as { restored: string[] };
    expect(undone.restored).toEqual([py]);
    expect(readFileSync(py, 'utf8')).toBe(PY);
    expect(statSync(py).mode & 0o777).toBe(0o664);
  });

  it('writes exactly what the person decided: rejected hunks stay as they were', async () => {
    const client = await connected();
    client.send({ type: 'proposeDiff', file: py, edits, description: 'Use addition' });
    const review = await waitForReview(core());
    expect(review.files[0]?.hunks.length).toBeGreaterThan(1);
    await api('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [0], decision: 'rejected' });
    await api('submit', { reviewId: review.id });
    const expected = PY.replace('a * b', 'a + b').replace(
      'def sub(a, b):\n    return a - b',
      'def sub(a, b): return a - b',
    );
    expect(await client.next()).toEqual({ type: 'diffAccepted', file: py, content: expected });
    expect(readFileSync(py, 'utf8')).toBe(expected);
  });

  it('a rejection leaves the file untouched', async () => {
    const client = await connected();
    client.send({ type: 'proposeDiff', file: py, edits, description: 'Use addition' });
    const review = await waitForReview(core());
    await api('reject', { reviewId: review.id, reason: 'no' });
    expect(await client.next()).toEqual({ type: 'diffRejected', file: py, reason: 'no' });
    expect(readFileSync(py, 'utf8')).toBe(PY);
  });

  it('a file changed on disk meanwhile: submit is refused, the review stays pending, nothing is written', async () => {
    const client = await connected();
    client.send({ type: 'proposeDiff', file: py, edits, description: 'Use addition' });
    const review = await waitForReview(core());
    const edited = PY.replace('def add', 'def plus');
    writeFileSync(py, edited);
    await expect(api('submit', { reviewId: review.id })).rejects.toThrow(/changed on disk/);
    expect(core().queue.summary(review.id).state).toBe('pending');
    await client.expectSilence();
    expect(readFileSync(py, 'utf8')).toBe(edited);
    await api('reject', { reviewId: review.id });
    expect(await client.next()).toEqual({ type: 'diffRejected', file: py });
    expect(readFileSync(py, 'utf8')).toBe(edited);
  });

  it('a newer proposal for the same file supersedes the pending one', async () => {
    const client = await connected();
    client.send({ type: 'proposeDiff', file: py, edits, description: 'first' });
    const first = await waitForReview(core());
    client.send({ type: 'proposeDiff', file: py, edits: [edits[1]], description: 'second' });
    expect(await client.next()).toEqual({ type: 'diffRejected', file: py, reason: 'superseded' });
    const second = await waitForReview(core(), (r) => r.state === 'pending');
    expect(second.id).not.toBe(first.id);
    expect(core().queue.summary(first.id).state).toBe('superseded');
    await api('submit', { reviewId: second.id });
    const expected = PY.replace('a * b', 'a + b');
    expect(await client.next()).toEqual({ type: 'diffAccepted', file: py, content: expected });
    expect(readFileSync(py, 'utf8')).toBe(expected);
  });
});

describe('applyDiff', () => {
  const edits = [{ range: range([1, 13], [1, 14]), newText: '+' }];
  const APPLIED = PY.replace('a * b', 'a + b');

  it('without auto-apply: shown for review like proposeDiff; written when accepted', async () => {
    const client = await connected();
    client.send({ type: 'applyDiff', file: py, edits });
    const review = await waitForReview(core());
    expect(review.title).toBe('calc.py');
    expect(readFileSync(py, 'utf8')).toBe(PY);
    await client.expectSilence();
    await api('submit', { reviewId: review.id });
    expect(await client.next()).toEqual({ type: 'diffAccepted', file: py, content: APPLIED });
    expect(readFileSync(py, 'utf8')).toBe(APPLIED);
  });

  it('with auto-apply on for Clio: written at once, answered, and recorded in history as accepted', async () => {
    autoApply = ['Someone Else', ' clio '];
    const client = await connected();
    expect(await client.request({ type: 'applyDiff', file: py, edits })).toEqual({
      type: 'diffAccepted',
      file: py,
      content: APPLIED,
    });
    expect(readFileSync(py, 'utf8')).toBe(APPLIED);
    const [review] = core().snapshot().reviews;
    expect(review).toMatchObject({ state: 'accepted', title: 'calc.py', description: AUTO_APPLIED_NOTE });
    expect(core().queue.pendingCount()).toBe(0);
  });

  it('auto-apply affects applyDiff only: proposeDiff is still reviewed', async () => {
    autoApply = ['Clio'];
    const client = await connected();
    client.send({ type: 'proposeDiff', file: py, edits });
    await waitForReview(core());
    await client.expectSilence();
    expect(readFileSync(py, 'utf8')).toBe(PY);
  });

  it('auto-apply still refuses paths outside the workspace and bad ranges', async () => {
    autoApply = ['Clio'];
    const client = await connected();
    const outside = path.join(path.dirname(t.workspace), 'outside.py');
    writeFileSync(outside, PY);
    expect(await client.request({ type: 'applyDiff', file: outside, edits })).toEqual({
      type: 'error',
      code: 'PATH_OUTSIDE_WORKSPACE',
      message: `Path is outside the workspace folders: ${outside}`,
      file: outside,
    });
    expect(readFileSync(outside, 'utf8')).toBe(PY);
    const bad = await client.request({
      type: 'applyDiff',
      file: py,
      edits: [{ range: range([1, 40], [1, 41]), newText: '' }],
    });
    expect(bad).toMatchObject({ type: 'error', code: 'INVALID_RANGE', file: py });
    expect(readFileSync(py, 'utf8')).toBe(PY);
    expect(core().snapshot().reviews).toEqual([]);
  });
});

describe('closeDiff', () => {
  it('cancels the client’s pending review of that file and answers diffRejected {reason: closed}', async () => {
    const client = await connected();
    client.send({
      type: 'proposeDiff',
      file: py,
      edits: [{ range: range([0, 0], [0, 0]), newText: '# hi\n' }],
    });
    const review = await waitForReview(core());
    client.send({ type: 'closeDiff', file });
    await client.expectSilence(); // nothing pending for notes.txt: no answer
    client.send({ type: 'closeDiff', file: py });
    expect(await client.next()).toEqual({ type: 'diffRejected', file: py, reason: 'closed' });
    expect(core().queue.summary(review.id)).toMatchObject({
      state: 'cancelled',
      reason: 'closed by the client',
    });
    expect(readFileSync(py, 'utf8')).toBe(PY);
  });

  it('closes only its own client’s review', async () => {
    const a = await connected();
    const b = await connected();
    a.send({ type: 'openDiff', file, after: PROPOSED });
    const review = await waitForReview(core());
    b.send({ type: 'closeDiff', file });
    await b.expectSilence();
    expect(core().queue.summary(review.id).state).toBe('pending');
  });
});

describe('status', () => {
  it('sets the client’s status line, prefixed for warnings and errors, without a reply or touching a review', async () => {
    const client = await connected();
    client.send({ type: 'openDiff', file, after: PROPOSED });
    const review = await waitForReview(core());
    client.send({ type: 'status', message: 'Processing request...', level: 'info' });
    await waitForSnapshot(core(), (s) =>
      s.clients[0]?.status?.text === 'Processing request...' ? true : undefined,
    );
    client.send({ type: 'status', message: 'Tests failing', level: 'warning' });
    await waitForSnapshot(core(), (s) =>
      s.clients[0]?.status?.text === 'warning: Tests failing' ? true : undefined,
    );
    client.send({ type: 'status', message: 'Out of tokens', level: 'error' });
    await waitForSnapshot(core(), (s) =>
      s.clients[0]?.status?.text === 'error: Out of tokens' ? true : undefined,
    );
    client.send({ type: 'status', message: 'No level' });
    await waitForSnapshot(core(), (s) => (s.clients[0]?.status?.text === 'No level' ? true : undefined));
    await client.expectSilence();
    expect(core().queue.summary(review.id).state).toBe('pending');
  });
});

describe('errors: each answered with a code, nothing reviewed or written, the connection stays open', () => {
  const missing = () => path.join(t.workspace, 'missing.py');
  const insertAtTop = [{ range: range([0, 0], [0, 0]), newText: 'x' }];
  const cases: Array<[string, () => { send: Message | string; answer: Message }]> = [
    ['invalid JSON', () => ({ send: '{"type": "connect",', answer: { code: 'INVALID_JSON' } })],
    ['not an object', () => ({ send: '[1, 2]', answer: { code: 'INVALID_MESSAGE' } })],
    ['no type', () => ({ send: { file }, answer: { code: 'INVALID_MESSAGE', file } })],
    [
      'an unknown type',
      () => ({
        send: { type: 'frobnicate', file },
        answer: { code: 'UNKNOWN_TYPE', message: 'Unknown message type: frobnicate', file },
      }),
    ],
    [
      'a missing field',
      () => ({
        send: { type: 'openDiff', file, before: BASE },
        answer: {
          code: 'INVALID_MESSAGE',
          file,
          message: expect.stringMatching(/^Invalid openDiff: after: /),
        },
      }),
    ],
    [
      'no edits',
      () => ({
        send: { type: 'proposeDiff', file: py, edits: [] },
        answer: { code: 'INVALID_MESSAGE', file: py },
      }),
    ],
    [
      'a negative position',
      () => ({
        send: { type: 'proposeDiff', file: py, edits: [{ range: range([-1, 0], [0, 0]), newText: '' }] },
        answer: {
          code: 'INVALID_MESSAGE',
          file: py,
          message: expect.stringMatching(/edits\.0\.range\.start\.line/),
        },
      }),
    ],
    [
      'a bad status level',
      () => ({ send: { type: 'status', message: 'x', level: 'loud' }, answer: { code: 'INVALID_MESSAGE' } }),
    ],
    [
      'an unknown file (proposeDiff)',
      () => ({
        send: { type: 'proposeDiff', file: missing(), edits: insertAtTop },
        answer: { code: 'FILE_NOT_FOUND', message: `File not found: ${missing()}`, file: missing() },
      }),
    ],
    [
      'an unknown file (applyDiff)',
      () => ({
        send: { type: 'applyDiff', file: missing(), edits: insertAtTop },
        answer: { code: 'FILE_NOT_FOUND', message: `File not found: ${missing()}`, file: missing() },
      }),
    ],
    [
      'a line past the end',
      () => ({
        send: { type: 'proposeDiff', file: py, edits: [{ range: range([7, 0], [7, 0]), newText: 'x' }] },
        answer: {
          code: 'INVALID_RANGE',
          message: 'edits[0]: start line 7 is past the end of the file (lines 0–6)',
          file: py,
        },
      }),
    ],
    [
      'a character past the end of its line',
      () => ({
        send: { type: 'proposeDiff', file: py, edits: [{ range: range([0, 3], [0, 99]), newText: 'x' }] },
        answer: {
          code: 'INVALID_RANGE',
          message: 'edits[0]: end character 99 is past the end of line 0 (length 14)',
          file: py,
        },
      }),
    ],
    [
      'an oldText mismatch',
      () => ({
        send: {
          type: 'proposeDiff',
          file: py,
          edits: [{ range: range([1, 11], [1, 16]), oldText: 'a ** b', newText: 'a + b' }],
        },
        answer: {
          code: 'INVALID_RANGE',
          message: 'edits[0]: oldText does not match the file: expected "a ** b", found "a * b"',
          file: py,
        },
      }),
    ],
    [
      'overlapping edits',
      () => ({
        send: {
          type: 'proposeDiff',
          file: py,
          edits: [
            { range: range([1, 4], [1, 12]), newText: 'x' },
            { range: range([0, 0], [0, 0]), newText: 'ok\n' },
            { range: range([1, 10], [2, 0]), newText: 'y' },
          ],
        },
        answer: { code: 'INVALID_RANGE', message: 'edits[0] and edits[2] overlap', file: py },
      }),
    ],
    [
      'a path outside the workspace',
      () => ({
        send: { type: 'openDiff', file: '/etc/hosts', before: '', after: 'evil' },
        answer: {
          code: 'PATH_OUTSIDE_WORKSPACE',
          message: 'Path is outside the workspace folders: /etc/hosts',
          file: '/etc/hosts',
        },
      }),
    ],
    [
      'a relative path',
      () => ({
        send: { type: 'openDiff', file: 'notes.txt', after: 'x' },
        answer: {
          code: 'PATH_OUTSIDE_WORKSPACE',
          message: 'Path must be absolute: notes.txt',
          file: 'notes.txt',
        },
      }),
    ],
  ];

  it.each(cases)('%s', async (_label, make) => {
    const { send, answer } = make();
    const client = await connected();
    expect(await client.request(send)).toEqual({ type: 'error', message: expect.any(String), ...answer });
    await client.expectAlive();
    await client.expectSilence();
    expect(core().snapshot().reviews).toEqual([]);
    expect(readFileSync(py, 'utf8')).toBe(PY);
    expect(readFileSync(file, 'utf8')).toBe(BASE);
    expect(existsSync(missing())).toBe(false);
  });

  it('binary and oversized files are UNREVIEWABLE_FILE', async () => {
    const client = await connected();
    const binary = path.join(t.workspace, 'image.bin');
    writeFileSync(binary, Buffer.from([0x89, 0x50, 0x00, 0x01]));
    expect(await client.request({ type: 'openDiff', file: binary, after: 'text' })).toEqual({
      type: 'error',
      code: 'UNREVIEWABLE_FILE',
      message: `File is binary; Clio edits are text only: ${binary}`,
      file: binary,
    });
    const huge = path.join(t.workspace, 'huge.log');
    writeFileSync(huge, Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    const answer = await client.request({
      type: 'proposeDiff',
      file: huge,
      edits: [{ range: range([0, 0], [0, 0]), newText: 'x' }],
    });
    expect(answer).toMatchObject({ type: 'error', code: 'UNREVIEWABLE_FILE', file: huge });
    expect(answer.message).toMatch(/larger than the 10 MB limit/);
    const folder = path.join(t.workspace, 'folder');
    mkdirSync(folder);
    expect(await client.request({ type: 'openDiff', file: folder, after: 'x' })).toMatchObject({
      code: 'UNREVIEWABLE_FILE',
      file: folder,
    });
    await client.expectAlive();
    expect(core().snapshot().reviews).toEqual([]);
  });
});

describe('the client going away', () => {
  it('cancels its pending reviews, which stay visible, and unregisters it', async () => {
    const client = await connected();
    client.send({
      type: 'proposeDiff',
      file: py,
      edits: [{ range: range([0, 0], [0, 0]), newText: '# hi\n' }],
    });
    const review = await waitForReview(core());
    client.close();
    const ended = await waitForReview(core(), (r) => r.id === review.id && r.state === 'cancelled');
    expect(ended.reason).toBe('client disconnected');
    expect(core().snapshot().clients).toEqual([]);
    expect(readFileSync(py, 'utf8')).toBe(PY);
  });
});

describe('the write after acceptance', () => {
  // A core without the disk watcher, decided through the queue directly, so the file can change between
  // the decision and the write: the adapter's own last check must catch it.
  let bare: AppCore;
  let bareEndpoint: ClioEndpoint;

  beforeEach(async () => {
    bare = new AppCore([t.workspace]);
    bareEndpoint = await startClioEndpoint({
      core: bare,
      lockFile: path.join(t.home, 'bare', 'bridge.json'),
    });
  });

  afterEach(async () => {
    await bareEndpoint.close();
  });

  it('re-checks the disk: a file changed after the decision is not written, and the client gets FILE_CHANGED', async () => {
    const client = await open({ [HEADER]: bareEndpoint.token }, bareEndpoint.port);
    client.send({
      type: 'proposeDiff',
      file: py,
      edits: [{ range: range([0, 0], [0, 0]), newText: '# hi\n' }],
    });
    const review = await waitForReview(bare);
    writeFileSync(py, 'edited meanwhile\n');
    bare.queue.submit(review.id);
    const answer = await client.next();
    expect(answer).toMatchObject({ type: 'error', code: 'FILE_CHANGED', file: py });
    expect(answer.message).toMatch(/changed on disk since it was reviewed; it was not written/);
    expect(readFileSync(py, 'utf8')).toBe('edited meanwhile\n');
    expect(readdirSync(t.workspace).sort()).toEqual(['calc.py', 'notes.txt']);
    // History tells the truth: accepted, but not written.
    expect(bare.queue.summary(review.id).notes).toEqual([
      expect.stringMatching(/^Not written: .*changed on disk/),
    ]);
    await client.expectAlive();
  });
});

describe('bridge.json', () => {
  it('names the port, pid, workspace and token; 0600 in a 0700 folder; removed on close', async () => {
    expect(JSON.parse(readFileSync(bridgeFile, 'utf8'))).toEqual({
      port: endpoint.port,
      pid: process.pid,
      ideName: 'DiffTray',
      workspaceFolders: [t.workspace],
      timestamp: expect.any(Number),
      authToken: endpoint.token,
    });
    expect(statSync(bridgeFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(bridgeFile)).mode & 0o777).toBe(0o700);
    expect(endpoint.ownsLockFile).toBe(true);
    await endpoint.close();
    expect(existsSync(bridgeFile)).toBe(false);
  });

  it('is left alone on close when someone else has replaced it since', async () => {
    const theirs = JSON.stringify({ port: 1, pid: process.pid + 1, ideName: 'vscode' });
    writeFileSync(bridgeFile, theirs);
    await endpoint.close();
    expect(readFileSync(bridgeFile, 'utf8')).toBe(theirs);
  });

  it('a live process’s file is kept (another DiffTray, an editor); this endpoint still serves on its port', async () => {
    await endpoint.close();
    const otherPid = process.ppid;
    expect(isProcessAlive(otherPid)).toBe(true);
    const theirs = JSON.stringify({
      port: 1234,
      pid: otherPid,
      ideName: 'vscode',
      workspaceFolders: [],
      timestamp: 1,
    });
    writeFileSync(bridgeFile, theirs);
    endpoint = await startClioEndpoint({ core: core(), lockFile: bridgeFile, log: (m) => logs.push(m) });
    expect(endpoint.ownsLockFile).toBe(false);
    expect(readFileSync(bridgeFile, 'utf8')).toBe(theirs);
    expect(
      logs.some(
        (line) => line.includes(`pid ${otherPid}`) && line.includes(`CLIO_IDE_PORT=${endpoint.port}`),
      ),
    ).toBe(true);
    await connected();
    await endpoint.close();
    expect(readFileSync(bridgeFile, 'utf8')).toBe(theirs);
  });

  it('a dead process’s file, an unreadable one, and our own are replaced', async () => {
    await endpoint.close();
    const dead = spawnSync('true').pid!;
    for (const stale of [
      JSON.stringify({ port: 1, pid: dead }),
      'not json',
      JSON.stringify({ port: 2, pid: process.pid }),
    ]) {
      writeFileSync(bridgeFile, stale);
      const next = await startClioEndpoint({ core: core(), lockFile: bridgeFile });
      expect(next.ownsLockFile).toBe(true);
      expect(JSON.parse(readFileSync(bridgeFile, 'utf8'))).toMatchObject({
        port: next.port,
        pid: process.pid,
      });
      await next.close();
      expect(existsSync(bridgeFile)).toBe(false);
    }
  });

  // Issue 7, item 9: a dead pid alone is no proof (a Clio owner in another pid namespace, a container
  // sharing the home folder, has a pid we cannot see); nor is a pid of 0 or -1.
  it('a file whose pid looks dead but whose port answers, or whose pid is 0 or -1, is kept', async () => {
    await endpoint.close();
    const dead = spawnSync('true').pid!;
    const live = net.createServer();
    await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
    const livePort = (live.address() as net.AddressInfo).port;
    try {
      for (const theirs of [
        JSON.stringify({ port: livePort, pid: dead, ideName: 'vscode' }),
        JSON.stringify({ port: 1, pid: 0 }),
        JSON.stringify({ port: 1, pid: -1 }),
      ]) {
        writeFileSync(bridgeFile, theirs);
        const next = await startClioEndpoint({ core: core(), lockFile: bridgeFile });
        expect(next.ownsLockFile).toBe(false);
        await next.close();
        expect(readFileSync(bridgeFile, 'utf8')).toBe(theirs);
      }
    } finally {
      live.close();
    }
  });

  it('a second endpoint in this process takes the file over; the first one’s close then leaves it be', async () => {
    const second = await startClioEndpoint({ core: core(), lockFile: bridgeFile });
    expect(JSON.parse(readFileSync(bridgeFile, 'utf8')).port).toBe(second.port);
    await endpoint.close();
    expect(JSON.parse(readFileSync(bridgeFile, 'utf8')).port).toBe(second.port);
    await second.close();
    expect(existsSync(bridgeFile)).toBe(false);
  });
});
