/**
 * The Gemini CLI / Qwen Code endpoint on the wire: discovery files, the gate, bad input, and every
 * notification exactly, checked with the official MCP SDK client (Streamable HTTP, as IdeClient uses it)
 * and with raw HTTP where full control of the request is needed.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultEndpoints } from '../../src-main/bridge/endpoints';
import { MAX_FRAME_BYTES } from '../../src-main/loopback/frame-limits';
import { startRuntime } from '../../src-main/runtime';
import { readResponse, type RawResponse } from '../support/http-response';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview, waitForSnapshot, until } from '../support/wait';

const BASE = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'].join('\n') + '\n';
const PROPOSED = ['ONE', 'two', 'three', 'four', 'FIVE', 'six', 'seven', 'eight', 'NINE'].join('\n') + '\n';
const COMPOSED = ['ONE', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'NINE'].join('\n') + '\n';

const GRACE_MS = 200;

let t: TestRuntime;
let file: string;
const clients: McpTestClient[] = [];

beforeEach(async () => {
  t = await startTestRuntime({ mcpStreamGraceMs: GRACE_MS });
  file = path.join(t.workspace, 'notes.txt');
  writeFileSync(file, BASE);
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  await t.close();
});

const port = () => t.runtime.bridge.port;
const token = (protocol: 'gemini-ide' | 'qwen-ide' | 'claude-ide' = 'gemini-ide') =>
  t.runtime.bridge.tokenFor(protocol);
const api = () => t.runtime.handler;

interface Notification {
  method: string;
  params?: Record<string, unknown>;
}

interface McpTestClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  notifications: Notification[];
  /** The first notification with `method` at or after index `from` of `notifications`. */
  next(method: string, from?: number): Promise<Notification>;
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Connects the way IdeClient does; resolves once the event stream is open (the first context arrived). */
async function connectMcp(bearer = token(), version = '0.61.0'): Promise<McpTestClient> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port()}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
  });
  const client = new Client({ name: 'streamable-http-client', version });
  const notifications: Notification[] = [];
  client.fallbackNotificationHandler = async ({ method, params }) => {
    notifications.push({ method, ...(params !== undefined && { params }) } as Notification);
  };
  await client.connect(transport);
  const next = (method: string, from = 0) =>
    until(() => notifications.slice(from).find((n) => n.method === method), method);
  const connected: McpTestClient = {
    client,
    transport,
    notifications,
    next,
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
  clients.push(connected);
  await next('ide/contextUpdate');
  return connected;
}

function texts(result: CallToolResult): string[] {
  return result.content.map((item) => (item.type === 'text' ? item.text : `<${item.type}>`));
}

/** Every notification of `method` so far. */
const all = (c: McpTestClient, method: string) => c.notifications.filter((n) => n.method === method);

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw-client', version: '1.0.0' },
  },
};

