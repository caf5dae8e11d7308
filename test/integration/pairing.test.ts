/**
 * Pairing an agent on another host, with the real parts: the runtime's native endpoint on loopback, the
 * app API as the UI calls it, and the built `difftray` command run as separate processes from another
 * HOME / DIFFTRAY_HOME that has no lock file ("the remote side"). The tunnel is not needed to test:
 * `ssh -R` ends in the same loopback connection these processes make.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import WebSocket from 'ws';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { typedCall } from '../../shared/app-api';
import { ErrorCode, PAIR_MAX_FRAME_BYTES } from '../../shared/native-protocol';
import { startNativeEndpoint } from '../../src-main/bridge/native';
import { AppCore } from '../../src-main/core/app-core';
import { Pairing } from '../../src-main/core/pairing/pairing';
import { PAIRING_CODE_TTL_MS } from '../../src-main/core/pairing/pairing-codes';
import { BUILD_TIMEOUT_MS, buildMain, DIFFTRAY_BIN } from '../support/build';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { makeTempDir } from '../support/temp';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview } from '../support/wait';

beforeAll(buildMain, BUILD_TIMEOUT_MS);

const BASE = 'alpha\nbeta\ngamma\n';
const EDITED = 'alpha\nBETA\ngamma\n';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function runtime(): Promise<TestRuntime> {
  const rt = await startTestRuntime();
  cleanups.push(() => rt.close());
  return rt;
}

/** "The remote side": its own HOME and DIFFTRAY_HOME, and a project folder the app knows nothing of. */
function remoteSide() {
  const temp = makeTempDir('remote-host');
  cleanups.push(temp.cleanup);
  const root = realpathSync(temp.dir);
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    DIFFTRAY_HOME: path.join(home, '.difftray'),
    TMPDIR: root,
  };
  return { home, project, env };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function difftray(args: string[], env: NodeJS.ProcessEnv, cwd: string): { done: Promise<Run> } {
  const child = spawn(process.execPath, [DIFFTRAY_BIN, ...args], {
    env,
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  cleanups.push(() => child.exitCode === null && child.kill());
  return { done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))) };
}

const pairArgs = (port: number, code: string, name = 'laptop') => [
  'pair',
  '--port',
  String(port),
  '--code',
  code,
  '--name',
  name,
];

const startPairing = (rt: TestRuntime) =>
  typedCall((method, params) => rt.runtime.handler(method, params))('startPairing', {});

