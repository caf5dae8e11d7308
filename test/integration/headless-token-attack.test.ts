/**
 * Issue 23 item 1, as an attack: an agent connected to a headless DiffTray (the party under review) tries
 * to decide its own pending review. It reads every file under the user's DiffTray and CLI folders (HOME,
 * and TMPDIR for Gemini CLI), calls every native command and every Claude Code IDE tool, collects each
 * answer and push, and tries everything it found that looks like a key on the headless UI: as `?token=`,
 * as the session cookie, and through the page to get a cookie. The review must stay pending, and the UI
 * token must appear nowhere the agent looked, while `show_window` still opens the person's browser.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestSchemas, type RequestCommand } from '../../shared/native-protocol';
import { defaultEndpoints } from '../../src-main/bridge/endpoints';
import { startHeadlessApp, type HeadlessApp } from '../../src-main/headless/headless-app';
import { sessionCookieName } from '../../src-main/headless/session-cookie';
import { connectClaudeClient } from '../support/claude-client';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { makeTempDir } from '../support/temp';
import { until, waitForReview } from '../support/wait';

let temp: { dir: string; cleanup: () => void };
let root: string;
let workspace: string;
let home: string;
let tmpDir: string;
let app: HeadlessApp;
/** What DiffTray opened in "the person's browser". */
let opened: string[];

beforeEach(async () => {
  temp = makeTempDir('ui-token-attack');
  root = realpathSync(temp.dir);
  [workspace, home, tmpDir] = ['workspace', 'home', 'tmp'].map((name) => path.join(root, name)) as [
    string,
    string,
    string,
  ];
  const renderer = path.join(root, 'renderer');
  for (const dir of [workspace, home, tmpDir, renderer]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>DiffTray</title>');
  // Every CLI's folder under the temp HOME, as a person who uses them all has them.
  const env = {
    DIFFTRAY_HOME: path.join(home, '.difftray'),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    OPENCLAUDE_CONFIG_DIR: path.join(home, '.openclaude'),
    QWEN_HOME: path.join(home, '.qwen'),
    COPILOT_HOME: path.join(home, '.copilot'),
  };
  opened = [];
  app = await startHeadlessApp({
    runtime: {
      workspaces: [workspace],
      env,
      endpoints: defaultEndpoints(env, home, tmpDir),
      home,
      log: () => {},
    },
    rendererDir: renderer,
    openBrowser: async (url) => {
      opened.push(url);
      return true;
    },
  });
});

afterEach(async () => {
  await app.close();
  temp.cleanup();
});

/** Every regular file under `dir`, links not followed (an agent would read them all). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return lstatSync(full).isFile() ? [full] : [];
  });
}

/** The one lock file `<port>.lock` in `dir` (the runtime's own): its port and token. */
function lockIn(dir: string): { port: number; authToken: string } {
  const locks = readdirSync(dir).filter((name) => name.endsWith('.lock'));
  expect(locks).toHaveLength(1);
  const lock = JSON.parse(readFileSync(path.join(dir, locks[0]!), 'utf8')) as { authToken: string };
  return { port: Number(path.basename(locks[0]!, '.lock')), authToken: lock.authToken };
}

/** A payload for every native command: a command added to the protocol must be added here. */
function payloads(reviewId: string, sessionId: string): { [C in RequestCommand]: unknown } {
  return {
    hello: { client_name: 'agent under review', session_id: sessionId },
    heartbeat: {},
    propose_change_set: { title: 'more', files: [{ path: 'b.txt', after: 'b\n' }] },
    get_review: { review_id: reviewId },
    list_reviews: {},
    cancel_review: { review_id: 'r999999' },
    status: {},
    show_window: {},
    get_file_tree: {},
    get_file_content: { path: path.join(workspace, 'a.txt') },
    request_approval: { kind: 'command', command: 'true' },
    watch_folder: { folder: workspace, watch: false },
    get_folder_content: { folderPath: workspace },
    get_entire_codebase: { workspaceFolderUri: null },
    get_active_file_info: {},
    get_open_files: {},
    search_workspace: { query: 'a', workspaceFolderUri: null },
    check_workspace_trust: {},
    get_filter_info: { workspaceFolderUri: null },
    register_active_target: {},
    turn_begin: { prompt: 'go on' },
    turn_touch: { paths: [path.join(workspace, 'a.txt')] },
    turn_end: {},
  };
}

/**
 * Every answer and push native connections receive, as text: a fresh connection asks what needs no
 * session (as `difftray status` / `open` do), then the agent's own session asks every command the
 * protocol lists.
 */
async function callEveryNativeCommand(
  agent: RawNative,
  sessionId: string,
  reviewId: string,
): Promise<string[]> {
  const lock = lockIn(path.join(home, '.difftray'));
  const fresh = await RawNative.open(lock.port, { [NATIVE_HEADER]: lock.authToken });
  const heard: string[] = [];
  for (const client of [fresh, agent]) client.socket.on('message', (data) => heard.push(data.toString()));
  for (const command of ['status', 'show_window'] as const) await fresh.request(command, {});
  fresh.close();
  const all = payloads(reviewId, sessionId);
  for (const command of Object.keys(requestSchemas) as RequestCommand[]) {
    await agent.request(command, all[command]);
  }
  return heard;
}

/** Every frame of a Claude Code IDE session that lists the tools and calls each (their answers included). */
async function callEveryClaudeTool(): Promise<string[]> {
  const lock = lockIn(path.join(home, '.claude', 'ide'));
  const claude = await connectClaudeClient(lock.port, lock.authToken);
  const heard: string[] = [];
  claude.socket.on('message', (data) => heard.push(data.toString()));
  const { tools } = await claude.client.listTools();
  heard.push(JSON.stringify(tools));
  for (const tool of tools) {
    // Empty arguments: each answers (an error for most); openDiff must not start a review of its own.
    await claude.callTool(tool.name, {}).catch((error: unknown) => heard.push(String(error)));
  }
  await claude.close();
  return heard;
}

/** Strings that look like a key: long runs of hex / base64url characters. */
function candidates(texts: string[]): string[] {
  const found = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(/[A-Za-z0-9_-]{16,}/g)) found.add(match[0]);
  return [...found];
}

