/**
 * Copilot CLI's `/ide` on the wire, spoken over the Unix socket exactly as the captures of the real CLI
 * show (sailro/CopilotCliIde src/CopilotCliIde.Server.Tests/Captures): its headers, chunked bodies,
 * initialize with `mcp-protocol-version: 2025-11-25`, answers as SSE, the GET stream, DELETE. Decisions
 * are made through the app API, as the renderer makes them. Then the attacks: strangers, path escapes,
 * a symlink swapped in mid-review, a FIFO, malformed JSON, a huge body, a CLI that vanishes mid-review.
 */
import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLOSED_VIA_TOOL, PARTIAL_NOT_SENT } from '../../src-main/bridge/copilot-cli/tools';
import { MOVED_NOT_SENT } from '../../src-main/bridge/copilot-cli/tools/open-diff';
import { MAX_FRAME_BYTES } from '../../src-main/loopback/frame-limits';
import {
  callTool,
  cliHeaders,
  closeCopilotStreams,
  connectCopilot,
  initializeCopilot,
  readCopilotLock,
  sendOnSocket,
  sseMessages,
} from '../support/copilot-client';
import type { RawResponse } from '../support/http-response';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { makeTempDir } from '../support/temp';
import { until, waitForReview } from '../support/wait';

const BASE = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'].join('\n') + '\n';
const PROPOSED = ['ONE', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'NINE'].join('\n') + '\n';

let t: TestRuntime;
let file: string;

beforeEach(async () => {
  t = await startTestRuntime({ mcpStreamGraceMs: 2000 });
  file = path.join(t.workspace, 'notes.txt');
  writeFileSync(file, BASE);
});

afterEach(async () => {
  closeCopilotStreams();
  await t.close();
});

const api = () => t.runtime.handler;
const lockDir = () => path.join(t.home, '.copilot', 'ide');

const readLock = () => readCopilotLock(lockDir());
const send = (method: string, headers: Record<string, string>, body?: string | Buffer) =>
  sendOnSocket(readLock().socketPath, method, headers, body);
const connect = () => connectCopilot(readLock());

const openDiffArgs = (tabName = 'Test Diff', target = file, contents = PROPOSED) => ({
  original_file_path: target,
  new_file_contents: contents,
  tab_name: tabName,
});

