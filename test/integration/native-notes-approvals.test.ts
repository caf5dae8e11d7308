/**
 * What issue 9 adds to the native protocol, end to end below the UI: a bare WebSocket client against the
 * real runtime's native endpoint, decisions made through the app API as the renderer makes them.
 * - the person's note travels with accept (`note`) and reject (`reason`);
 * - `writer: 'client'`: DiffTray writes nothing and hands back the composed text;
 * - `request_approval` puts an approval card in the queue, answered by `approval_result`;
 * - a hello as Claude Code's hooks shows that program in Connections, and `one_shot` ends its reviews
 *   the moment its connection goes;
 * - a paused client's proposals are refused with 4005 and never queued.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientPauseKey } from '../../shared/app-api';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until, waitForReview } from '../support/wait';

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

async function hello(payload: Record<string, unknown> = {}): Promise<RawNative> {
  const { native } = t.runtime;
  const client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
  clients.push(client);
  const answer = await client.request('hello', { client_name: 'test-agent', ...payload });
  expect(answer.type).toBe('response');
  return client;
}

const BASE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';
const PROPOSED = 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\n';

async function propose(client: RawNative, extra: Record<string, unknown> = {}) {
  writeFileSync(ws('a.txt'), BASE);
  const answer = await client.request('propose_change_set', {
    title: 'two hunks',
    files: [{ path: ws('a.txt'), before: BASE, after: PROPOSED }],
    ...extra,
  });
  expect(answer.type, JSON.stringify(answer.payload)).toBe('response');
  return answer.payload.review_id as string;
}

describe('a note to the agent', () => {
  it('travels with a partial accept as the result’s note, and is kept in History', async () => {
    const client = await hello();
    const id = await propose(client);
    await api('decideHunks', { reviewId: id, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' });
    await api('submit', { reviewId: id, note: 'keep eight lowercase, it is a key' });
    const push = await client.nextPush();
    expect(push.command).toBe('change_set_result');
    expect(push.payload).toMatchObject({
      status: 'partially_accepted',
      note: 'keep eight lowercase, it is a key',
    });
    expect(readFileSync(ws('a.txt'), 'utf8')).toBe('ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n');
    expect(t.runtime.core.queue.find(id)?.agentNote).toBe('keep eight lowercase, it is a key');
  });

  it('is the reason of a reject, and of a submit that keeps nothing', async () => {
    const client = await hello();
    const first = await propose(client);
    await api('reject', { reviewId: first, reason: 'wrong file' });
    expect((await client.nextPush()).payload).toMatchObject({ status: 'rejected', reason: 'wrong file' });

    const second = await propose(client);
    await api('decideAll', { reviewId: second, decision: 'rejected' });
    await api('submit', { reviewId: second, note: 'not now' });
    expect((await client.nextPush()).payload).toMatchObject({ status: 'rejected', reason: 'not now' });
    expect(readFileSync(ws('a.txt'), 'utf8')).toBe(BASE);
  });
});

describe("writer: 'client'", () => {
  it('writes nothing and hands back exactly the composed text', async () => {
    const client = await hello();
    const id = await propose(client, { writer: 'client' });
    await api('decideHunks', { reviewId: id, fileIndex: 0, hunkIndexes: [0], decision: 'rejected' });
    await api('submit', { reviewId: id });
    const push = await client.nextPush();
    const file = (push.payload.files as Array<Record<string, unknown>>)[0]!;
    expect(file).toMatchObject({
      status: 'accepted',
      final_text: 'one\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\n',
    });
    expect(push.payload.status).toBe('partially_accepted');
    expect(readFileSync(ws('a.txt'), 'utf8')).toBe(BASE);
  });

  it('a reject leaves the disk alone and says so per file', async () => {
    const client = await hello();
    const id = await propose(client, { writer: 'client' });
    await api('reject', { reviewId: id, reason: 'no' });
    const push = await client.nextPush();
    expect(push.payload).toMatchObject({ status: 'rejected', reason: 'no' });
    expect((push.payload.files as Array<Record<string, unknown>>)[0]).toMatchObject({
      status: 'rejected',
    });
    expect((push.payload.files as Array<Record<string, unknown>>)[0]!.final_text).toBeUndefined();
    expect(readFileSync(ws('a.txt'), 'utf8')).toBe(BASE);
  });
});

describe("writer: 'client', attacked mid-review", () => {
  // The client would write what it is handed, wherever the name leads by then: submit checks the file
  // at that moment and refuses (the review waits, saying why), and handing over checks it once more, as
  // DiffTray's own writer checks before writing. All the person can do then is reject.
  const swapped = async (swap: () => void) => {
    const client = await hello();
    const id = await propose(client, { writer: 'client' });
    swap();
    await expect(api('submit', { reviewId: id })).rejects.toThrow(/cannot be checked on disk/);
    expect(t.runtime.core.queue.summary(id).state).toBe('pending');
    await api('reject', { reviewId: id });
    const push = await client.nextPush();
    return (push.payload.files as Array<Record<string, unknown>>)[0]!;
  };

  it('a symlink to a file outside, swapped in with the same bytes: no text is handed over', async () => {
    const outside = path.join(t.home, 'outside.txt');
    writeFileSync(outside, BASE);
    const file = await swapped(() => {
      rmSync(ws('a.txt'));
      symlinkSync(outside, ws('a.txt'));
    });
    expect(file.status).not.toBe('accepted');
    expect(file.final_text).toBeUndefined();
    expect(readFileSync(outside, 'utf8')).toBe(BASE);
  });

  it('a FIFO swapped in: refused at once, never waited on', async () => {
    const file = await swapped(() => {
      rmSync(ws('a.txt'));
      execFileSync('mkfifo', [ws('a.txt')]);
    });
    expect(file.status).not.toBe('accepted');
    expect(file.final_text).toBeUndefined();
  });
});

describe('request_approval', () => {
  it('shows an approval card, and Allow answers approved with the note', async () => {
    const client = await hello();
    const answer = await client.request('request_approval', {
      kind: 'command',
      tool_name: 'Bash',
      command: 'rm -rf build && npm run build',
      cwd: t.workspace,
      reason: 'Rebuild from scratch',
      risk_level: 'medium',
    });
    expect(answer.type).toBe('response');
    const requestId = answer.payload.request_id as string;
    const card = await waitForReview(t.runtime.core, (review) => review.approval !== undefined);
    expect(card.title).toBe('Run command: rm -rf build && npm run build');
    expect(card.approval).toEqual({
      kind: 'command',
      toolName: 'Bash',
      command: 'rm -rf build && npm run build',
      cwd: t.workspace,
      reason: 'Rebuild from scratch',
      riskLevel: 'medium',
    });
    expect(card.files).toEqual([]);
    await api('submit', { reviewId: card.id, note: 'fine, but keep build/cache next time' });
    const push = await client.nextPush();
    expect(push.command).toBe('approval_result');
    expect(push.payload).toEqual({
      request_id: requestId,
      approved: true,
      status: 'approved',
      note: 'fine, but keep build/cache next time',
    });
  });

  it('Deny answers denied with the reason; a tool’s args are shown as JSON', async () => {
    const client = await hello();
    await client.request('request_approval', {
      kind: 'tool',
      tool_name: 'WebFetch',
      args: { url: 'https://example.com' },
    });
    const card = await waitForReview(t.runtime.core, (review) => review.approval !== undefined);
    expect(card.title).toBe('Use tool: WebFetch');
    expect(JSON.parse(card.approval!.args!)).toEqual({ url: 'https://example.com' });
    await api('reject', { reviewId: card.id, reason: 'no network in this task' });
    expect((await client.nextPush()).payload).toMatchObject({
      approved: false,
      status: 'denied',
      note: 'no network in this task',
    });
  });

  it('refuses a malformed request with a clear error and queues nothing', async () => {
    const client = await hello();
    const answer = await client.request('request_approval', { kind: 'launch_missiles' });
    expect(answer.type).toBe('error_response');
    expect(answer.payload.message).toMatch(/kind/);
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
  });
});

describe('Claude Code through its hooks', () => {
  it('is listed as Claude Code (hooks) with its session and folder; one_shot cancels at once', async () => {
    const client = await hello({
      client_name: 'Claude Code',
      integration: 'claude-code-hooks',
      agent_session_id: 'sess-42',
      workspace: t.workspace,
      pid: 4242,
      one_shot: true,
    });
    const listed = await until(
      () => t.runtime.core.clients.list().find((c) => c.protocol === 'claude-hooks'),
      'the hook client in Connections',
    );
    expect(listed).toMatchObject({
      name: 'Claude Code',
      agentSession: 'sess-42',
      workspace: t.workspace,
      pid: 4242,
    });
    const id = await propose(client, { writer: 'client' });
    client.close();
    await until(
      () => (t.runtime.core.queue.find(id)?.state === 'cancelled' ? true : undefined),
      'the review cancelled when the hook went away',
    );
    expect(t.runtime.core.clients.list().some((c) => c.protocol === 'claude-hooks')).toBe(false);
  });

  it('paused: proposals and approvals are refused with 4005 and never queued; resumed: queued again', async () => {
    const client = await hello({ client_name: 'Claude Code', integration: 'claude-code-hooks' });
    const key = clientPauseKey({ protocol: 'claude-hooks', name: 'Claude Code' });
    await api('setClientPaused', { key, paused: true });
    expect(t.runtime.core.snapshot().pausedClients).toEqual([
      { key, name: 'Claude Code', protocol: 'claude-hooks' },
    ]);
    writeFileSync(ws('a.txt'), BASE);
    const refused = await client.request('propose_change_set', {
      title: 't',
      files: [{ path: ws('a.txt'), after: PROPOSED }],
      writer: 'client',
    });
    expect(refused.type).toBe('error_response');
    expect(refused.payload.code).toBe(4005);
    const command = await client.request('request_approval', { kind: 'command', command: 'ls' });
    expect(command.payload.code).toBe(4005);
    expect(t.runtime.core.queue.pendingCount()).toBe(0);

    // Another program is not paused by it.
    const other = await hello({ client_name: 'Claude Code' });
    await propose(other);

    await api('setClientPaused', { key, paused: false });
    expect(t.runtime.core.snapshot().pausedClients).toEqual([]);
    await propose(client, { writer: 'client' });
    expect(t.runtime.core.queue.pendingCount()).toBe(2);
  });
});
