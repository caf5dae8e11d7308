/**
 * Issue 7, finding 1: an agent proposes, then (while the person reviews) swaps a symlink into the
 * workspace where the file or one of its folders was, pointing outside. Before the fix the person's
 * submit wrote or deleted the outside file and the answer said `applied`. For every path on which DiffTray
 * writes (native full texts and unified diffs, deletions and reverts, Clio proposeDiff/applyDiff, the real
 * `difftray` command) the outside file must stay as it was and the answer must not say `applied`.
 * Finding 2 (Claude openDiff reading through `<link>/..`, openFile telling what exists) is here too.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeSetResult, NativeLockFile } from '../../shared/native-protocol';
import { NativeClient } from '../../src-main/cli/client';
import { connectClaudeClient, texts } from '../support/claude-client';
import { JsonSocket } from '../support/json-socket';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview } from '../support/wait';
import { BUILD_TIMEOUT_MS, buildMain, DIFFTRAY_BIN } from '../support/build';

let t: TestRuntime;
let outside: string;
const sockets: Array<{ close(): void }> = [];

beforeEach(async () => {
  t = await startTestRuntime();
  outside = path.join(path.dirname(t.workspace), 'outside');
  mkdirSync(outside);
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await t.close();
});

const ws = (name: string) => path.join(t.workspace, name);
const out = (name: string) => path.join(outside, name);
const api = (method: string, params: Record<string, unknown>) => t.runtime.handler(method, params);

/** Replaces `name` in the workspace by a symlink to `target` (a folder is moved away first). */
function swapForLink(name: string, target: string): void {
  if (existsSync(ws(name)) || isLink(ws(name))) renameSync(ws(name), ws(`${name}.moved-away`));
  symlinkSync(target, ws(name));
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The person submits in the UI; a submit the disk check refuses is just as safe, and is rejected instead. */
async function submitInUi(reviewId: string): Promise<void> {
  try {
    await api('submit', { reviewId });
  } catch {
    await api('reject', { reviewId, reason: 'changed on disk' });
  }
}

async function nativeClient(): Promise<NativeClient> {
  const lock = { port: t.runtime.native.port, authToken: t.runtime.native.token } as NativeLockFile;
  const client = await NativeClient.connect(lock);
  sockets.push(client);
  await client.request('hello', { client_name: 'swapper', client_version: '1' });
  return client;
}

function nextResult(client: NativeClient): Promise<ChangeSetResult> {
  return new Promise((resolve) => {
    const stop = client.onPush((command, payload) => {
      if (command !== 'change_set_result') return;
      stop();
      resolve(payload as ChangeSetResult);
    });
  });
}

/** Proposes through the native protocol, swaps, submits; returns the result the agent receives. */
async function nativeSwap(payload: unknown, swap: () => void): Promise<ChangeSetResult> {
  const client = await nativeClient();
  const result = nextResult(client);
  await client.request('propose_change_set', payload);
  const review = await waitForReview(t.runtime.core);
  swap();
  await submitInUi(review.id);
  return result;
}

function expectNothingApplied(result: ChangeSetResult): void {
  for (const file of result.files) expect(file.status).not.toBe('applied');
}

describe('native change sets', () => {
  it('a new file whose name became a dangling link to outside: the outside file is not created', async () => {
    const result = await nativeSwap(
      { title: 'new', files: [{ path: 'newA.txt', before: null, after: 'agent text\n' }] },
      () => swapForLink('newA.txt', out('created-by-agent.txt')),
    );
    expectNothingApplied(result);
    expect(existsSync(out('created-by-agent.txt'))).toBe(false);
  });

  it('an existing file whose folder became a link to an outside folder holding the same text', async () => {
    mkdirSync(ws('sub'));
    writeFileSync(ws('sub/f.txt'), 'base\n');
    writeFileSync(out('f.txt'), 'base\n');
    const result = await nativeSwap(
      { title: 'edit', files: [{ path: 'sub/f.txt', before: 'base\n', after: 'agent\n' }] },
      () => swapForLink('sub', outside),
    );
    expectNothingApplied(result);
    expect(readFileSync(out('f.txt'), 'utf8')).toBe('base\n');
  });

  it('a deletion (after: null) whose name became a link to an outside file: the outside file stays', async () => {
    writeFileSync(ws('del.txt'), 'doomed\n');
    writeFileSync(out('keep.txt'), 'doomed\n');
    const result = await nativeSwap({ title: 'delete', files: [{ path: 'del.txt', after: null }] }, () =>
      swapForLink('del.txt', out('keep.txt')),
    );
    expectNothingApplied(result);
    expect(readFileSync(out('keep.txt'), 'utf8')).toBe('doomed\n');
  });

  it('a unified diff whose file became a link to an outside file with the same text', async () => {
    writeFileSync(ws('p.txt'), 'one\ntwo\n');
    writeFileSync(out('p.txt'), 'one\ntwo\n');
    const patch = createTwoFilesPatch('a/p.txt', 'b/p.txt', 'one\ntwo\n', 'one\nTWO\n');
    const result = await nativeSwap({ title: 'patch', patch }, () => swapForLink('p.txt', out('p.txt')));
    expectNothingApplied(result);
    expect(readFileSync(out('p.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('a revert of a change the agent already wrote, rejected after the swap: nothing outside reverted', async () => {
    writeFileSync(ws('done.txt'), 'one\nTWO\n');
    writeFileSync(out('done.txt'), 'one\nTWO\n');
    const patch = createTwoFilesPatch('a/done.txt', 'b/done.txt', 'one\ntwo\n', 'one\nTWO\n');
    const client = await nativeClient();
    const result = nextResult(client);
    await client.request('propose_change_set', { title: 'after the fact', patch });
    const review = await waitForReview(t.runtime.core);
    swapForLink('done.txt', out('done.txt'));
    await api('reject', { reviewId: review.id, reason: 'no' });
    const settled = await result;
    expect(settled.files[0]?.reverted).toBeUndefined();
    expect(readFileSync(out('done.txt'), 'utf8')).toBe('one\nTWO\n');
  });
});

describe('Clio', () => {
  async function clio(): Promise<JsonSocket> {
    const socket = await JsonSocket.open(t.runtime.clio.port, {
      'x-clio-ide-authorization': t.runtime.clio.token,
    });
    sockets.push(socket);
    return socket;
  }

  /** DiffTray's answer to the proposal: accepted, rejected, or an error. */
  const answerTo = (client: JsonSocket) =>
    client.waitFor((m) => ['diffAccepted', 'diffRejected', 'error'].includes(String(m.type)));

  it.each(['applyDiff', 'proposeDiff'])(
    '%s: the file became a link to an outside file with the same text; nothing written outside',
    async (type) => {
      writeFileSync(ws('c.txt'), 'alpha\n');
      writeFileSync(out('c.txt'), 'alpha\n');
      const client = await clio();
      client.send({
        type,
        file: ws('c.txt'),
        edits: [
          { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }, newText: 'BETA' },
        ],
      });
      const review = await waitForReview(t.runtime.core);
      swapForLink('c.txt', out('c.txt'));
      await submitInUi(review.id);
      const answer = await answerTo(client);
      expect(answer.type).not.toBe('diffAccepted');
      expect(readFileSync(out('c.txt'), 'utf8')).toBe('alpha\n');
    },
  );

  it('applyDiff: the folder became a link to an outside folder; nothing written outside', async () => {
    mkdirSync(ws('lib'));
    writeFileSync(ws('lib/m.txt'), 'x\n');
    writeFileSync(out('m.txt'), 'x\n');
    const client = await clio();
    client.send({
      type: 'applyDiff',
      file: ws('lib/m.txt'),
      edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, newText: 'y' }],
    });
    const review = await waitForReview(t.runtime.core);
    swapForLink('lib', outside);
    await submitInUi(review.id);
    // Refused at submit (the disk check cannot look inside the workspace there) or by the writer: not accepted.
    expect((await answerTo(client)).type).not.toBe('diffAccepted');
    expect(readFileSync(out('m.txt'), 'utf8')).toBe('x\n');
  });
});

describe('the difftray command', () => {
  beforeAll(buildMain, BUILD_TIMEOUT_MS);

  it('review of a patch whose folder became a link to outside: nothing written, exit code says so', async () => {
    mkdirSync(ws('src'));
    writeFileSync(ws('src/app.ts'), 'let a = 1;\n');
    writeFileSync(out('app.ts'), 'let a = 1;\n');
    const patch = createTwoFilesPatch('a/src/app.ts', 'b/src/app.ts', 'let a = 1;\n', 'let a = 2;\n');
    const child = spawn(process.execPath, [DIFFTRAY_BIN, 'review'], {
      cwd: t.workspace,
      env: { ...process.env, DIFFTRAY_HOME: path.join(t.home, '.difftray'), HOME: t.home },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.end(patch);
    // Should the command end or hang instead, the failure says what it printed and where the review is.
    const review = await Promise.race([
      waitForReview(t.runtime.core),
      exited.then((code) => {
        throw new Error(`difftray review exited ${code} before its review was queued: ${stdout}`);
      }),
    ]);
    swapForLink('src', outside);
    await submitInUi(review.id);
    const code = await Promise.race([
      exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => {
          const state = t.runtime.core.queue.find(review.id)?.state;
          reject(new Error(`difftray review still running, its review ${state}; it printed: ${stdout}`));
        }, 15_000),
      ),
    ]);
    expect(code).not.toBe(0);
    expect(stdout).not.toMatch(/\bapplied\b.*src\/app\.ts/);
    expect(readFileSync(out('app.ts'), 'utf8')).toBe('let a = 1;\n');
  });
});

describe('Claude Code reads (finding 2)', () => {
  it('openDiff of <ws>/link/../.ssh/id_rsa, where link points into the home folder: refused, the key never read', async () => {
    const home = path.join(path.dirname(t.workspace), 'fakehome');
    mkdirSync(path.join(home, '.ssh'), { recursive: true });
    writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
    symlinkSync(path.join(home, '.ssh'), ws('sshdir'));
    const claude = await connectClaudeClient(t.runtime.bridge.port, t.runtime.bridge.tokenFor('claude-ide'));
    sockets.push({ close: () => void claude.close() });
    const sneaky = `${t.workspace}/sshdir/../.ssh/id_rsa`;
    const answer = await claude.callTool('openDiff', {
      old_file_path: sneaky,
      new_file_path: ws('innocent.txt'),
      new_file_contents: 'x\n',
      tab_name: 'x',
    });
    expect(answer.isError).toBe(true);
    expect(texts(answer).join(' ')).toMatch(/outside the workspace/);
    expect(JSON.stringify(t.runtime.core.snapshot())).not.toContain('PRIVATE KEY');
    rmSync(ws('sshdir'));
  });

  it('openFile outside the workspace says the same whether the path exists or not', async () => {
    const claude = await connectClaudeClient(t.runtime.bridge.port, t.runtime.bridge.tokenFor('claude-ide'));
    sockets.push({ close: () => void claude.close() });
    writeFileSync(out('exists.txt'), 'x');
    const existing = await claude.callTool('openFile', { filePath: out('exists.txt') });
    const missing = await claude.callTool('openFile', { filePath: out('missing.txt') });
    expect(existing.isError).toBe(true);
    expect(texts(existing).join(' ')).not.toMatch(/Opened file/);
    expect(texts(existing).join(' ').replace('exists.txt', 'X')).toBe(
      texts(missing).join(' ').replace('missing.txt', 'X'),
    );
    // Inside, it still works.
    writeFileSync(ws('here.txt'), 'x');
    expect(texts(await claude.callTool('openFile', { filePath: ws('here.txt') }))[0]).toMatch(/Opened file/);
  });
});

// Finding 5 through the protocols: a FIFO (or a device) where a file is named is refused at once, on
// every way in, and the app goes on answering; one swapped in mid-review is never written or waited on.
describe.skipIf(process.platform === 'win32')('FIFOs and devices', () => {
  it('Claude openDiff and native get_file_content of a FIFO are refused at once; the next request is answered', async () => {
    execFileSync('mkfifo', [ws('pipe.txt')]);
    const claude = await connectClaudeClient(t.runtime.bridge.port, t.runtime.bridge.tokenFor('claude-ide'));
    sockets.push({ close: () => void claude.close() });
    const answer = await claude.callTool('openDiff', {
      old_file_path: ws('pipe.txt'),
      new_file_path: ws('pipe.txt'),
      new_file_contents: 'x\n',
      tab_name: 'pipe',
    });
    expect(answer.isError).toBe(true);
    expect(texts(answer).join(' ')).toMatch(/named pipe \(FIFO\), not a regular file/);

    const native = await nativeClient();
    await expect(native.request('get_file_content', { path: 'pipe.txt' })).rejects.toThrow(/FIFO/);
    // A device is outside the workspace anyway: refused without being opened.
    await expect(native.request('get_file_content', { path: '/dev/zero' })).rejects.toThrow(/outside/);
    expect(texts(await claude.callTool('getWorkspaceFolders', {}))[0]).toContain(t.workspace);
    expect(t.runtime.core.snapshot().reviews).toEqual([]);
  });

  it('a file swapped for a FIFO between proposal and submit: not written, not waited on', async () => {
    writeFileSync(ws('f.txt'), 'base\n');
    const result = await nativeSwap(
      { title: 'edit', files: [{ path: 'f.txt', before: 'base\n', after: 'agent\n' }] },
      () => {
        rmSync(ws('f.txt'));
        execFileSync('mkfifo', [ws('f.txt')]);
      },
    );
    expectNothingApplied(result);
    expect(lstatSync(ws('f.txt')).isFIFO()).toBe(true);
  });
});
