/**
 * Finding 8 (issue 7): Gemini CLI / Qwen Code sessions that never open their event stream, or lose it,
 * end after the grace time: their pending reviews are cancelled and the session is gone. Live sessions
 * are capped. Checked with the official MCP SDK client and with raw HTTP that initialises and never GETs.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_GEMINI_SESSIONS } from '../../src-main/bridge/gemini-ide/session';
import { readResponse, type RawResponse } from '../support/http-response';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview, waitForSnapshot, until } from '../support/wait';

/**
 * Long enough for a streaming client to open its stream on two busy cores (at 200 ms, a loaded CI
 * machine ended the streaming client too), short enough to keep the silent ones' wait brief.
 */
const GRACE_MS = 1500;

let t: TestRuntime | undefined;
const closers: Array<() => unknown> = [];

async function start(mcpStreamGraceMs: number): Promise<TestRuntime> {
  t = await startTestRuntime({ mcpStreamGraceMs });
  return t;
}

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await t?.close();
  t = undefined;
});

const rt = () => t!;
const bearer = () => ({ authorization: `Bearer ${rt().runtime.bridge.tokenFor('gemini-ide')}` });
const workspaceFile = (name: string) => {
  const file = path.join(rt().workspace, name);
  writeFileSync(file, 'one\ntwo\n');
  return file;
};

function rawPost(headers: Record<string, string>, message: unknown, method = 'POST'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: rt().runtime.bridge.port,
        path: '/mcp',
        method,
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        readResponse(response, resolve);
      },
    );
    request.on('error', reject);
    request.end(message === undefined ? undefined : JSON.stringify(message));
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** Initialise and say initialised, as a client does, and never open the event stream. */
async function rawSessionWithoutStream(): Promise<{ status: number; headers: Record<string, string> }> {
  const init = await rawPost(bearer(), INITIALIZE);
  if (init.status !== 200) return { status: init.status, headers: {} };
  const headers = {
    ...bearer(),
    'mcp-session-id': init.headers['mcp-session-id'] as string,
    'mcp-protocol-version': '2025-06-18',
  };
  expect((await rawPost(headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  return { status: 200, headers };
}

/** The official SDK client; `stream: false` makes its GET come back 405, so it never opens a stream. */
async function sdkClient({ stream }: { stream: boolean }): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(
    new URL(`http://127.0.0.1:${rt().runtime.bridge.port}/mcp`),
    {
      requestInit: { headers: bearer() },
      fetch: (url, init) =>
        !stream && init?.method === 'GET'
          ? Promise.resolve(new Response(null, { status: 405 }))
          : fetch(url, init),
    },
  );
  const client = new Client({ name: 'gemini-cli', version: '0.61.0' });
  await client.connect(transport);
  closers.push(() => client.close());
  return client;
}

const liveGeminiClients = () =>
  rt()
    .runtime.core.clients.list()
    .filter((c) => c.protocol === 'gemini-ide').length;

describe('sessions without an event stream', () => {
  it('raw HTTP that initialises and never GETs: the session ends, its review is cancelled, its id is gone', async () => {
    await start(GRACE_MS);
    const file = workspaceFile('raw.txt');
    const session = await rawSessionWithoutStream();
    const call = await rawPost(session.headers, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'openDiff', arguments: { filePath: file, newContent: 'ONE\ntwo\n' } },
    });
    expect(call.status).toBe(200);
    const review = await waitForReview(rt().runtime.core);
    const ended = await waitForReview(rt().runtime.core, (r) => r.id === review.id && r.state !== 'pending');
    expect(ended).toMatchObject({ state: 'cancelled', reason: 'client disconnected' });
    await until(() => (liveGeminiClients() === 0 ? true : undefined), 'the client to be gone');
    const after = await rawPost(session.headers, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect(after.status).toBe(404);
  });

  it('the SDK client: without a stream it ends; with its stream open it stays', async () => {
    await start(GRACE_MS);
    // The streaming client connects first: were it on the same clock, it would end first.
    const streaming = await sdkClient({ stream: true });
    await streaming.callTool({
      name: 'openDiff',
      arguments: { filePath: workspaceFile('kept.txt'), newContent: 'KEPT\n' },
    });
    const silent = await sdkClient({ stream: false });
    await silent.callTool({
      name: 'openDiff',
      arguments: { filePath: workspaceFile('dropped.txt'), newContent: 'DROPPED\n' },
    });
    const dropped = await waitForReview(
      rt().runtime.core,
      (r) => r.title === 'dropped.txt' && r.state === 'cancelled',
    );
    expect(dropped.reason).toBe('client disconnected');
    const kept = rt()
      .runtime.core.snapshot()
      .reviews.find((r) => r.title === 'kept.txt')!;
    expect(kept.state).toBe('pending');
    expect(liveGeminiClients()).toBe(1);
    expect((await streaming.listTools()).tools.map((tool) => tool.name)).toContain('openDiff');
  });

  it('a session whose stream is lost ends too', async () => {
    await start(GRACE_MS);
    const client = await sdkClient({ stream: true });
    await client.callTool({
      name: 'openDiff',
      arguments: { filePath: workspaceFile('lost.txt'), newContent: 'X\n' },
    });
    const review = await waitForReview(rt().runtime.core);
    // What a killed CLI does: its connections drop, no DELETE.
    await client.close();
    const ended = await waitForReview(rt().runtime.core, (r) => r.id === review.id && r.state !== 'pending');
    expect(ended.state).toBe('cancelled');
  });

  it('hundreds of them leave nothing behind, and a real client still connects', async () => {
    await start(GRACE_MS);
    const statuses = new Set<number>();
    for (let i = 0; i < 300; i++) statuses.add((await rawSessionWithoutStream()).status);
    // 503 when the cap is reached before the earliest ones have ended.
    expect([...statuses].every((status) => status === 200 || status === 503)).toBe(true);
    await until(() => (liveGeminiClients() === 0 ? true : undefined), 'every session to end');
    const client = await sdkClient({ stream: true });
    await waitForSnapshot(rt().runtime.core, (s) => (s.clients.length === 1 ? true : undefined));
    expect((await client.listTools()).tools.length).toBe(2);
  });
});

describe('the number of live sessions', () => {
  it(`is capped at ${MAX_GEMINI_SESSIONS}: one more initialize gets 503, and room comes back when one ends`, async () => {
    await start(60_000);
    const sessions: Array<Record<string, string>> = [];
    for (let i = 0; i < MAX_GEMINI_SESSIONS; i++) {
      const session = await rawSessionWithoutStream();
      expect(session.status).toBe(200);
      sessions.push(session.headers);
    }
    const refused = await rawPost(bearer(), INITIALIZE);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { message: expect.stringMatching(/Too many sessions/) },
    });

    expect((await rawPost(sessions[0]!, undefined, 'DELETE')).status).toBe(200);
    expect((await rawPost(bearer(), INITIALIZE)).status).toBe(200);
  });
});