/** A wrong code for `code`. */
const wrongFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** One frame (or several) on the pairing path, no token: the first answer and how the socket closed. */
function preAuth(
  port: number,
  frames: Array<string | Buffer>,
): Promise<{ answer?: Record<string, unknown>; close: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/pair`);
    let answer: Record<string, unknown> | undefined;
    socket.once('open', () => {
      for (const frame of frames) socket.send(frame);
    });
    socket.on('message', (data) => (answer ??= JSON.parse(data.toString()) as Record<string, unknown>));
    socket.once('close', (close) => resolve({ ...(answer && { answer }), close }));
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
    socket.once('error', () => {
      // Reported through close.
    });
  });
}

const pairFrame = (payload: unknown, command = 'pair') =>
  JSON.stringify({ protocol_version: '1.0', message_id: 'p1', type: 'request', command, payload });

describe('pairing a remote agent', () => {
  it('difftray pair from another HOME, then difftray review there is decided in DiffTray and written there', async () => {
    const rt = await runtime();
    const remote = remoteSide();
    const started = await startPairing(rt);
    expect(started.port).toBe(rt.runtime.native.port);
    expect(started.code).toMatch(/^\d{6}$/);

    const paired = await difftray(pairArgs(started.port, started.code), remote.env, remote.project).done;
    expect(paired).toMatchObject({ code: 0 });
    const pairedFile = path.join(remote.home, '.difftray', 'paired.json');
    expect(statSync(pairedFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(pairedFile)).mode & 0o777).toBe(0o700);
    const { token } = JSON.parse(readFileSync(pairedFile, 'utf8')) as { token: string };
    // The app keeps only the token's hash.
    const appSide = readFileSync(path.join(rt.home, '.difftray', 'paired-clients.json'), 'utf8');
    expect(appSide).not.toContain(token);
    const snapshot = rt.runtime.core.snapshot();
    expect(snapshot.pairedClients).toEqual([expect.objectContaining({ name: 'laptop' })]);
    expect(snapshot.pairing?.codeExpiresAt).toBeUndefined();

    // difftray status there names the paired DiffTray, and not a Clio bridge of the remote host that
    // happens to carry the same pid (another process, on another machine).
    const clioFile = path.join(remote.home, '.clio', 'ide', 'bridge.json');
    mkdirSync(path.dirname(clioFile), { recursive: true });
    writeFileSync(clioFile, JSON.stringify({ pid: process.pid, port: 4321 }));
    const status = await difftray(['status'], remote.env, remote.project).done;
    expect(status).toMatchObject({ code: 0, stdout: expect.stringContaining(`pid ${process.pid}`) });
    expect(status.stdout).not.toContain('Clio bridge');

    // The remote project: a.txt to change (not applied yet), new.txt to create.
    const a = path.join(remote.project, 'a.txt');
    writeFileSync(a, BASE);
    const patch =
      createTwoFilesPatch('a/a.txt', 'b/a.txt', BASE, EDITED) +
      createTwoFilesPatch('/dev/null', 'b/new.txt', '', 'fresh\n');
    writeFileSync(path.join(remote.project, 'change.patch'), patch);
    const reviewing = difftray(['review', 'change.patch'], remote.env, remote.project);
    const review = await waitForReview(rt.runtime.core, (r) => r.state === 'pending');
    expect(review.remote).toEqual({ clientName: 'laptop' });
    expect(review.client.name).toBe('difftray review on laptop');
    expect(review.files.map((file) => file.path)).toEqual([a, path.join(remote.project, 'new.txt')]);
    await rt.runtime.handler('decideFile', { reviewId: review.id, fileIndex: 1, decision: 'rejected' });
    await rt.runtime.handler('submit', { reviewId: review.id });
    const result = await reviewing.done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^applied +a\.txt/m);
    expect(result.stdout).toMatch(/^rejected +new\.txt/m);
    // Written by the CLI on its own host with the composed text; the rejected new file never was.
    expect(readFileSync(a, 'utf8')).toBe(EDITED);
    expect(existsSync(path.join(remote.project, 'new.txt'))).toBe(false);
    expect(rt.runtime.core.snapshot().pairedClients?.[0]?.lastUsedAt).toEqual(expect.any(Number));
  });

  it('an already applied patch from the remote side: the rejected file is reverted there by the CLI', async () => {
    const rt = await runtime();
    const remote = remoteSide();
    const { code, port } = await startPairing(rt);
    expect((await difftray(pairArgs(port, code), remote.env, remote.project).done).code).toBe(0);
    const a = path.join(remote.project, 'a.txt');
    writeFileSync(a, EDITED);
    writeFileSync(
      path.join(remote.project, 'p.diff'),
      createTwoFilesPatch('a/a.txt', 'b/a.txt', BASE, EDITED),
    );
    const reviewing = difftray(['review', 'p.diff'], remote.env, remote.project);
    const review = await waitForReview(rt.runtime.core, (r) => r.state === 'pending');
    await rt.runtime.handler('reject', { reviewId: review.id, reason: 'not this' });
    const result = await reviewing.done;
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/reverted in the working tree/);
    expect(readFileSync(a, 'utf8')).toBe(BASE);
  });

  it('difftray hook claude-code on the paired host: its Edit is reviewed in DiffTray and answered there', async () => {
    const rt = await runtime();
    const remote = remoteSide();
    const { code, port } = await startPairing(rt);
    expect((await difftray(pairArgs(port, code), remote.env, remote.project).done).code).toBe(0);
    const file = path.join(remote.project, 'notes.txt');
    writeFileSync(file, BASE);
    const hook = spawn(process.execPath, [DIFFTRAY_BIN, 'hook', 'claude-code'], {
      env: remote.env,
      cwd: remote.project,
    });
    cleanups.push(() => hook.exitCode === null && hook.kill());
    let stdout = '';
    hook.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    hook.stdin.end(
      JSON.stringify({
        session_id: 's1',
        cwd: remote.project,
        hook_event_name: 'PreToolUse',
        tool_name: 'Edit',
        tool_input: { file_path: 'notes.txt', old_string: 'beta', new_string: 'BETA' },
      }),
    );
    const review = await waitForReview(rt.runtime.core, (r) => r.state === 'pending');
    expect(review).toMatchObject({ remote: { clientName: 'laptop' }, files: [{ path: file }] });
    await rt.runtime.handler('submit', { reviewId: review.id });
    await new Promise((resolve) => hook.once('close', resolve));
    const answer = JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string } };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('allow');
    // Claude Code writes the file itself, as it does with a local DiffTray.
    expect(readFileSync(file, 'utf8')).toBe(BASE);
  });

  it('through a tunnel on another port (--server-port): pair and review go through it', async () => {
    const rt = await runtime();
    const remote = remoteSide();
    const { code, port } = await startPairing(rt);
    // What `ssh -R <tunnel>:127.0.0.1:<port>` does: a port that forwards each connection to DiffTray's.
    const tunnel = net.createServer((inbound) => {
      const outbound = net.connect(port, '127.0.0.1');
      inbound.pipe(outbound).pipe(inbound);
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
    });
    await new Promise<void>((resolve) => tunnel.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => tunnel.close(resolve)));
    const tunnelPort = (tunnel.address() as net.AddressInfo).port;
    const args = [...pairArgs(tunnelPort, code), '--server-port', String(port)];
    expect((await difftray(args, remote.env, remote.project).done).code).toBe(0);
    const a = path.join(remote.project, 'a.txt');
    writeFileSync(a, BASE);
    writeFileSync(
      path.join(remote.project, 'p.diff'),
      createTwoFilesPatch('a/a.txt', 'b/a.txt', BASE, EDITED),
    );
    const reviewing = difftray(['review', 'p.diff'], remote.env, remote.project);
    const review = await waitForReview(rt.runtime.core, (r) => r.state === 'pending');
    await rt.runtime.handler('submit', { reviewId: review.id });
    expect((await reviewing.done).code).toBe(0);
    expect(readFileSync(a, 'utf8')).toBe(EDITED);
  });

  it('the remote side writes no answer through a name or a folder swapped for a symlink while the review waits', async () => {
    const rt = await runtime();
    const remote = remoteSide();
    const { code, port } = await startPairing(rt);
    expect((await difftray(pairArgs(port, code), remote.env, remote.project).done).code).toBe(0);
    const outside = path.join(path.dirname(remote.project), 'outside');
    mkdirSync(outside);
    const sub = path.join(remote.project, 'sub');
    mkdirSync(sub);
    writeFileSync(path.join(sub, 'a.txt'), BASE);
    writeFileSync(
      path.join(remote.project, 'p.diff'),
      createTwoFilesPatch('/dev/null', 'b/new.txt', '', 'fresh\n') +
        createTwoFilesPatch('a/sub/a.txt', 'b/sub/a.txt', BASE, EDITED),
    );
    const reviewing = difftray(['review', 'p.diff'], remote.env, remote.project);
    const review = await waitForReview(rt.runtime.core, (r) => r.state === 'pending');
    // While it waits: the new file's name becomes a link to a file outside that does not exist yet, and
    // the folder becomes a link to one outside holding the very text that was read.
    symlinkSync(path.join(outside, 'planted.txt'), path.join(remote.project, 'new.txt'));
    renameSync(sub, path.join(remote.project, 'sub-moved'));
    writeFileSync(path.join(outside, 'a.txt'), BASE);
    symlinkSync(outside, sub);
    await rt.runtime.handler('submit', { reviewId: review.id });
    const result = await reviewing.done;
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^conflict +new\.txt/m);
    expect(result.stdout).toMatch(/^conflict +sub\/a\.txt/m);
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
    expect(readFileSync(path.join(outside, 'a.txt'), 'utf8')).toBe(BASE);
    expect(lstatSync(path.join(remote.project, 'new.txt')).isSymbolicLink()).toBe(true);
  });

  it('the remote side leaves out a FIFO the patch names, without opening it to wait on', async () => {
    const rt = await runtime();
    const remote = remoteSide();
    const { code, port } = await startPairing(rt);
    expect((await difftray(pairArgs(port, code), remote.env, remote.project).done).code).toBe(0);
    const a = path.join(remote.project, 'a.txt');
    writeFileSync(a, BASE);
    execFileSync('mkfifo', [path.join(remote.project, 'pipe.txt')]);
    writeFileSync(
      path.join(remote.project, 'p.diff'),
      createTwoFilesPatch('a/pipe.txt', 'b/pipe.txt', BASE, EDITED) +
        createTwoFilesPatch('a/a.txt', 'b/a.txt', BASE, EDITED),
    );
    const reviewing = difftray(['review', 'p.diff'], remote.env, remote.project);
    const review = await waitForReview(rt.runtime.core, (r) => r.state === 'pending');
    expect(review.files.map((file) => file.path)).toEqual([a]);
    await rt.runtime.handler('submit', { reviewId: review.id });
    const result = await reviewing.done;
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^error +pipe\.txt: .*not a regular file/m);
    expect(result.stdout).toMatch(/^applied +a\.txt/m);
    expect(readFileSync(a, 'utf8')).toBe(EDITED);
  });

  it('refuses a reused code, and the fourth try after three wrong codes, with the lock-out in the state', async () => {
    const rt = await runtime();
    const remote = remoteSide();
    const { code, port } = await startPairing(rt);
    expect((await difftray(pairArgs(port, code), remote.env, remote.project).done).code).toBe(0);
    const reused = await difftray(pairArgs(port, code, 'again'), remote.env, remote.project).done;
    expect(reused.code).toBe(2);
    expect(reused.stderr).toContain(`pairing refused (${ErrorCode.PAIRING_REFUSED})`);

    const fresh = await startPairing(rt);
    for (let i = 0; i < 3; i++) {
      const wrong = await difftray(pairArgs(port, wrongFor(fresh.code)), remote.env, remote.project).done;
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(i < 2 ? /Wrong pairing code/ : /locked for \d+ s after 3 wrong codes/);
    }
    const fourth = await difftray(pairArgs(port, fresh.code), remote.env, remote.project).done;
    expect(fourth.code).toBe(2);
    expect(fourth.stderr).toContain(`pairing refused (${ErrorCode.PAIRING_LOCKED})`);
    expect(rt.runtime.core.snapshot().pairing?.lockedUntil).toBeGreaterThan(Date.now());
    expect(rt.runtime.core.snapshot().pairedClients).toHaveLength(1);
  });

  it("pins DiffTray's host key; a host that pinned another DiffTray's key sends it no code unless --new-host-key", async () => {
    const rt = await runtime();
    const remote = remoteSide();
    const first = await startPairing(rt);
    const key = rt.runtime.pairing.hostKey.info;
    expect(first.hostKeyFingerprint).toBe(key.fingerprint);
    const paired = await difftray(pairArgs(first.port, first.code), remote.env, remote.project).done;
    expect(paired.code).toBe(0);
    expect(paired.stdout).toContain(`DiffTray's host key: ${key.fingerprint}`);
    const pairedFile = path.join(remote.home, '.difftray', 'paired.json');
    expect(JSON.parse(readFileSync(pairedFile, 'utf8'))).toMatchObject({ hostKey: key });

    // Another DiffTray (its own DIFFTRAY_HOME, so its own key) on another port.
    const other = await runtime();
    const second = await startPairing(other);
    const refused = await difftray(pairArgs(second.port, second.code), remote.env, remote.project).done;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the pairing code was not sent');
    expect(refused.stderr).toContain(key.fingerprint);
    // The code was never tried: still active, nobody paired.
    expect(other.runtime.core.snapshot().pairing?.codeExpiresAt).toBe(second.expiresAt);
    expect(other.runtime.core.snapshot().pairedClients).toEqual([]);
    expect(JSON.parse(readFileSync(pairedFile, 'utf8'))).toMatchObject({ hostKey: key });

    const replaced = await difftray(
      [...pairArgs(second.port, second.code), '--new-host-key'],
      remote.env,
      remote.project,
    ).done;
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toContain(`the host key pinned before was ${key.fingerprint}: it is replaced`);
    expect(JSON.parse(readFileSync(pairedFile, 'utf8'))).toMatchObject({
      hostKey: other.runtime.pairing.hostKey.info,
    });
  });

  it('refuses an expired code', async () => {
    let now = Date.now();
    const temp = makeTempDir('pair-expiry');
    cleanups.push(temp.cleanup);
    const core = new AppCore([realpathSync(temp.dir)]);
    const pairing = new Pairing({ now: () => now });
    const endpoint = await startNativeEndpoint({ core, lockDir: path.join(temp.dir, 'locks'), pairing });
    cleanups.push(() => endpoint.close());
    const { code, port } = pairing.start();
    now += PAIRING_CODE_TTL_MS + 1;
    const remote = remoteSide();
    const expired = await difftray(pairArgs(port, code), remote.env, remote.project).done;
    expect(expired.code).toBe(2);
    expect(expired.stderr).toContain('The pairing code expired');
    expect(pairing.list()).toEqual([]);
  });

  it('a revoked token is refused at once: its live connection closes, its pending review is cancelled', async () => {
    const rt = await runtime();
    const remote = remoteSide();
    const { code, port } = await startPairing(rt);
    expect((await difftray(pairArgs(port, code), remote.env, remote.project).done).code).toBe(0);
    const { token } = JSON.parse(
      readFileSync(path.join(remote.home, '.difftray', 'paired.json'), 'utf8'),
    ) as {
      token: string;
    };
    writeFileSync(path.join(remote.project, 'a.txt'), BASE);
    writeFileSync(
      path.join(remote.project, 'p.diff'),
      createTwoFilesPatch('a/a.txt', 'b/a.txt', BASE, EDITED),
    );
    const reviewing = difftray(['review', 'p.diff'], remote.env, remote.project);
    const review = await waitForReview(rt.runtime.core, (r) => r.state === 'pending');
    const id = rt.runtime.core.snapshot().pairedClients![0]!.id;
    await rt.runtime.handler('revokePairedClient', { id });
    const result = await reviewing.done;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("revoked this host's pairing");
    expect(rt.runtime.core.queue.find(review.id)?.state).toBe('cancelled');
    expect(readFileSync(path.join(remote.project, 'a.txt'), 'utf8')).toBe(BASE);
    await expect(RawNative.open(port, { [NATIVE_HEADER]: token })).rejects.toMatchObject({
      message: 'HTTP 401',
    });
    expect(rt.runtime.core.snapshot().pairedClients).toEqual([]);
  });

  it('a paired client may not use what reads this machine, nor resume a local session', async () => {
    const rt = await runtime();
    const started = await startPairing(rt);
    const answer = await preAuth(started.port, [pairFrame({ code: started.code, client_name: 'box' })]);
    const token = (answer.answer?.payload as { token: string }).token;
    const local = await RawNative.open(started.port, { [NATIVE_HEADER]: rt.runtime.native.token });
    const localHello = await local.request('hello', { client_name: 'local agent' });
    const paired = await RawNative.open(started.port, { [NATIVE_HEADER]: token });
    cleanups.push(
      () => local.close(),
      () => paired.close(),
    );
    expect((await local.request('status', {})).payload).toMatchObject({ workspace_folders: [rt.workspace] });
    const status = await paired.request('status', {});
    expect(status.payload).toMatchObject({ workspace_folders: [], clients: [] });
    expect(status.payload).not.toHaveProperty('watched_folders');
    const resumed = await paired.request('hello', {
      client_name: 'box',
      session_id: localHello.payload.session_id,
    });
    expect(resumed.payload.code).toBe(ErrorCode.SESSION_UNKNOWN);
    const hello = await paired.request('hello', { client_name: 'box' });
    expect(hello.payload.workspace_folders).toEqual([]);
    const file = path.join(rt.workspace, 'secret.txt');
    writeFileSync(file, 'local only\n');
    for (const [command, payload] of [
      ['get_file_content', { path: file }],
      ['get_file_tree', {}],
      ['watch_folder', { folder: rt.workspace, watch: true }],
      // A turn would read and revert this machine's files for an agent whose files are elsewhere.
      ['turn_begin', { prompt: 'go' }],
      ['turn_touch', { paths: [file] }],
      ['turn_end', {}],
    ] as const) {
      const refused = await paired.request(command, payload);
      expect(refused).toMatchObject({ type: 'error_response', payload: { code: ErrorCode.LOCAL_ONLY } });
    }
    const patch = await paired.request('propose_change_set', {
      title: 't',
      patch: createTwoFilesPatch('a/secret.txt', 'b/secret.txt', 'local only\n', 'x\n'),
      base_dir: rt.workspace,
    });
    expect(patch.payload).toMatchObject({
      code: ErrorCode.INVALID_PAYLOAD,
      message: expect.stringContaining('not a patch'),
    });
    const noBefore = await paired.request('propose_change_set', {
      title: 't',
      files: [{ path: file, after: 'x\n' }],
    });
    expect(noBefore.payload).toMatchObject({ code: ErrorCode.INVALID_PAYLOAD });
    expect(readFileSync(file, 'utf8')).toBe('local only\n');
  });
});