describe('Copilot CLI /ide over the Unix socket', () => {
  it('writes the lock file the CLI reads: eight fields, 0600 in a 0700 folder, the socket in a 0700 folder', () => {
    const lock = readLock();
    expect(Object.keys(lock).sort()).toEqual(
      [
        'headers',
        'ideName',
        'isTrusted',
        'pid',
        'scheme',
        'socketPath',
        'timestamp',
        'workspaceFolders',
      ].sort(),
    );
    expect(lock).toMatchObject({
      scheme: 'pipe',
      ideName: 'DiffTray',
      pid: process.pid,
      workspaceFolders: [t.workspace],
      isTrusted: true,
    });
    expect(lock.headers.Authorization).toMatch(/^Nonce \S{32,}$/);
    const [name] = readdirSync(lockDir());
    expect(statSync(path.join(lockDir(), name!)).mode & 0o777).toBe(0o600);
    expect(statSync(lockDir()).mode & 0o777).toBe(0o700);
    expect(lstatSync(lock.socketPath).isSocket()).toBe(true);
    expect(statSync(path.dirname(lock.socketPath)).mode & 0o777).toBe(0o700);
  });

  it('answers initialize and tools/list as SSE, keeps the GET stream, and ends on DELETE', async () => {
    const session = await connect();
    expect(session.initialize.status).toBe(200);
    expect(session.initialize.headers['content-type']).toBe('text/event-stream');
    expect(session.id).toBeTruthy();
    const [init] = sseMessages(session.initialize.body);
    expect(init).toMatchObject({
      jsonrpc: '2.0',
      id: 0,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: 'vscode-copilot-cli' },
      },
    });
    expect(session.initialized.status).toBe(202);
    expect(session.stream).toMatchObject({ status: 200, headers: { 'content-type': 'text/event-stream' } });

    const list = await send(
      'POST',
      cliHeaders(session.lock, session.id),
      JSON.stringify({ method: 'tools/list', jsonrpc: '2.0', id: 1 }),
    );
    const tools = (sseMessages(list.body)[0]!.result as { tools: Array<Record<string, unknown>> }).tools;
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'close_diff',
        'get_diagnostics',
        'get_selection',
        'get_vscode_info',
        'open_diff',
        'update_session_name',
      ].sort(),
    );
    const openDiff = tools.find((tool) => tool.name === 'open_diff')!;
    expect(openDiff.execution).toEqual({ taskSupport: 'forbidden' });
    expect(openDiff.inputSchema).toMatchObject({
      type: 'object',
      required: ['original_file_path', 'new_file_contents', 'tab_name'],
    });
    expect(tools.find((tool) => tool.name === 'close_diff')!.inputSchema).toMatchObject({
      required: ['tab_name'],
    });

    expect(t.runtime.core.clients.list()).toEqual([
      // The pid is the one the CLI names in X-Copilot-PID.
      expect.objectContaining({ name: 'Copilot CLI', protocol: 'copilot-cli', pid: 41632, claimed: true }),
    ]);
    const ended = await send('DELETE', cliHeaders(session.lock, session.id));
    expect(ended.status).toBe(200);
    await until(() => (t.runtime.core.clients.list().length === 0 ? true : undefined), 'the client gone');
    const after = await send('DELETE', cliHeaders(session.lock, session.id));
    expect(after.status).toBe(404);
  });

  it('attack: X-Copilot-PID naming another process of ours: its folder is shown only as the client’s claim', async () => {
    // Any program that read the lock file can name any pid; here the test runner's own.
    await initializeCopilot(readLock(), process.pid);
    const [client] = await until(() => {
      const clients = t.runtime.core.clients.list();
      return clients[0]?.workspace !== undefined ? clients : undefined;
    }, 'the client described');
    expect(client).toMatchObject({ pid: process.pid, workspace: realpathSync(process.cwd()), claimed: true });
  });

  it('answers the IDE tools and shows the session name in the client list', async () => {
    const session = await connect();
    expect((await callTool(session, 'update_session_name', { name: 'Fix the parser' })).text).toBe(
      '{\n  "success": true\n}',
    );
    expect(t.runtime.core.clients.list()[0]).toMatchObject({ name: 'Copilot CLI · Fix the parser' });
    expect((await callTool(session, 'get_selection', {})).text).toBe('null');
    expect(JSON.parse((await callTool(session, 'get_diagnostics', { uri: '' })).text)).toEqual([]);
    const info = JSON.parse((await callTool(session, 'get_vscode_info', {})).text) as Record<string, unknown>;
    expect(info).toMatchObject({ appName: 'DiffTray', language: 'en' });
  });

  it('open_diff blocks until accepted: SAVED, and DiffTray leaves the writing to the CLI', async () => {
    const session = await connect();
    const call = callTool(session, 'open_diff', openDiffArgs());
    const review = await waitForReview(t.runtime.core);
    expect(review).toMatchObject({ title: 'notes.txt', description: 'Test Diff' });
    await api()('submit', { reviewId: review.id });
    const answer = await call;
    expect(answer.response.headers['content-type']).toBe('text/event-stream');
    expect(JSON.parse(answer.text)).toEqual({
      success: true,
      result: 'SAVED',
      trigger: 'accepted_via_button',
      tab_name: 'Test Diff',
      message: `User accepted changes for ${file}`,
    });
    expect(readFileSync(file, 'utf8')).toBe(BASE);
  });

  it('accepting the whole proposal is SAVED whatever its line endings, and for a new file', async () => {
    const session = await connect();
    writeFileSync(file, 'one\r\ntwo\r\nthree');
    const crlf = callTool(session, 'open_diff', openDiffArgs('crlf', file, 'ONE\r\ntwo\nthree'));
    await api()('submit', { reviewId: (await waitForReview(t.runtime.core)).id });
    expect(JSON.parse((await crlf).text)).toMatchObject({ result: 'SAVED' });
    const created = path.join(t.workspace, 'new', 'made.txt');
    const fresh = callTool(session, 'open_diff', openDiffArgs('new', created, 'hello\n'));
    await api()('submit', { reviewId: (await waitForReview(t.runtime.core)).id });
    expect(JSON.parse((await fresh).text)).toMatchObject({ result: 'SAVED' });
  });

  it('a reject answers REJECTED rejected_via_button', async () => {
    const session = await connect();
    const call = callTool(session, 'open_diff', openDiffArgs('Test Diff Reject'));
    const review = await waitForReview(t.runtime.core);
    await api()('reject', { reviewId: review.id });
    expect(JSON.parse((await call).text)).toMatchObject({
      success: true,
      result: 'REJECTED',
      trigger: 'rejected_via_button',
      tab_name: 'Test Diff Reject',
    });
  });

  it('a partial decision is never answered SAVED: REJECTED with the reason, and History notes it', async () => {
    const session = await connect();
    const call = callTool(session, 'open_diff', openDiffArgs());
    const review = await waitForReview(t.runtime.core);
    expect(review.files[0]!.hunks).toHaveLength(2);
    await api()('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' });
    await api()('submit', { reviewId: review.id });
    const answer = JSON.parse((await call).text) as Record<string, string>;
    expect(answer).toMatchObject({ result: 'REJECTED', trigger: 'rejected_via_button' });
    expect(answer.message).toContain('only part of the proposal was accepted');
    expect(t.runtime.core.queue.item(review.id)?.notes).toEqual([PARTIAL_NOT_SENT]);
    expect(readFileSync(file, 'utf8')).toBe(BASE);
  });

  it('close_diff cancels the pending open_diff with closed_via_tool, then finds it already closed', async () => {
    const session = await connect();
    const call = callTool(session, 'open_diff', openDiffArgs('Test Diff Cancel'));
    const review = await waitForReview(t.runtime.core);
    const closed = await callTool(session, 'close_diff', { tab_name: 'Test Diff Cancel' });
    expect(JSON.parse(closed.text)).toEqual({
      success: true,
      already_closed: false,
      tab_name: 'Test Diff Cancel',
      message: 'Diff "Test Diff Cancel" closed successfully',
    });
    expect(JSON.parse((await call).text)).toMatchObject({
      success: true,
      result: 'REJECTED',
      trigger: 'closed_via_tool',
      tab_name: 'Test Diff Cancel',
    });
    expect(t.runtime.core.queue.item(review.id)).toMatchObject({
      state: 'cancelled',
      reason: CLOSED_VIA_TOOL,
    });
    const again = await callTool(session, 'close_diff', { tab_name: 'Test Diff Cancel' });
    expect(JSON.parse(again.text)).toMatchObject({ already_closed: true });
  });

  it('a second open_diff with the same tab name replaces the first (closed_via_tool)', async () => {
    const session = await connect();
    const first = callTool(session, 'open_diff', openDiffArgs('Same'));
    await waitForReview(t.runtime.core);
    const second = callTool(session, 'open_diff', openDiffArgs('Same', file, BASE + 'ten\n'));
    expect(JSON.parse((await first).text)).toMatchObject({ result: 'REJECTED', trigger: 'closed_via_tool' });
    const review = await waitForReview(t.runtime.core);
    await api()('reject', { reviewId: review.id });
    expect(JSON.parse((await second).text)).toMatchObject({ result: 'REJECTED' });
  });
});

