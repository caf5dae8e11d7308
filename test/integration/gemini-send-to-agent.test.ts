/**
 * "Send to agent" over the Gemini CLI / Qwen Code protocol on the wire, with the official MCP SDK client
 * (Streamable HTTP, as IdeClient uses it) and raw HTTP for a client that never opens its event stream:
 * the lines arrive in `ide/contextUpdate` as the active file's selection, only to the review's client,
 * and only while it listens. (gemini-ide.test.ts checks the same with Gemini's own IdeClient.)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NUMBERS } from '../support/fixtures';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until, waitForReview } from '../support/wait';

let t: TestRuntime;
let file: string;
const clients: Client[] = [];

beforeEach(async () => {
  // Long enough that a session without its event stream outlives the test.
  t = await startTestRuntime({ mcpStreamGraceMs: 60_000 });
  file = path.join(t.workspace, 'notes.txt');
  writeFileSync(file, NUMBERS.base);
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  await t.close();
});

const api = () => t.runtime.handler;
const url = () => new URL(`http://127.0.0.1:${t.runtime.bridge.port}/mcp`);
const bearer = (protocol: 'gemini-ide' | 'qwen-ide') => ({
  authorization: `Bearer ${t.runtime.bridge.tokenFor(protocol)}`,
});

interface Notification {
  method: string;
  params?: Record<string, unknown>;
}

interface Connected {
  client: Client;
  notifications: Notification[];
}

/** Connects as the CLI does; resolves once its event stream is open (the first context arrived). */
async function connect(protocol: 'gemini-ide' | 'qwen-ide'): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(url(), { requestInit: { headers: bearer(protocol) } });
  const client = new Client({ name: protocol, version: '1.0.0' });
  const notifications: Notification[] = [];
  client.fallbackNotificationHandler = async ({ method, params }) => {
    notifications.push({ method, ...(params !== undefined && { params }) });
  };
  clients.push(client);
  await client.connect(transport);
  await until(() => (notifications.length > 0 ? true : undefined), 'the first context');
  return { client, notifications };
}

/** The last context the client received. */
const lastContext = (c: Connected) => c.notifications.filter((n) => n.method === 'ide/contextUpdate').at(-1)!;

const openFilesOf = (n: Notification) =>
  (n.params as { workspaceState: { openFiles: Array<Record<string, unknown>> } }).workspaceState.openFiles;

const selectionOn = (reviewId: string, startLine: number, endLine: number) =>
  api()('sendSelection', { reviewId, fileIndex: 0, side: 'proposed', startLine, endLine });

describe('Send to agent over the Gemini CLI / Qwen Code protocol', () => {
  for (const protocol of ['gemini-ide', 'qwen-ide'] as const) {
    it(`${protocol}: the lines become the active file of ide/contextUpdate, cursor line 1-based`, async () => {
      const c = await connect(protocol);
      await c.client.callTool({
        name: 'openDiff',
        arguments: { filePath: file, newContent: NUMBERS.proposed },
      });
      const review = await waitForReview(t.runtime.core);
      await until(() => (openFilesOf(lastContext(c)).length === 1 ? true : undefined), 'the review open');
      const from = c.notifications.length;

      await selectionOn(review.id, 3, 4);

      const sent = await until(() => c.notifications[from], 'the selection');
      expect(sent.method).toBe('ide/contextUpdate');
      expect(sent.params).toEqual({
        workspaceState: {
          openFiles: [
            {
              path: file,
              timestamp: expect.any(Number) as number,
              isActive: true,
              selectedText: 'four\nFIVE',
              // Where the selection ends: line 5 counted from 1, after its 4 characters.
              cursor: { line: 5, character: 4 },
            },
          ],
          isTrusted: true,
        },
      });
      expect(openFilesOf(sent)[0]!.timestamp).toBeGreaterThanOrEqual(review.createdAt);
    });
  }

  it('the selection stays in the contexts that follow, inactive while a newer review is open', async () => {
    const c = await connect('gemini-ide');
    await c.client.callTool({
      name: 'openDiff',
      arguments: { filePath: file, newContent: NUMBERS.proposed },
    });
    const review = await waitForReview(t.runtime.core);
    await selectionOn(review.id, 0, 0);
    const other = path.join(t.workspace, 'other.txt');
    writeFileSync(other, 'a\n');

    await c.client.callTool({ name: 'openDiff', arguments: { filePath: other, newContent: 'b\n' } });

    const context = await until(() => {
      const last = lastContext(c);
      return openFilesOf(last).length === 2 ? last : undefined;
    }, 'both files open');
    // The newer review comes first, as a file opened after the selection would: nothing is active.
    expect(openFilesOf(context).map((f) => [f.path, f.isActive, f.selectedText])).toEqual([
      [other, undefined, undefined],
      [file, undefined, undefined],
    ]);
    await api()('reject', {
      reviewId: (await waitForReview(t.runtime.core, (r) => r.title === 'other.txt')).id,
    });
    const after = await until(() => {
      const last = lastContext(c);
      return openFilesOf(last).length === 1 ? last : undefined;
    }, 'one file open');
    // As an editor's earlier tab when the newer one closes: active again, with its selection.
    expect(openFilesOf(after)).toEqual([
      {
        path: file,
        timestamp: expect.any(Number) as number,
        isActive: true,
        selectedText: 'ONE',
        cursor: { line: 1, character: 3 },
      },
    ]);
  });

  it('lines of a review reach only the client that asked for it, not another connected one', async () => {
    const owner = await connect('gemini-ide');
    const other = await connect('gemini-ide');
    await owner.client.callTool({
      name: 'openDiff',
      arguments: { filePath: file, newContent: NUMBERS.proposed },
    });
    const review = await waitForReview(t.runtime.core);

    await until(() => (openFilesOf(lastContext(other)).length === 1 ? true : undefined), 'the review open');

    await selectionOn(review.id, 0, 8);
    await until(
      () => (owner.notifications.some((n) => openFilesOf(n)[0]?.selectedText) ? true : undefined),
      'the selection',
    );
    // A later context, on the same stream: anything sent to `other` before it has arrived by then.
    await api()('reject', { reviewId: review.id });
    await until(() => {
      const contexts = other.notifications.filter((n) => n.method === 'ide/contextUpdate');
      const opened = contexts.findIndex((n) => openFilesOf(n).length > 0);
      return opened < 0 ? undefined : contexts.slice(opened).find((n) => openFilesOf(n).length === 0);
    }, 'the review gone from the context of the other client');

    const leaked = other.notifications.filter((n) => JSON.stringify(n).includes('selectedText'));
    expect(leaked).toEqual([]);
    // The owner's context keeps its selection (the same context: nothing new was sent).
    expect(openFilesOf(lastContext(owner))[0]).toMatchObject({
      path: file,
      selectedText: NUMBERS.proposed.trimEnd(),
    });
  });

  it('a client that is not listening (no event stream open) gets a clear refusal', async () => {
    const headers = {
      ...bearer('gemini-ide'),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const post = (extra: Record<string, string>, message: unknown) =>
      fetch(url(), { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(message) });
    const init = await post(
      {},
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      },
    );
    await init.text();
    const session = {
      'mcp-session-id': init.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-06-18',
    };
    await (await post(session, { jsonrpc: '2.0', method: 'notifications/initialized' })).text();
    const call = { name: 'openDiff', arguments: { filePath: file, newContent: NUMBERS.proposed } };
    await (await post(session, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: call })).text();
    const review = await waitForReview(t.runtime.core);

    await expect(selectionOn(review.id, 0, 0)).rejects.toThrow(
      'Gemini CLI is not listening for context right now',
    );
  });
});