function getPage(port: number, urlPath: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; cookies: string[] }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, headers }, (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, cookies: response.headers['set-cookie'] ?? [] }),
        );
      })
      .on('error', reject);
  });
}

/** An API socket as the UI opens it (own Origin), or undefined when refused. */
function tryApi(port: number, query: string, cookie?: string): Promise<WebSocket | undefined> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api${query}`, {
      origin: `http://127.0.0.1:${port}`,
      headers: cookie ? { Cookie: cookie } : {},
    });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', () => resolve(undefined));
    socket.once('error', () => resolve(undefined));
  });
}

/** With an open API socket: accept everything in the review and submit it, as the person would. */
async function decide(socket: WebSocket, reviewId: string): Promise<void> {
  let id = 0;
  const call = (method: string, params: unknown) =>
    new Promise<void>((resolve) => {
      const mine = ++id;
      socket.on('message', (data) => {
        if ((JSON.parse(data.toString()) as { id?: number }).id === mine) resolve();
      });
      socket.send(JSON.stringify({ id: mine, method, params }));
    });
  await call('decideAll', { reviewId, decision: 'accepted' });
  await call('submit', { reviewId });
}

describe('an agent cannot decide its own review (headless)', () => {
  it('finds no UI token in any file it can read or any answer it gets, and cannot decide the review', async () => {
    const uiPort = app.headless.port;
    const token = app.headless.token;
    // The agent under review proposes a change and waits.
    writeFileSync(path.join(workspace, 'a.txt'), 'old\n');
    const lock = lockIn(path.join(home, '.difftray'));
    const agent = await RawNative.open(lock.port, { [NATIVE_HEADER]: lock.authToken });
    const hello = await agent.request('hello', { client_name: 'agent under review' });
    const sessionId = hello.payload.session_id as string;
    const proposed = await agent.request('propose_change_set', {
      title: 'mine',
      files: [{ path: 'a.txt', after: 'agent wins\n' }],
    });
    const reviewId = proposed.payload.review_id as string;
    expect((await waitForReview(app.runtime.core)).id).toBe(reviewId);

    // Everything the agent can read or be told.
    const files = [...filesUnder(home), ...filesUnder(tmpDir)];
    const read = files.map((file) => readFileSync(file, 'latin1'));
    // The folders of every CLI were written (so the look was not at nothing).
    const written = files.map((file) => path.relative(root, file));
    for (const place of ['.difftray', '.claude', '.nexus3', '.openclaude', '.qwen', '.copilot', '.clio']) {
      expect(written.some((file) => file.startsWith(`home/${place}/`))).toBe(true);
    }
    expect(written.some((file) => file.startsWith('tmp/gemini/'))).toBe(true);
    const heard = [
      ...(await callEveryNativeCommand(agent, sessionId, reviewId)),
      ...(await callEveryClaudeTool()),
    ];

    const everything = [...read, ...heard];

    // Anything that looks like a key, tried every way the UI admits a browser.
    const admitted: string[] = [];
    for (const guess of candidates(everything)) {
      const page = await getPage(uiPort, `/?token=${guess}`);
      const cookies = [...page.cookies.map((c) => c.split(';')[0]!), `${sessionCookieName(uiPort)}=${guess}`];
      const sockets = [
        await tryApi(uiPort, `?token=${guess}`),
        ...(await Promise.all(cookies.map((cookie) => tryApi(uiPort, '', cookie)))),
      ];
      for (const socket of sockets) {
        if (!socket) continue;
        admitted.push(guess);
        await decide(socket, reviewId);
        socket.close();
      }
    }
    expect(admitted).toEqual([]);
    expect(app.runtime.core.queue.find(reviewId)?.state).toBe('pending');
    expect(readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('old\n');
    // Nothing the agent read or was told carries the token (nor the cookie it would become).
    expect(everything.filter((text) => text.includes(token))).toEqual([]);
    // And yet show_window did open the person's browser (DiffTray launched it) on the address with the token.
    await until(() => (opened.length > 0 ? true : undefined), 'the browser to be opened');
    expect(opened.every((url) => url === app.headless.url)).toBe(true);
    agent.close();
  });
});
