/** The headless carrier: the page and the app API, guarded by the per-run token, Origin and Host. */
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HeadlessServerMessage } from '../../shared/app-api';
import { HeadlessServer } from '../../src-main/headless/headless-server';
import { connectClaudeClient, texts } from '../support/claude-client';
import { makeTempDir } from '../support/temp';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until, waitForReview } from '../support/wait';

let t: TestRuntime;
let headless: HeadlessServer;
let renderer: { dir: string; cleanup: () => void };

beforeEach(async () => {
  t = await startTestRuntime();
  renderer = makeTempDir('renderer');
  mkdirSync(path.join(renderer.dir, 'assets'));
  writeFileSync(path.join(renderer.dir, 'index.html'), '<!doctype html><title>DiffTray</title>');
  writeFileSync(path.join(renderer.dir, 'assets', 'app.js'), 'console.log(1)');
  headless = await HeadlessServer.start({
    core: t.runtime.core,
    handler: t.runtime.handler,
    rendererDir: renderer.dir,
  });
});

afterEach(async () => {
  await headless.close();
  await t.close();
  renderer.cleanup();
});

function get(
  urlPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: headless.port, path: urlPath, headers }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body, headers: response.headers }),
        );
      })
      .on('error', reject);
  });
}

function connectApi(
  query: string,
  origin: string | null = `http://127.0.0.1:${headless.port}`,
  headers: Record<string, string> = {},
): Promise<{ socket: WebSocket; next: Inbox }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${headless.port}/api${query}`, {
      ...(origin && { origin }),
      headers,
    });
    // The first snapshot can arrive with the upgrade response: listen before 'open'.
    const next = inbox(socket);
    socket.once('open', () => resolve({ socket, next }));
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

type Inbox = (predicate: (m: HeadlessServerMessage) => boolean) => Promise<HeadlessServerMessage>;

/** Collects messages from the moment of connecting, so none is missed between awaits. */
function inbox(socket: WebSocket): Inbox {
  const messages: HeadlessServerMessage[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    messages.push(JSON.parse(data.toString()) as HeadlessServerMessage);
    waiters.splice(0).forEach((wake) => wake());
  });
  return async (predicate: (m: HeadlessServerMessage) => boolean): Promise<HeadlessServerMessage> => {
    for (;;) {
      const found = messages.find(predicate);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
}

/** Claude Code proposes `proposed` for a workspace file that holds `base`; the answer comes on decision. */
async function proposeWithClaude(name: string, base: string, proposed: string) {
  const claude = await connectClaudeClient(t.runtime.bridge.port, t.runtime.bridge.tokenFor('claude-ide'));
  const file = path.join(t.workspace, name);
  writeFileSync(file, base);
  const answer = claude.callTool('openDiff', {
    old_file_path: file,
    new_file_path: file,
    new_file_contents: proposed,
    tab_name: name,
  });
  return { claude, file, answer };
}

describe('headless page', () => {
  it('serves the page with the token, with CSP', async () => {
    const page = await get(`/?token=${headless.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>DiffTray</title>');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect((await get('/assets/app.js')).status).toBe(200);
  });

  it('refuses the page without the token or with a wrong one', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/?token=nope')).status).toBe(401);
  });

  it.each([
    '/%69ndex.html',
    '/index.html/',
    '/index.html%2F',
    '//index.html',
    '/./index.html',
    '/assets/../index.html',
    '/assets/%2e%2e/index.html',
    '/index.%68tml',
    '/%2Findex.html',
  ])('asks for the token for %s, which serves the page (item 9a)', async (spelling) => {
    expect((await get(spelling)).status).toBe(401);
    const page = await get(`${spelling}?token=${headless.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>DiffTray</title>');
  });

  it('asks for the token for any HTML page in the renderer, and not for assets', async () => {
    writeFileSync(path.join(renderer.dir, 'assets', 'other.html'), '<!doctype html><title>Other</title>');
    expect((await get('/assets/other.html')).status).toBe(401);
    expect((await get('/assets/OTHER.html')).status).toBe(404);
    expect((await get('/assets/%61pp.js')).status).toBe(200);
  });

  it('refuses a foreign Host and paths outside the renderer', async () => {
    expect((await get(`/?token=${headless.token}`, { Host: 'evil.example' })).status).toBe(403);
    expect((await get('/../../etc/passwd')).status).toBe(404);
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
  });
});

describe('headless session cookie', () => {
  /** The cookie the page with the token sets, as a browser sends it back (`name=value`). */
  async function sessionCookie(): Promise<string> {
    const page = await get(`/?token=${headless.token}`);
    expect(page.status).toBe(200);
    const [cookie] = page.headers['set-cookie'] ?? [];
    expect(cookie).toMatch(
      new RegExp(`^difftray-ui-${headless.port}=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=/$`),
    );
    // The cookie is not the printed token (the token stays in the person's terminal).
    expect(cookie).not.toContain(headless.token);
    return cookie!.split(';')[0]!;
  }

  it('the page loaded with the token sets it; then the page and the API work with the cookie alone', async () => {
    const cookie = await sessionCookie();
    // A reload after the page dropped the token from the address bar.
    const reload = await get('/', { Cookie: cookie });
    expect(reload.status).toBe(200);
    expect(reload.body).toContain('<title>DiffTray</title>');
    // Among other cookies of 127.0.0.1 (cookies do not keep to a port), as a browser sends them.
    expect((await get('/', { Cookie: `a=b; ${cookie}; c=d` })).status).toBe(200);
    const { socket, next } = await connectApi('', undefined, { Cookie: cookie });
    expect(await next((m) => 'event' in m)).toMatchObject({ event: 'snapshot', snapshot: { reviews: [] } });
    socket.send(JSON.stringify({ id: 1, method: 'getSnapshot', params: {} }));
    expect(await next((m) => 'id' in m && m.id === 1)).toMatchObject({ id: 1, result: { reviews: [] } });
    socket.close();
  });

  it('sets no cookie for a wrong token, nor for assets', async () => {
    expect((await get('/?token=nope')).headers['set-cookie']).toBeUndefined();
    expect((await get('/assets/app.js')).headers['set-cookie']).toBeUndefined();
    expect((await get(`/assets/app.js?token=${headless.token}`)).headers['set-cookie']).toBeUndefined();
  });

  it('refuses a missing or wrong cookie, and the right one from a foreign Origin or Host', async () => {
    const cookie = await sessionCookie();
    const [name, value] = cookie.split('=') as [string, string];
    const wrong = [
      `${name}=${'0'.repeat(64)}`,
      `${name}=`,
      `${name}=${headless.token}`,
      // The right value under another DiffTray's name (another port).
      `difftray-ui-${headless.port + 1}=${value}`,
      `${name}x=${value}`,
    ];
    for (const bad of wrong) {
      expect((await get('/', { Cookie: bad })).status).toBe(401);
      await expect(connectApi('', undefined, { Cookie: bad })).rejects.toThrow('HTTP 401');
    }
    await expect(connectApi('')).rejects.toThrow('HTTP 401');
    await expect(connectApi('', 'https://evil.example', { Cookie: cookie })).rejects.toThrow('HTTP 403');
    await expect(connectApi('', null, { Cookie: cookie })).rejects.toThrow('HTTP 403');
    expect((await get('/', { Cookie: cookie, Host: 'evil.example' })).status).toBe(403);
  });
});

describe('headless app API', () => {
  it('refuses a missing or wrong token, a foreign Origin, and no Origin', async () => {
    await expect(connectApi('')).rejects.toThrow('HTTP 401');
    await expect(connectApi('?token=wrong')).rejects.toThrow('HTTP 401');
    await expect(connectApi(`?token=${headless.token}`, 'https://evil.example')).rejects.toThrow('HTTP 403');
    await expect(connectApi(`?token=${headless.token}`, null)).rejects.toThrow('HTTP 403');
  });

  it('pushes snapshots and decides a review end to end', async () => {
    const { socket, next } = await connectApi(`?token=${headless.token}`);
    const initial = await next((m) => 'event' in m);
    expect(initial).toMatchObject({
      event: 'snapshot',
      snapshot: { reviews: [], workspaceFolders: [t.workspace] },
    });

    const { claude, file, answer } = await proposeWithClaude('a.txt', 'a\nb\nc\n', 'A\nb\nC\n');
    const review = await waitForReview(t.runtime.core);
    // The socket got the whole state at connect, then the change that brought the review.
    await next((m) => 'event' in m && m.event === 'change' && m.change.added?.length === 1);

    socket.send(JSON.stringify({ id: 1, method: 'getReviewContent', params: { reviewId: review.id } }));
    expect(await next((m) => 'id' in m && m.id === 1)).toEqual({
      id: 1,
      result: [{ path: file, contentRevision: 1, baseText: 'a\nb\nc\n', proposedText: 'A\nb\nC\n' }],
    });
    socket.send(
      JSON.stringify({
        id: 2,
        method: 'decideHunks',
        params: { reviewId: review.id, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' },
      }),
    );
    expect(await next((m) => 'id' in m && m.id === 2)).toEqual({ id: 2, result: null });
    socket.send(JSON.stringify({ id: 3, method: 'submit', params: { reviewId: review.id } }));
    await next((m) => 'id' in m && m.id === 3);
    expect(texts(await answer)).toEqual(['FILE_SAVED', 'A\nb\nc\n']);
    await claude.close();
    socket.close();
  });

  it('lets a window go from the change stream when its socket closes or drops', async () => {
    const before = t.runtime.core.subscriberCount;
    const windows = await Promise.all([1, 2, 3].map(() => connectApi(`?token=${headless.token}`)));
    await Promise.all(windows.map(({ next }) => next((m) => 'event' in m)));
    expect(t.runtime.core.subscriberCount).toBe(before + 3);
    windows[0]!.socket.close();
    // Gone without a closing handshake, as a crashed tab goes.
    windows[1]!.socket.terminate();
    await until(
      () => (t.runtime.core.subscriberCount === before + 1 ? true : undefined),
      'the closed windows to leave the stream',
    );
    // The one left still gets changes.
    const { claude, answer } = await proposeWithClaude('left.txt', 'a\n', 'b\n');
    await windows[2]!.next((m) => 'event' in m && m.event === 'change' && m.change.added?.length === 1);
    await claude.close();
    await answer.catch(() => undefined);
    windows[2]!.socket.close();
  });

  it('answers malformed messages and bad calls with errors, and keeps the socket open', async () => {
    const { socket, next } = await connectApi(`?token=${headless.token}`);
    socket.send('not json');
    expect(await next((m) => 'id' in m && m.id === -1)).toEqual({
      id: -1,
      error: { message: 'Malformed message: not JSON' },
    });
    socket.send(JSON.stringify({ id: 5, method: 'formatDisk', params: {} }));
    expect(await next((m) => 'id' in m && m.id === 5)).toEqual({
      id: 5,
      error: { message: 'Unknown method: formatDisk' },
    });
    socket.send(JSON.stringify({ id: 6, method: 'submit', params: { reviewId: 'r404' } }));
    expect(await next((m) => 'id' in m && m.id === 6)).toEqual({
      id: 6,
      error: { message: 'No review r404' },
    });
    const shape = 'Malformed message: expected {"id": number, "method": string, "params"?: …}';
    socket.send('null');
    expect(await next((m) => 'id' in m && m.id === -1 && 'error' in m && m.error.message === shape)).toEqual({
      id: -1,
      error: { message: shape },
    });
    socket.send(JSON.stringify({ id: 8, params: {} }));
    expect(await next((m) => 'id' in m && m.id === 8)).toEqual({ id: 8, error: { message: shape } });
    socket.send(JSON.stringify({ id: 7, method: 'getSnapshot', params: {} }));
    expect(await next((m) => 'id' in m && m.id === 7)).toMatchObject({ id: 7, result: { reviews: [] } });
    socket.close();
  });
});