/** One request with exactly the headers given (plus Host unless overridden), read to the end. */
function raw(
  method: string,
  headers: Record<string, string>,
  body?: string,
  requestPath = '/mcp',
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port: port(), path: requestPath, method, headers, agent: false },
      (response) => {
        readResponse(response, resolve);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function rawPost(headers: Record<string, string>, message: unknown = INITIALIZE): Promise<RawResponse> {
  return raw(
    'POST',
    { ...JSON_HEADERS, ...headers },
    typeof message === 'string' ? message : JSON.stringify(message),
  );
}

const bearer = (value = token()) => ({ authorization: `Bearer ${value}` });

/** The JSON-RPC messages of an SSE body. */
function sseMessages(body: string): Array<Record<string, unknown>> {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

/** A session opened by hand: initialize and initialized, with no event stream yet. */
async function rawSession(): Promise<Record<string, string>> {
  const init = await rawPost(bearer());
  const session = {
    ...bearer(),
    'mcp-session-id': init.headers['mcp-session-id'] as string,
    'mcp-protocol-version': '2025-06-18',
  };
  expect((await rawPost(session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  return session;
}

interface EventStream {
  status: Promise<number>;
  events: Array<Record<string, unknown>>;
  close(): void;
}

/** The session's GET event stream, its messages collected as they arrive. */
function eventStream(session: Record<string, string>): EventStream {
  const events: Array<Record<string, unknown>> = [];
  let close = () => {};
  const status = new Promise<number>((resolve) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port: port(),
        path: '/mcp',
        headers: { ...session, accept: 'text/event-stream' },
        agent: false,
      },
      (response) => {
        resolve(response.statusCode ?? 0);
        let buffer = '';
        response.on('data', (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          const done = buffer.lastIndexOf('\n\n');
          if (done < 0) return;
          events.push(...sseMessages(buffer.slice(0, done)));
          buffer = buffer.slice(done + 2);
        });
        response.on('error', () => {});
      },
    );
    request.on('error', () => resolve(0));
    close = () => request.destroy();
  });
  return { status, events, close: () => close() };
}

function rawCall(session: Record<string, string>, id: number, name: string, args: Record<string, unknown>) {
  return rawPost(session, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
}

function openDiff(c: McpTestClient, filePath = file, newContent = PROPOSED) {
  return c.callTool('openDiff', { filePath, newContent });
}

function deadPid(): number {
  return spawnSync('true').pid!;
}

describe('discovery files', () => {
  it('Gemini CLI: <tmp>/gemini/ide/gemini-ide-server-<pid>-<port>.json, 0600, with ideInfo', () => {
    const discovery = path.join(t.geminiDiscoveryDir, `gemini-ide-server-${process.pid}-${port()}.json`);
    expect(statSync(discovery).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(discovery, 'utf8'))).toEqual({
      port: port(),
      workspacePath: t.workspace,
      authToken: token('gemini-ide'),
      ideInfo: { name: 'difftray', displayName: 'DiffTray' },
    });
    expect(t.runtime.bridge.discoveryFilePaths()).toContain(discovery);
  });

  it('Qwen Code: ~/.qwen/ide/<port>.lock, 0600 in a 0700 folder, with its own token', () => {
    const lock = path.join(t.qwenLockDir, `${port()}.lock`);
    expect(statSync(lock).mode & 0o777).toBe(0o600);
    expect(statSync(t.qwenLockDir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toEqual({
      port: port(),
      workspacePath: t.workspace,
      authToken: token('qwen-ide'),
      ppid: process.pid,
      ideName: 'DiffTray',
      ideInfo: { name: 'difftray', displayName: 'DiffTray' },
    });
    const tokens = (['claude-ide', 'nexus3-ide', 'gemini-ide', 'qwen-ide'] as const).map((p) =>
      t.runtime.bridge.tokenFor(p),
    );
    expect(new Set(tokens).size).toBe(4);
  });

  it('are removed on close; stale ones go at start, live ones stay; folders are joined by the delimiter', async () => {
    const ours = t.runtime.bridge.discoveryFilePaths();
    expect(ours).toHaveLength(2);
    const staleGemini = path.join(t.geminiDiscoveryDir, `gemini-ide-server-${deadPid()}-1.json`);
    const liveGemini = path.join(t.geminiDiscoveryDir, `gemini-ide-server-${process.ppid}-2.json`);
    const staleQwen = path.join(t.qwenLockDir, '3.lock');
    // Stale files DiffTray wrote (others' files are never removed; see test/unit/lock-files.test.ts).
    const ideInfo = { name: 'difftray', displayName: 'DiffTray' };
    writeFileSync(staleGemini, JSON.stringify({ port: 1, workspacePath: '/x', authToken: 'a', ideInfo }));
    writeFileSync(liveGemini, JSON.stringify({ port: 2, workspacePath: '/x', authToken: 'b' }));
    writeFileSync(
      staleQwen,
      JSON.stringify({ port: 3, workspacePath: '/x', ppid: deadPid(), ideName: 'DiffTray' }),
    );
    const before = ours.map((f) => readFileSync(f, 'utf8'));
    // Gemini's folder is shared with its other companions: its mode is theirs to choose.
    chmodSync(t.geminiDiscoveryDir, 0o755);

    const other = path.join(path.dirname(t.workspace), 'second');
    mkdirSync(other);
    const env = {
      CLAUDE_CONFIG_DIR: path.join(t.home, '.claude'),
      DIFFTRAY_HOME: path.join(t.home, '.difftray'),
    };
    const second = await startRuntime({
      workspaces: [t.workspace, other],
      env,
      endpoints: defaultEndpoints(env, t.home, t.tmpDir),
      log: () => {},
    });
    const secondFiles = second.bridge.discoveryFilePaths();
    try {
      expect(existsSync(staleGemini)).toBe(false);
      expect(existsSync(staleQwen)).toBe(false);
      expect(existsSync(liveGemini)).toBe(true);
      expect(statSync(t.geminiDiscoveryDir).mode & 0o777).toBe(0o755);
      expect(ours.map((f) => readFileSync(f, 'utf8'))).toEqual(before);
      for (const f of secondFiles) {
        expect(JSON.parse(readFileSync(f, 'utf8')).workspacePath).toBe(
          [t.workspace, realpathSync(other)].join(path.delimiter),
        );
      }
    } finally {
      await second.close();
    }
    for (const f of secondFiles) expect(existsSync(f)).toBe(false);
    await t.runtime.close();
    for (const f of ours) expect(existsSync(f)).toBe(false);
  });

  it('will not write through a Gemini discovery folder that is a link; the bridge runs on', async () => {
    const elsewhere = path.join(t.tmpDir, 'elsewhere');
    const tmpDir = path.join(t.tmpDir, 'planted');
    mkdirSync(elsewhere);
    mkdirSync(path.join(tmpDir, 'gemini'), { recursive: true });
    symlinkSync(elsewhere, path.join(tmpDir, 'gemini', 'ide'));
    const env = {
      CLAUDE_CONFIG_DIR: path.join(t.home, '.claude'),
      DIFFTRAY_HOME: path.join(t.home, '.difftray'),
    };
    const logs: string[] = [];
    const other = await startRuntime({
      workspaces: [t.workspace],
      env,
      endpoints: defaultEndpoints(env, t.home, tmpDir),
      log: (message) => logs.push(message),
    });
    try {
      expect(readdirSync(elsewhere)).toEqual([]);
      expect(other.bridge.discoveryFilePaths()).toEqual([
        path.join(t.qwenLockDir, `${other.bridge.port}.lock`),
      ]);
      expect(logs.join('\n')).toMatch(/no discovery file for Gemini CLI: .* is not a folder/);
    } finally {
      await other.close();
    }
  });
});

describe('request bodies', () => {
  /** A POST that announces `declared` bytes (or goes chunked) and sends 1 MB chunks until answered. */
  function bigPost(declared: number | undefined): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...JSON_HEADERS, ...bearer() };
      if (declared !== undefined) headers['content-length'] = String(declared);
      const request = http.request(
        { host: '127.0.0.1', port: port(), path: '/mcp', method: 'POST', headers, agent: false },
        (response) => {
          answered = true;
          readResponse(response, resolve);
        },
      );
      let answered = false;
      // The server may close while the rest is still being written; the answer is what counts.
      request.on('error', (error) => (answered ? undefined : reject(error)));
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (!answered && sent < MAX_FRAME_BYTES + chunk.length) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
      };
      if (declared === undefined) pump();
      else request.flushHeaders();
    });
  }

  it('a Content-Length over MAX_FRAME_BYTES gets 413 and a JSON-RPC error before any byte is read', async () => {
    const answer = await bigPost(MAX_FRAME_BYTES + 1);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect((await rawPost(bearer())).status).toBe(200);
  });

  it('a chunked body that grows over MAX_FRAME_BYTES gets 413; the endpoint lives on', async () => {
    const answer = await bigPost(undefined);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.message).toMatch(/too large/);
    expect((await rawPost(bearer())).status).toBe(200);
  });
});