describe('the pre-auth pairing path', () => {
  it('takes only pair: other commands, garbage, a missing code, binary frames are refused and closed', async () => {
    const rt = await runtime();
    const { port } = await startPairing(rt);
    const hello = await preAuth(port, [pairFrame({ client_name: 'x' }, 'hello')]);
    expect(hello).toMatchObject({ answer: { payload: { code: ErrorCode.MISSING_TOKEN } }, close: 1008 });
    const garbage = await preAuth(port, ['{not json']);
    expect(garbage).toMatchObject({ answer: { payload: { code: ErrorCode.INVALID_ENVELOPE } }, close: 1008 });
    const noCode = await preAuth(port, [pairFrame({ client_name: 'x' })]);
    expect(noCode).toMatchObject({ answer: { payload: { code: ErrorCode.INVALID_PAYLOAD } }, close: 1008 });
    const binary = await preAuth(port, [Buffer.from([0, 1, 2])]);
    expect(binary.close).toBe(1008);
    // Only the first frame is answered: a second one (a right code after a wrong one) is not looked at.
    const started = await startPairing(rt);
    const two = await preAuth(port, [
      pairFrame({ code: wrongFor(started.code), client_name: 'x' }),
      pairFrame({ code: started.code, client_name: 'x' }),
    ]);
    expect(two).toMatchObject({ answer: { payload: { code: ErrorCode.PAIRING_REFUSED } } });
    expect(rt.runtime.core.snapshot().pairedClients).toEqual([]);
    // Without a token, the ordinary path still refuses at the upgrade.
    await expect(RawNative.open(port, {})).rejects.toMatchObject({ message: 'HTTP 401' });
  });

  it('refuses a foreign Origin or Host at the upgrade: a web page cannot pair, nor use up a code', async () => {
    const rt = await runtime();
    const { port, code } = await startPairing(rt);
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/pair`, { headers });
        socket.once('open', () => {
          socket.send(pairFrame({ code, client_name: 'web page' }));
          socket.close();
          resolve(101);
        });
        socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.once('error', reject);
      });
    expect(await status({ Origin: 'https://evil.example' })).toBe(403);
    expect(await status({ Origin: 'null' })).toBe(403);
    expect(await status({ Host: `evil.example:${port}` })).toBe(403);
    expect(rt.runtime.core.snapshot().pairedClients).toEqual([]);
    // The code is still there for the person's own client.
    const paired = await preAuth(port, [pairFrame({ code, client_name: 'box' })]);
    expect(paired.answer).toMatchObject({ type: 'response', payload: { token: expect.any(String) } });
  });

  it('closes on a huge frame without answering, and holds only a few sockets at once', async () => {
    const rt = await runtime();
    const { port, code } = await startPairing(rt);
    const huge = await preAuth(port, [pairFrame({ code, client_name: 'x'.repeat(PAIR_MAX_FRAME_BYTES) })]);
    expect(huge).toEqual({ close: 1009 });
    const open: WebSocket[] = [];
    cleanups.push(() => open.forEach((socket) => socket.terminate()));
    const statuses: Array<number | 'open'> = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        await new Promise<number | 'open'>((resolve) => {
          const socket = new WebSocket(`ws://127.0.0.1:${port}/pair`);
          open.push(socket);
          socket.once('open', () => resolve('open'));
          socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
          socket.once('error', () => resolve(0));
        }),
      );
    }
    expect(statuses).toEqual(['open', 'open', 'open', 'open', 503, 503]);
    // The code was never redeemed by any of that.
    expect(rt.runtime.core.snapshot().pairing?.codeExpiresAt).toBeGreaterThan(Date.now());
  });

  it('closes a socket that says nothing', async () => {
    const rt = await runtime();
    const { port } = await startPairing(rt);
    const silent = await preAuth(port, []);
    expect(silent).toMatchObject({ answer: { payload: { code: ErrorCode.MISSING_TOKEN } }, close: 1008 });
  });
});