describe('Copilot CLI /ide attacks', () => {
  it('refuses a missing or wrong nonce with 401, and a browser origin with 403', async () => {
    const lock = readLock();
    const init = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
    const { Authorization: _auth, ...without } = cliHeaders(lock);
    expect((await send('POST', without, init)).status).toBe(401);
    expect((await send('POST', { ...without, Authorization: 'Nonce wrong' }, init)).status).toBe(401);
    const nonce = lock.headers.Authorization.slice('Nonce '.length);
    expect((await send('POST', { ...without, Authorization: `Bearer ${nonce}` }, init)).status).toBe(401);
    expect((await send('GET', without)).status).toBe(401);
    expect((await send('DELETE', without)).status).toBe(401);
    expect((await send('POST', { ...cliHeaders(lock), Origin: 'https://evil.example' }, init)).status).toBe(
      403,
    );
    expect(t.runtime.core.clients.list()).toEqual([]);
  });

  it('answers malformed JSON with a parse error and a huge body with 413, and serves on', async () => {
    const lock = readLock();
    const malformed = await send('POST', cliHeaders(lock), '{"jsonrpc":"2.0",');
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toMatchObject({ error: { code: -32700 } });
    const huge = await send('POST', cliHeaders(lock), Buffer.alloc(MAX_FRAME_BYTES + 1024, 0x20)).catch(
      (error: NodeJS.ErrnoException) => ({ status: error.code === 'EPIPE' ? 413 : 0 }) as RawResponse,
    );
    expect(huge.status).toBe(413);
    const session = await connect();
    expect(session.initialize.status).toBe(200);
  });

  it('refuses paths outside the workspace, also through a symlink, and reads nothing there', async () => {
    const outside = makeTempDir('copilot-outside');
    try {
      const secret = path.join(outside.dir, 'secret.txt');
      writeFileSync(secret, 'secret\n');
      symlinkSync(outside.dir, path.join(t.workspace, 'link'));
      const session = await connect();
      for (const target of [secret, path.join(t.workspace, 'link', 'secret.txt'), 'relative.txt']) {
        const answer = await callTool(session, 'open_diff', openDiffArgs('escape', target, 'pwned\n'));
        expect(answer.isError).toBe(true);
        expect(JSON.parse(answer.text)).toMatchObject({ success: false, tab_name: 'escape' });
      }
      expect(t.runtime.core.queue.items()).toEqual([]);
      expect(readFileSync(secret, 'utf8')).toBe('secret\n');
    } finally {
      outside.cleanup();
    }
  });

  it('a symlink swapped in mid-review: never answered SAVED (the CLI would write through it), the target stays', async () => {
    const outside = makeTempDir('copilot-swap');
    try {
      const secret = path.join(outside.dir, 'secret.txt');
      writeFileSync(secret, 'secret\n');
      const session = await connect();
      const call = callTool(session, 'open_diff', openDiffArgs());
      const review = await waitForReview(t.runtime.core);
      unlinkSync(file);
      symlinkSync(secret, file);
      // The person submits; a submit the disk check refuses is rejected instead, as in the UI.
      await api()('submit', { reviewId: review.id }).catch(() => api()('reject', { reviewId: review.id }));
      expect(JSON.parse((await call).text)).toMatchObject({ result: 'REJECTED' });
      const ended = t.runtime.core.queue.item(review.id)!;
      // Accepted before the watcher saw the swap: caught when answering; else the submit was refused.
      expect(ended.state === 'accepted' ? ended.notes : ended.state).toEqual(
        ended.state === 'accepted' ? [MOVED_NOT_SENT] : 'rejected',
      );
      expect(readFileSync(secret, 'utf8')).toBe('secret\n');
    } finally {
      outside.cleanup();
    }
  });

  it('refuses a FIFO without waiting on it; a CLI that vanishes mid-review has its review cancelled, and the app serves on', async () => {
    const fifo = path.join(t.workspace, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const session = await connect();
    const refused = await callTool(session, 'open_diff', openDiffArgs('fifo', fifo, 'pwned\n'));
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.text)).toMatchObject({
      success: false,
      error: expect.stringContaining('FIFO'),
    });
    expect(t.runtime.core.queue.items()).toEqual([]);

    const call = callTool(session, 'open_diff', openDiffArgs('vanishing')).catch(() => undefined);
    const review = await waitForReview(t.runtime.core);
    // The CLI is gone: its event stream closes and it never comes back within the grace time.
    session.stream.close();
    await until(
      () => (t.runtime.core.queue.item(review.id)?.state === 'cancelled' ? true : undefined),
      'the vanished CLI review to be cancelled',
    );
    await call;
    expect(readFileSync(file, 'utf8')).toBe(BASE);
    expect((await connect()).initialize.status).toBe(200);
  });

  it('removes its lock file and socket folder when it closes', async () => {
    const lock = readLock();
    await t.runtime.copilot.close();
    expect(readdirSync(lockDir()).filter((name) => name.endsWith('.lock'))).toEqual([]);
    expect(() => lstatSync(path.dirname(lock.socketPath))).toThrow();
  });
});