describe('the gate', () => {
  it('admits the right bearer token, by 127.0.0.1 or localhost', async () => {
    expect((await rawPost(bearer())).status).toBe(200);
    expect((await rawPost({ ...bearer(), host: `localhost:${port()}` })).status).toBe(200);
  });

  it('refuses a request without a token, a wrong token, another protocol’s token, another scheme (401)', async () => {
    expect((await rawPost({})).status).toBe(401);
    expect((await rawPost(bearer('not-the-token'))).status).toBe(401);
    expect((await rawPost(bearer(token('claude-ide')))).status).toBe(401);
    expect((await rawPost({ authorization: `Basic ${token()}` })).status).toBe(401);
    expect((await rawPost({ authorization: token() })).status).toBe(401);
  });

  it('refuses any Origin header, even with the right token (403)', async () => {
    expect((await rawPost({ ...bearer(), origin: 'https://evil.example' })).status).toBe(403);
    expect((await rawPost({ ...bearer(), origin: 'null' })).status).toBe(403);
    expect((await rawPost({ ...bearer(), origin: `http://127.0.0.1:${port()}` })).status).toBe(403);
  });

  it('refuses a foreign Host header (DNS rebinding), even with the right token (403)', async () => {
    expect((await rawPost({ ...bearer(), host: `evil.example:${port()}` })).status).toBe(403);
    expect((await rawPost({ ...bearer(), host: '127.0.0.1:1' })).status).toBe(403);
  });

  it('creates no client for refused requests; other paths are not found', async () => {
    await rawPost({});
    await rawPost({ ...bearer(), origin: 'https://evil.example' });
    expect(t.runtime.core.snapshot().clients).toEqual([]);
    expect((await raw('GET', bearer(), undefined, '/')).status).toBe(404);
    expect((await raw('POST', { ...JSON_HEADERS, ...bearer() }, '{}', '/mcp/x')).status).toBe(404);
  });

  it('keeps the tokens apart: the Gemini token opens no WebSocket', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port()}`, 'mcp', {
        headers: { authorization: `Bearer ${token()}` },
      });
      socket.once('open', () => resolve(101));
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('error', reject);
    });
    expect(status).toBe(401);
  });
});

describe('bad input', () => {
  it('malformed JSON gets a JSON-RPC parse error, and the server lives on', async () => {
    const response = await rawPost(bearer(), '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the body is not valid JSON' },
      id: null,
    });
    const notRpc = await rawPost(bearer(), { hello: 'world' });
    expect(notRpc.status).toBe(400);
    const c = await connectMcp();
    expect((await c.client.listTools()).tools).toHaveLength(2);
  });

  it('requests without a live session of the same endpoint are refused', async () => {
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect((await rawPost(bearer(), list)).status).toBe(400);
    expect((await rawPost({ ...bearer(), 'mcp-session-id': 'no-such-session' }, list)).status).toBe(404);
    expect((await raw('GET', { ...bearer(), accept: 'text/event-stream' })).status).toBe(400);
    expect((await raw('PUT', bearer(), '{}')).status).toBe(405);

    const c = await connectMcp();
    const sessionId = c.transport.sessionId!;
    const withQwenToken = await rawPost({ ...bearer(token('qwen-ide')), 'mcp-session-id': sessionId }, list);
    expect(withQwenToken.status).toBe(404);
    const withGeminiToken = await rawPost(
      { ...bearer(), 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      list,
    );
    expect(withGeminiToken.status).toBe(200);
  });

  it('invalid tool arguments and paths outside the workspace are tool errors; no review is made', async () => {
    const c = await connectMcp();
    expect((await c.callTool('openDiff', { filePath: file })).isError).toBe(true);
    const outside = await openDiff(c, path.join(path.dirname(t.workspace), 'outside.txt'));
    expect(outside.isError).toBe(true);
    expect(texts(outside)[0]).toMatch(/outside the workspace/);
    expect((await openDiff(c, 'notes.txt')).isError).toBe(true);
    expect(t.runtime.core.snapshot().reviews).toEqual([]);
  });
});

describe('the protocol', () => {
  it('offers exactly openDiff and closeDiff, and records the client', async () => {
    const c = await connectMcp();
    const { tools } = await c.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['closeDiff', 'openDiff']);
    expect(c.client.getServerVersion()?.name).toBe('DiffTray');
    const client = await waitForSnapshot(t.runtime.core, (s) => s.clients.find((x) => x.version));
    expect(client).toMatchObject({ name: 'Gemini CLI', protocol: 'gemini-ide', version: '0.61.0' });
  });

  it("shows no version for Qwen Code's 1.0.0, which it reports whatever its own version", async () => {
    await connectMcp(t.runtime.bridge.tokenFor('qwen-ide'), '1.0.0');
    const qwen = await waitForSnapshot(t.runtime.core, (s) =>
      s.clients.find((x) => x.protocol === 'qwen-ide'),
    );
    expect(qwen).toMatchObject({ name: 'Qwen Code', connected: true });
    expect(qwen.version).toBeUndefined();
    // Gemini CLI's 1.0.0 would be its own: shown.
    await connectMcp(token(), '1.0.0');
    const gemini = await waitForSnapshot(t.runtime.core, (s) =>
      s.clients.find((x) => x.protocol === 'gemini-ide' && x.version === '1.0.0'),
    );
    expect(gemini.name).toBe('Gemini CLI');
  });

  it('openDiff answers at once; the context lists the open review; accepting sends ide/diffAccepted with the composed text', async () => {
    const c = await connectMcp();
    expect(c.notifications[0]).toEqual({
      method: 'ide/contextUpdate',
      params: { workspaceState: { openFiles: [], isTrusted: true } },
    });
    expect(await openDiff(c)).toEqual({ content: [] });
    const review = await waitForReview(t.runtime.core);
    const context = await c.next('ide/contextUpdate', 1);
    expect(context.params).toEqual({
      workspaceState: { openFiles: [{ path: file, timestamp: review.createdAt }], isTrusted: true },
    });

    const from = c.notifications.length;
    await api()('decideHunks', {
      reviewId: review.id,
      fileIndex: 0,
      hunkIndexes: [0, 2],
      decision: 'accepted',
    });
    await api()('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' });
    await api()('submit', { reviewId: review.id });

    expect(await c.next('ide/diffAccepted', from)).toEqual({
      method: 'ide/diffAccepted',
      params: { filePath: file, content: COMPOSED },
    });
    expect((await c.next('ide/contextUpdate', from)).params).toEqual({
      workspaceState: { openFiles: [], isTrusted: true },
    });
    expect(all(c, 'ide/diffAccepted')).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe(BASE);
  });

  it('a reject, and a submit that keeps nothing, send ide/diffRejected with the file path only', async () => {
    const c = await connectMcp();
    await openDiff(c);
    const first = await waitForReview(t.runtime.core);
    await api()('reject', { reviewId: first.id, reason: 'no' });
    expect(await c.next('ide/diffRejected')).toEqual({
      method: 'ide/diffRejected',
      params: { filePath: file },
    });

    const from = c.notifications.length;
    await openDiff(c);
    const second = await waitForReview(t.runtime.core, (r) => r.state === 'pending');
    await api()('decideAll', { reviewId: second.id, decision: 'rejected' });
    await api()('submit', { reviewId: second.id });
    expect(await c.next('ide/diffRejected', from)).toEqual({
      method: 'ide/diffRejected',
      params: { filePath: file },
    });
    expect(all(c, 'ide/diffAccepted')).toEqual([]);
  });

  it('closeDiff returns the proposal as edited, cancels the review and sends ide/diffClosed', async () => {
    const c = await connectMcp();
    await openDiff(c);
    const review = await waitForReview(t.runtime.core);
    const edited = PROPOSED.replace('NINE', 'Nine');
    await api()('editProposal', { reviewId: review.id, fileIndex: 0, proposedText: edited });

    const result = await c.callTool('closeDiff', { filePath: file });
    expect(texts(result)).toEqual([JSON.stringify({ content: edited })]);
    expect(await c.next('ide/diffClosed')).toEqual({
      method: 'ide/diffClosed',
      params: { filePath: file, content: edited },
    });
    expect(t.runtime.core.queue.summary(review.id)).toMatchObject({
      state: 'cancelled',
      reason: 'closed by the client',
    });
    expect(all(c, 'ide/diffRejected')).toEqual([]);
  });

  it('closeDiff with suppressNotification sends nothing; with nothing open it answers null', async () => {
    const c = await connectMcp();
    await openDiff(c);
    const review = await waitForReview(t.runtime.core);
    await c.next('ide/contextUpdate', 1);
    const from = c.notifications.length;
    const result = await c.callTool('closeDiff', { filePath: file, suppressNotification: true });
    expect(texts(result)).toEqual([JSON.stringify({ content: PROPOSED })]);
    expect(t.runtime.core.queue.summary(review.id).state).toBe('cancelled');
    // Notifications arrive in order: the context that follows the cancel comes after any diffClosed.
    const context = await c.next('ide/contextUpdate', from);
    expect(context.params).toEqual({ workspaceState: { openFiles: [], isTrusted: true } });
    expect(c.notifications.slice(from).map((n) => n.method)).toEqual(['ide/contextUpdate']);

    const nothing = await c.callTool('closeDiff', { filePath: path.join(t.workspace, 'other.txt') });
    expect(texts(nothing)).toEqual(['{"content":null}']);
    expect(texts(await c.callTool('closeDiff', { filePath: 'relative.txt' }))).toEqual(['{"content":null}']);
  });

  it('notifications carry the path string the client sent; reviews match by real path', async () => {
    const c = await connectMcp();
    const spelled = `${t.workspace}/sub/../notes.txt`;
    await openDiff(c, spelled);
    const review = await waitForReview(t.runtime.core);
    expect(review.files[0]?.path).toBe(file);
    await api()('submit', { reviewId: review.id });
    expect((await c.next('ide/diffAccepted')).params).toEqual({ filePath: spelled, content: PROPOSED });
  });

  it('a second openDiff for the same file supersedes the first without answering for it', async () => {
    const c = await connectMcp();
    await openDiff(c);
    const first = await waitForReview(t.runtime.core);
    const second = BASE.replace('two', 'TWO');
    await openDiff(c, file, second);
    const next = await waitForReview(t.runtime.core, (r) => r.state === 'pending');
    expect(t.runtime.core.queue.summary(first.id).state).toBe('superseded');
    await api()('submit', { reviewId: next.id });
    expect((await c.next('ide/diffAccepted')).params).toEqual({ filePath: file, content: second });
    expect(all(c, 'ide/diffAccepted')).toHaveLength(1);
    expect(all(c, 'ide/diffRejected')).toEqual([]);
  });

  it('the context lists every open review’s file, newest first', async () => {
    const c = await connectMcp();
    const other = path.join(t.workspace, 'other.txt');
    await openDiff(c);
    const first = await waitForReview(t.runtime.core);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await openDiff(c, other, 'new file\n');
    const second = await waitForReview(t.runtime.core, (r) => r.id !== first.id);
    const context = await until(() => {
      const last = all(c, 'ide/contextUpdate').at(-1);
      const files = (last?.params as { workspaceState: { openFiles: unknown[] } }).workspaceState.openFiles;
      return files.length === 2 ? last : undefined;
    }, 'two open files');
    expect(context.params).toEqual({
      workspaceState: {
        openFiles: [
          { path: other, timestamp: second.createdAt },
          { path: file, timestamp: first.createdAt },
        ],
        isTrusted: true,
      },
    });
  });

  it('Qwen Code connects with its own token and is told apart', async () => {
    const c = await connectMcp(token('qwen-ide'));
    await openDiff(c);
    const review = await waitForReview(t.runtime.core);
    expect(review.client).toMatchObject({ name: 'Qwen Code', protocol: 'qwen-ide' });
    await api()('submit', { reviewId: review.id });
    expect((await c.next('ide/diffAccepted')).params).toEqual({ filePath: file, content: PROPOSED });
  });

  it('a decision made while the event stream is closed is delivered when it opens', async () => {
    const session = await rawSession();
    const call = await rawCall(session, 2, 'openDiff', { filePath: file, newContent: PROPOSED });
    expect(sseMessages(call.body)).toEqual([{ jsonrpc: '2.0', id: 2, result: { content: [] } }]);
    const review = await waitForReview(t.runtime.core);
    await api()('submit', { reviewId: review.id });

    const stream = eventStream(session);
    expect(await stream.status).toBe(200);
    await until(() => (stream.events.length >= 2 ? true : undefined), 'the queued notifications');
    stream.close();
    expect(stream.events).toEqual([
      { jsonrpc: '2.0', method: 'ide/diffAccepted', params: { filePath: file, content: PROPOSED } },
      {
        jsonrpc: '2.0',
        method: 'ide/contextUpdate',
        params: { workspaceState: { openFiles: [], isTrusted: true } },
      },
    ]);
  });
});

describe('when the client goes', () => {
  it('a CLI that exits (its event stream closes and stays closed) leaves its reviews cancelled, visible', async () => {
    const c = await connectMcp();
    await openDiff(c);
    const review = await waitForReview(t.runtime.core);
    // What process exit looks like: the connections drop, no DELETE is sent.
    await c.transport.close();
    const ended = await waitForReview(t.runtime.core, (r) => r.id === review.id && r.state === 'cancelled');
    expect(ended.reason).toBe('client disconnected');
    expect(ended.client.connected).toBe(false);
    expect(t.runtime.core.snapshot().clients).toEqual([]);
  });

  it('a DELETE ends the session at once', async () => {
    const c = await connectMcp();
    await openDiff(c);
    const review = await waitForReview(t.runtime.core);
    await c.transport.terminateSession();
    expect(t.runtime.core.queue.summary(review.id)).toMatchObject({
      state: 'cancelled',
      reason: 'client disconnected',
    });
    expect(t.runtime.core.snapshot().clients).toEqual([]);
  });

  it('the person’s Disconnect ends the session; the client’s next request finds no session', async () => {
    const c = await connectMcp();
    const client = await waitForSnapshot(t.runtime.core, (s) => s.clients[0]);
    await api()('disconnectClient', { clientId: client.id });
    await waitForSnapshot(t.runtime.core, (s) => (s.clients.length === 0 ? true : undefined));
    const list = { jsonrpc: '2.0', id: 9, method: 'tools/list' };
    const after = await rawPost({ ...bearer(), 'mcp-session-id': c.transport.sessionId! }, list);
    expect(after.status).toBe(404);
  });

  it('a brief drop of the event stream is not a disconnect; one stream at a time', async () => {
    const session = await rawSession();
    const first = eventStream(session);
    expect(await first.status).toBe(200);
    await rawCall(session, 2, 'openDiff', { filePath: file, newContent: PROPOSED });
    const review = await waitForReview(t.runtime.core);
    const second = eventStream(session);
    expect(await second.status).toBe(409);

    // The stream drops and comes back within the grace period, as the SDK client reconnects it.
    first.close();
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS / 4));
    const again = eventStream(session);
    expect(await again.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS * 2));
    expect(t.runtime.core.queue.summary(review.id).state).toBe('pending');
    expect(t.runtime.core.snapshot().clients).toHaveLength(1);

    await api()('reject', { reviewId: review.id });
    await until(
      () => (again.events.some((e) => e.method === 'ide/diffRejected') ? true : undefined),
      'the rejection on the new stream',
    );
    again.close();
  });
});