describe('remote reviews and watch mode', () => {
  it("a remote file accepted at a path watch mode watches here does not move this machine's baseline", async () => {
    const rt = await startTestRuntime({
      watchQuietMs: 150,
      beforeStart: (home) => {
        writeFileSync(path.join(path.dirname(home), 'workspace', 'a.txt'), BASE);
        mkdirSync(path.join(home, '.difftray'), { recursive: true });
        writeFileSync(path.join(home, '.difftray', 'settings.json'), JSON.stringify({ watchFolders: ['.'] }));
      },
    });
    cleanups.push(() => rt.close());
    const a = path.join(rt.workspace, 'a.txt');
    const started = await startPairing(rt);
    const answer = await preAuth(started.port, [pairFrame({ code: started.code, client_name: 'box' })]);
    const paired = await RawNative.open(started.port, {
      [NATIVE_HEADER]: (answer.answer?.payload as { token: string }).token,
    });
    cleanups.push(() => paired.close());
    await paired.request('hello', { client_name: 'agent' });
    // The remote host has a file at the same path, with the same text.
    await paired.request('propose_change_set', {
      title: 'remote',
      files: [{ path: a, before: BASE, after: EDITED }],
    });
    const review = await waitForReview(
      rt.runtime.core,
      (r) => r.remote !== undefined && r.state === 'pending',
    );
    await rt.runtime.handler('submit', { reviewId: review.id });
    const result = await paired.nextPush();
    expect(result.payload).toMatchObject({ files: [{ status: 'accepted', final_text: EDITED }] });
    expect(readFileSync(a, 'utf8')).toBe(BASE);
    // Here, the same text written by someone else is a change to review: the remote accept moved no baseline.
    writeFileSync(a, EDITED);
    const watched = await waitForReview(
      rt.runtime.core,
      (r) => r.client.name === 'Changes on disk' && r.state === 'pending',
    );
    expect(watched.files.map((file) => file.path)).toEqual([a]);
  });
});
