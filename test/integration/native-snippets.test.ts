/**
 * "Send to agent" over the native protocol, end to end below the UI: a bare WebSocket client against
 * the real runtime's native endpoint proposes a change set; lines of it sent through the app API (as the
 * renderer sends them) arrive as a `push_snippet` (seed 003 §3.3.1, 1-based lines) on that client's
 * connection only. A session between connections is not sent them: the person is told why.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until } from '../support/wait';

let t: TestRuntime;
let clients: RawNative[];

beforeEach(async () => {
  t = await startTestRuntime();
  clients = [];
});

afterEach(async () => {
  for (const client of clients) client.close();
  await t.close();
});

const api = (method: string, params: Record<string, unknown>) => t.runtime.handler(method, params);
const ws = (name: string) => path.join(t.workspace, name);

/** A connection that said hello (resuming `session_id` when given); answers it and its session id. */
async function hello(
  payload: Record<string, unknown> = {},
): Promise<{ client: RawNative; sessionId: string }> {
  const { native } = t.runtime;
  const client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
  clients.push(client);
  const answer = await client.request('hello', { client_name: 'test-agent', ...payload });
  expect(answer.type, JSON.stringify(answer.payload)).toBe('response');
  return { client, sessionId: answer.payload.session_id as string };
}

const BASE = 'def one():\n    return 1\n\ndef two():\n    return 2\n';
const PROPOSED = 'def one():\n    return 1\n\ndef two():\n    return 22\n';

async function propose(client: RawNative, name = 'calc.py'): Promise<string> {
  writeFileSync(ws(name), BASE);
  const answer = await client.request('propose_change_set', {
    title: 'two returns 22',
    files: [{ path: ws(name), before: BASE, after: PROPOSED }],
  });
  expect(answer.type, JSON.stringify(answer.payload)).toBe('response');
  return answer.payload.review_id as string;
}

const send = (reviewId: string, side: 'base' | 'proposed', startLine: number, endLine: number) =>
  api('sendSelection', { reviewId, fileIndex: 0, side, startLine, endLine });

describe('native: Send to agent', () => {
  it('pushes push_snippet to the review’s client: the lines, 1-based, with seed 003’s metadata', async () => {
    const { client } = await hello();
    const id = await propose(client);

    await send(id, 'proposed', 3, 4);
    const push = await client.nextPush();
    expect(push).toMatchObject({ protocol_version: '1.0', type: 'push', command: 'push_snippet' });
    const fileUrl = pathToFileURL(ws('calc.py')).href;
    expect(push.payload).toEqual({
      snippet: 'def two():\n    return 22',
      language: 'python',
      filePath: ws('calc.py'),
      startLine: 4,
      endLine: 5,
      side: 'proposed',
      metadata: {
        unique_block_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        content_source_id: `${fileUrl}::snippet::4-5::proposed`,
        type: 'code_snippet',
        label: 'calc.py (4-5, proposed)',
        workspaceFolderUri: pathToFileURL(t.workspace).href,
        workspaceFolderName: path.basename(t.workspace),
      },
    });

    await send(id, 'base', 4, 4);
    const base = (await client.nextPush()).payload;
    expect(base).toMatchObject({
      snippet: '    return 2',
      startLine: 5,
      endLine: 5,
      side: 'base',
      metadata: { content_source_id: `${fileUrl}::snippet::5-5`, label: 'calc.py (5-5)' },
    });
    expect((base.metadata as { unique_block_id: string }).unique_block_id).not.toBe(
      (push.payload.metadata as { unique_block_id: string }).unique_block_id,
    );
  });

  it('a selection never reaches another client’s connection', async () => {
    const { client: mine } = await hello({ client_name: 'mine' });
    const { client: other } = await hello({ client_name: 'other' });
    const myReview = await propose(mine, 'mine.py');
    const otherReview = await propose(other, 'other.py');

    await send(myReview, 'base', 0, 0);
    expect((await mine.nextPush()).payload).toMatchObject({ filePath: ws('mine.py'), snippet: 'def one():' });
    await send(otherReview, 'base', 1, 1);
    expect((await other.nextPush()).payload).toMatchObject({ filePath: ws('other.py') });
    // Each got its own, and nothing more.
    await mine.expectNoPush();
    await other.expectNoPush();
  });

  it('goes to the connection the session resumed on', async () => {
    const { client: first, sessionId } = await hello();
    const id = await propose(first);
    const { client: second } = await hello({ session_id: sessionId });

    await send(id, 'proposed', 0, 0);
    expect((await second.nextPush()).payload).toMatchObject({ snippet: 'def one():' });
    await first.closed;
  });

  it('a session between connections is refused, saying why; nothing waits for its next hello', async () => {
    const { client, sessionId } = await hello();
    const id = await propose(client);
    client.close();
    await until(
      () => t.runtime.core.clients.list().find((entry) => entry.status?.text.includes('connection lost')),
      'the session waiting for its client to reconnect',
    );

    await expect(send(id, 'proposed', 0, 0)).rejects.toThrow(/test-agent is between connections/);

    const { client: back } = await hello({ session_id: sessionId });
    await send(id, 'base', 1, 1);
    expect((await back.nextPush()).payload).toMatchObject({ snippet: '    return 1' });
    await back.expectNoPush();
  });

  it('Claude Code’s hooks (one edit per connection) take no lines: refused, saying so', async () => {
    const { client } = await hello({ client_name: 'Claude Code', integration: 'claude-code-hooks' });
    const id = await propose(client);
    await expect(send(id, 'proposed', 0, 0)).rejects.toThrow(/Claude Code has no way to receive lines/);
    await client.expectNoPush();
  });
});
