/**
 * The real `difftray` command (node bin/difftray.cjs, built first) against a running DiffTray, deciding
 * through the app API over the headless WebSocket, as the UI would.
 *
 * Two ways of running the app, same tests:
 * - "in-process": the runtime, the native endpoint and the headless server started here (always runs);
 * - "headless subprocess": `node dist/main/headless.cjs --workspace <tmp>` with a temp HOME, DIFFTRAY_HOME,
 *   CLAUDE_CONFIG_DIR and TMPDIR. It serves the native endpoint (a lock file appears in DIFFTRAY_HOME);
 *   one that does not fails, saying so. DIFFTRAY_TEST_HEADLESS_ENTRY points them at another build of the
 *   headless entry.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import WebSocket from 'ws';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppSnapshot, HeadlessServerMessage, ReviewItem } from '../../shared/app-api';
import { applyChange } from '../../shared/state-sync';
import { startNativeEndpoint, type NativeEndpoint } from '../../src-main/bridge/native';
import { HeadlessServer } from '../../src-main/headless/headless-server';
import { sandboxEnv, startHeadlessProcess } from '../support/headless-process';
import { makeTempDir } from '../support/temp';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { BUILD_TIMEOUT_MS, buildMain, DIFFTRAY_BIN } from '../support/build';
import { until } from '../support/wait';

const BIN = DIFFTRAY_BIN;

beforeAll(buildMain, BUILD_TIMEOUT_MS);

/** The app API over the headless WebSocket, as the renderer speaks it. */
class AppApiClient {
  private nextId = 1;
  private readonly calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private snapshot: AppSnapshot | undefined;
  private readonly watchers = new Set<() => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as HeadlessServerMessage;
      if ('event' in message) {
        // Folded into the state the way a window does (shared/state-sync.ts).
        if (message.event === 'snapshot') this.snapshot = message.snapshot;
        else if (this.snapshot) this.snapshot = applyChange(this.snapshot, message.change);
        for (const watcher of [...this.watchers]) watcher();
        return;
      }
      const call = this.calls.get(message.id);
      if (!call) return;
      this.calls.delete(message.id);
      if ('error' in message && message.error) call.reject(new Error(message.error.message));
      else call.resolve((message as { result?: unknown }).result);
    });
  }

  static connect(url: string): Promise<AppApiClient> {
    const { port, searchParams } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api?token=${searchParams.get('token')}`, {
        origin: `http://127.0.0.1:${port}`,
      });
      socket.once('open', () => resolve(new AppApiClient(socket)));
      socket.once('error', reject);
    });
  }

  call(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  waitFor<T>(pick: (snapshot: AppSnapshot) => T | undefined, timeoutMs = 10_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.snapshot && pick(this.snapshot);
        if (found === undefined) return false;
        this.watchers.delete(watcher);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const watcher = () => void check();
      const timer = setTimeout(() => {
        this.watchers.delete(watcher);
        reject(new Error('timed out waiting for the app'));
      }, timeoutMs);
      this.watchers.add(watcher);
      check();
    });
  }

  pendingReview(): Promise<ReviewItem> {
    return this.waitFor((s) => s.reviews.find((r) => r.state === 'pending'));
  }

  close(): void {
    this.socket.terminate();
  }
}

interface App {
  workspace: string;
  /** The environment the CLI runs with: the same HOME and DIFFTRAY_HOME as the app. */
  env: NodeJS.ProcessEnv;
  headlessUrl: string;
  /** The addresses DiffTray opened in "the person's browser". */
  browserOpened(): string[];
  api: AppApiClient;
  /** DiffTray quits (the native endpoint closes; the subprocess gets SIGTERM). */
  quit(): Promise<void>;
  /** The in-process native endpoint. */
  native?: NativeEndpoint;
  close(): Promise<void>;
}

async function startInProcess(): Promise<App> {
  const t: TestRuntime = await startTestRuntime();
  // The command looks in DIFFTRAY_HOME; this one holds only this endpoint's lock file, whether or not
  // the runtime starts a native endpoint of its own (in the runtime's DIFFTRAY_HOME).
  const lockDir = path.join(t.home, 'cli-locks');
  const renderer = makeTempDir('renderer');
  const headless = await HeadlessServer.start({
    core: t.runtime.core,
    handler: t.runtime.handler,
    rendererDir: renderer.dir,
  });
  const opened: string[] = [];
  const native: NativeEndpoint = await startNativeEndpoint({
    core: t.runtime.core,
    lockDir,
    openInBrowser: async () => {
      opened.push(headless.url);
      return true;
    },
  });
  const api = await AppApiClient.connect(headless.url);
  return {
    workspace: t.workspace,
    env: cliEnv(t.home, lockDir, path.join(t.home, '.claude'), t.tmpDir),
    headlessUrl: headless.url,
    browserOpened: () => opened,
    api,
    native,
    quit: () => native.close(),
    close: async () => {
      api.close();
      await native.close();
      await headless.close();
      await t.close();
      renderer.cleanup();
    },
  };
}

/** How long the started app may take to write its native lock file, on two loaded cores. */
const LOCK_FILE_MS = 20_000;

/** The headless app in a child process; fails, saying so, when it writes no native lock file. */
async function startSubprocess(): Promise<App> {
  const { child, url, workspace, env, browserOpened, output, stop } = await startHeadlessProcess('cli-app');
  const lockDir = env.DIFFTRAY_HOME!;
  const deadline = Date.now() + LOCK_FILE_MS;
  while (!(existsSync(lockDir) && readdirSync(lockDir).some((name) => name.endsWith('.lock')))) {
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `headless.cjs serves no native endpoint: no lock file in DIFFTRAY_HOME (${lockDir}) within ` +
          `${LOCK_FILE_MS / 1000} s of printing its address. It printed:\n${output()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const api = await AppApiClient.connect(url);
  return {
    workspace,
    env,
    headlessUrl: url,
    browserOpened,
    api,
    quit: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
    close: async () => {
      api.close();
      await stop();
    },
  };
}

function cliEnv(home: string, lockDir: string, claudeDir: string, tmp: string): NodeJS.ProcessEnv {
  return { ...sandboxEnv(home, tmp), DIFFTRAY_HOME: lockDir, CLAUDE_CONFIG_DIR: claudeDir };
}

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Runs `difftray <args>` (or a shell pipeline when `shell` is given) and collects its output. */
function run(
  app: App | { env: NodeJS.ProcessEnv },
  args: string[],
  options: { cwd: string; shell?: string },
): Run {
  const child = options.shell
    ? spawn('sh', ['-c', options.shell], {
        cwd: options.cwd,
        env: { ...app.env, DIFFTRAY: `${process.execPath} ${BIN}` },
      })
    : spawn(process.execPath, [BIN, ...args], {
        cwd: options.cwd,
        env: app.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');
const A_OLD = lines('alpha', 'beta', 'gamma');
const A_NEW = lines('alpha', 'BETA', 'gamma');
const B_OLD = lines('one', 'two', 'three');
const B_NEW = lines('one', 'two', 'three', 'four');
const C_OLD = lines('1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12');
const C_NEW = lines('ONE', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', 'TWELVE');
const C_SPLIT = lines('ONE', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12');

function diffOf(name: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after);
}

const harnesses = [
  { name: 'in-process app', start: async () => startInProcess() },
  { name: 'headless subprocess (node dist/main/headless.cjs)', start: startSubprocess },
];

describe.each(harnesses)('difftray against the $name', ({ start }) => {
  let app: App | undefined;

  beforeEach(async () => {
    app = await start();
  }, 60_000);

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const ws = (name: string) => path.join(app!.workspace, name);
  const read = (name: string) => readFileSync(ws(name), 'utf8');
  const sha256 = (name: string) =>
    createHash('sha256')
      .update(readFileSync(ws(name)))
      .digest('hex');
  const git = (...args: string[]) => {
    const result = spawnSync('git', args, { cwd: app!.workspace, env: app!.env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };

  function writeThree(): void {
    mkdirSync(ws('src'), { recursive: true });
    writeFileSync(ws('src/a.txt'), A_OLD);
    writeFileSync(ws('b.txt'), B_OLD);
    writeFileSync(ws('src/c.txt'), C_OLD);
  }

  it('review of a patch file not yet applied: accepted hunks applied, exit 1 when something was rejected', async () => {
    writeThree();
    writeFileSync(
      ws('change.diff'),
      diffOf('src/a.txt', A_OLD, A_NEW) + diffOf('b.txt', B_OLD, B_NEW) + diffOf('src/c.txt', C_OLD, C_NEW),
    );
    const cli = run(app!, ['review', 'change.diff', '--title', 'Tidy', '-m', 'Because', '-c', 'tests pass'], {
      cwd: app!.workspace,
    });
    const review = await app!.api.pendingReview();
    expect(review).toMatchObject({
      title: 'Tidy',
      description: 'Because\n\nAcceptance criteria:\n- tests pass',
      client: { name: 'difftray review', protocol: 'native' },
    });
    expect(review.files.map((f) => f.hunkCount)).toEqual([1, 1, 2]);
    await app!.api.call('decideFile', { reviewId: review.id, fileIndex: 0, decision: 'accepted' });
    await app!.api.call('decideFile', { reviewId: review.id, fileIndex: 1, decision: 'rejected' });
    await app!.api.call('decideHunks', {
      reviewId: review.id,
      fileIndex: 2,
      hunkIndexes: [1],
      decision: 'rejected',
    });
    await app!.api.call('submit', { reviewId: review.id, note: 'b.txt waits for the migration' });
    const { code, stdout, stderr } = await cli.done;
    expect(stderr).toBe('');
    expect(stdout).toBe(
      lines(
        `applied  src/a.txt  (1/1 hunk)  sha256:${sha256('src/a.txt')}`,
        'rejected b.txt: every hunk rejected',
        `applied  src/c.txt  (1/2 hunks)  sha256:${sha256('src/c.txt')}`,
        'note: b.txt waits for the migration',
      ),
    );
    expect(code).toBe(1);
    expect([read('src/a.txt'), read('b.txt'), read('src/c.txt')]).toEqual([A_NEW, B_OLD, C_SPLIT]);
  });

  it("review prints the person's comments on lines after the files and the note", async () => {
    writeThree();
    writeFileSync(ws('b.diff'), diffOf('b.txt', B_OLD, B_NEW));
    const cli = run(app!, ['review', 'b.diff'], { cwd: app!.workspace });
    const review = await app!.api.pendingReview();
    await app!.api.call('putComment', {
      reviewId: review.id,
      fileIndex: 0,
      side: 'proposed',
      line: 3,
      text: 'four is one too many',
    });
    await app!.api.call('putComment', {
      reviewId: review.id,
      fileIndex: 0,
      side: 'base',
      line: 0,
      text: 'keep',
    });
    await app!.api.call('submit', { reviewId: review.id });
    const { code, stdout, stderr } = await cli.done;
    expect(stderr).toBe('');
    expect(stdout).toBe(
      lines(
        `applied  b.txt  (1/1 hunk)  sha256:${sha256('b.txt')}`,
        'comment: b.txt:1 (before your change) ("one"): keep',
        'comment: b.txt:4 ("four"): four is one too many',
      ),
    );
    expect(code).toBe(0);
  });

  it('review from stdin, everything accepted: exit 0', async () => {
    writeThree();
    const patch = diffOf('b.txt', B_OLD, B_NEW);
    writeFileSync(ws('b.diff'), patch);
    const cli = run(app!, [], { cwd: app!.workspace, shell: '$DIFFTRAY review < b.diff' });
    const review = await app!.api.pendingReview();
    expect(review.title).toBe('difftray review (1 file)');
    await app!.api.call('submit', { reviewId: review.id });
    const { code, stdout, stderr } = await cli.done;
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(lines(`applied  b.txt  (1/1 hunk)  sha256:${sha256('b.txt')}`));
    expect(read('b.txt')).toBe(B_NEW);
  });

  it('git diff of changes already in the working tree: rejected hunks reverted, accepted ones kept', async () => {
    writeThree();
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'base');
    // The agent writes its changes straight into the working tree.
    writeFileSync(ws('src/a.txt'), A_NEW);
    writeFileSync(ws('b.txt'), B_NEW);
    writeFileSync(ws('src/c.txt'), C_NEW);
    // Run from a subfolder: git writes paths from the top of the work tree, and so they are read.
    const cli = run(app!, [], { cwd: ws('src'), shell: 'git diff | $DIFFTRAY review' });
    const review = await app!.api.pendingReview();
    expect(review.description).toBe(
      'Already written by the agent (rejected hunks are reverted on disk): b.txt, src/a.txt, src/c.txt',
    );
    expect(review.files.map((f) => f.path)).toEqual([ws('b.txt'), ws('src/a.txt'), ws('src/c.txt')]);
    await app!.api.call('decideFile', { reviewId: review.id, fileIndex: 0, decision: 'rejected' });
    await app!.api.call('decideFile', { reviewId: review.id, fileIndex: 1, decision: 'accepted' });
    await app!.api.call('decideHunks', {
      reviewId: review.id,
      fileIndex: 2,
      hunkIndexes: [0],
      decision: 'accepted',
    });
    await app!.api.call('decideHunks', {
      reviewId: review.id,
      fileIndex: 2,
      hunkIndexes: [1],
      decision: 'rejected',
    });
    await app!.api.call('submit', { reviewId: review.id });
    const { code, stdout, stderr } = await cli.done;
    expect(stderr).toBe('');
    expect(stdout).toBe(
      lines(
        'rejected b.txt: every hunk rejected (reverted in the working tree)',
        `applied  src/a.txt  (1/1 hunk)  sha256:${sha256('src/a.txt')}`,
        `applied  src/c.txt  (1/2 hunks, rejected lines reverted)  sha256:${sha256('src/c.txt')}`,
      ),
    );
    expect(code).toBe(1);
    expect([read('src/a.txt'), read('b.txt'), read('src/c.txt')]).toEqual([A_NEW, B_OLD, C_SPLIT]);
    expect(git('status', '--porcelain')).toBe(lines(' M src/a.txt', ' M src/c.txt'));
  });

  it('git diff, everything accepted: nothing rewritten, exit 0', async () => {
    writeThree();
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'base');
    writeFileSync(ws('src/c.txt'), C_NEW);
    const cli = run(app!, [], { cwd: app!.workspace, shell: 'git diff | $DIFFTRAY review' });
    const review = await app!.api.pendingReview();
    await app!.api.call('submit', { reviewId: review.id });
    const { code, stdout } = await cli.done;
    expect(stdout).toBe(lines(`applied  src/c.txt  (2/2 hunks)  sha256:${sha256('src/c.txt')}`));
    expect(code).toBe(0);
    expect(read('src/c.txt')).toBe(C_NEW);
  });

  it('a file that matches neither side is a conflict, left untouched: exit 2', async () => {
    writeThree();
    writeFileSync(ws('change.diff'), diffOf('src/a.txt', A_OLD, A_NEW) + diffOf('b.txt', B_OLD, B_NEW));
    writeFileSync(ws('b.txt'), lines('one', 'two', 'THREE by hand'));
    const cli = run(app!, ['review', 'change.diff'], { cwd: app!.workspace });
    const review = await app!.api.pendingReview();
    expect(review.files).toHaveLength(1);
    await app!.api.call('submit', { reviewId: review.id });
    const { code, stdout, stderr } = await cli.done;
    expect(stdout).toBe(
      lines(
        `applied  src/a.txt  (1/1 hunk)  sha256:${sha256('src/a.txt')}`,
        'conflict b.txt: changed on disk since the diff was made: line 3 does not match the patch',
      ),
    );
    expect(stderr).toBe('');
    expect(code).toBe(2);
    expect(read('b.txt')).toBe(lines('one', 'two', 'THREE by hand'));
  });

  it("a conflict in every file: no review, exit 2; why is said once, on the file's line", async () => {
    writeThree();
    writeFileSync(ws('b.diff'), diffOf('b.txt', B_OLD, B_NEW));
    writeFileSync(ws('b.txt'), 'replaced\n');
    const { code, stdout, stderr } = await run(app!, ['review', 'b.diff'], { cwd: app!.workspace }).done;
    expect(stdout).toBe(
      lines('conflict b.txt: changed on disk since the diff was made: line 1 does not match the patch'),
    );
    expect(stderr).toBe(
      'difftray: nothing to review: no file of the patch can be reviewed (each is listed with why)\n',
    );
    expect(code).toBe(2);
    expect(read('b.txt')).toBe('replaced\n');
  });

  it('a bad patch: exit 2 with one line; nothing reaches the app', async () => {
    writeFileSync(ws('bad.diff'), 'this is not a patch\n');
    const bad = await run(app!, ['review', 'bad.diff'], { cwd: app!.workspace }).done;
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr: 'difftray: malformed patch: no file changes found\n',
    });
    const counts = await run(app!, [], {
      cwd: app!.workspace,
      shell: `printf -- '--- a/x\\n+++ b/x\\n@@ -1,3 +1,3 @@\\n-x\\n' | $DIFFTRAY review`,
    }).done;
    expect(counts.code).toBe(2);
    expect(counts.stderr).toMatch(/^difftray: malformed patch: .+\n$/);
    const outside = await run(app!, [], {
      cwd: app!.workspace,
      shell: `printf -- '--- a/../x\\n+++ b/../x\\n@@ -1 +1 @@\\n-x\\n+y\\n' | $DIFFTRAY review`,
    }).done;
    expect(outside.code).toBe(2);
    expect(outside.stderr).toBe(
      `difftray: ../x is outside DiffTray's workspace folders (${app!.workspace}); add the folder in ` +
        'Settings → Workspace folders, or start DiffTray with --workspace <folder>\n',
    );
    const snapshot = await app!.api.call('getSnapshot', {});
    expect((snapshot as AppSnapshot).reviews).toEqual([]);
  });

  it('status: running, pending reviews and connected clients', async () => {
    writeThree();
    writeFileSync(ws('b.diff'), diffOf('b.txt', B_OLD, B_NEW));
    const waiting = run(app!, ['review', 'b.diff'], { cwd: app!.workspace });
    const review = await app!.api.pendingReview();
    const { code, stdout, stderr } = await run(app!, ['status'], { cwd: app!.workspace }).done;
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const out = stdout.split('\n');
    expect(out[0]).toMatch(/^DiffTray is running \(pid \d+, port \d+, version 0\.1\.0\)$/);
    expect(out.slice(1, 4)).toEqual([
      `Workspace: ${app!.workspace}`,
      'Pending reviews: 1',
      'Connected clients: 1',
    ]);
    expect(out[4]).toMatch(/^ {2}difftray review 0\.1\.0 \(native, since \d\d:\d\d( [AP]M)?\)$/);
    // Never the UI's address: its token would let the agent running this decide its own review.
    expect(stdout).not.toContain(new URL(app!.headlessUrl).searchParams.get('token'));
    await app!.api.call('reject', { reviewId: review.id, reason: 'not now' });
    expect(await waiting.done).toEqual({ code: 1, stdout: 'rejected b.txt: not now\n', stderr: '' });
  });

  it('DiffTray quitting while the review waits: exit 2 with one line', async () => {
    writeThree();
    writeFileSync(ws('b.diff'), diffOf('b.txt', B_OLD, B_NEW));
    const cli = run(app!, ['review', 'b.diff'], { cwd: app!.workspace });
    await app!.api.pendingReview();
    await app!.quit();
    const { code, stderr } = await cli.done;
    expect(code).toBe(2);
    // The cancelled result when DiffTray had time to send it; else the closed connection.
    expect(stderr).toMatch(
      /^difftray: (the review was cancelled \(DiffTray is closing\)|DiffTray closed before the review was decided)\n$/,
    );
    expect(read('b.txt')).toBe(B_OLD);
  });

  it('open has DiffTray open its UI in the browser (no window here), and does not print its address', async () => {
    const { code, stdout, stderr } = await run(app!, ['open'], { cwd: app!.workspace }).done;
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: 'DiffTray opened in your browser\n',
      stderr: '',
    });
    // DiffTray itself launched the browser on the address with its token.
    await until(() => (app!.browserOpened().length > 0 ? true : undefined), 'the browser to be opened');
    expect(app!.browserOpened()).toEqual([app!.headlessUrl]);
  });
});

/**
 * A TCP proxy in front of the endpoint that can cut every connection, as a network or sleep would.
 * It rewrites the Host header, which the endpoint checks, to the endpoint's own port.
 */
async function startCuttingProxy(
  targetPort: number,
): Promise<{ port: number; cut(): void; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    let first = true;
    client.on('data', (chunk: Buffer) => {
      const data = first
        ? Buffer.from(
            chunk.toString('latin1').replace(/\r\nHost: [^\r]*/i, `\r\nHost: 127.0.0.1:${targetPort}`),
            'latin1',
          )
        : chunk;
      first = false;
      upstream.write(data);
    });
    upstream.pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', drop);
    upstream.on('close', drop);
    client.on('error', drop);
    upstream.on('error', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => {
      for (const socket of [...sockets]) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('difftray review when the connection drops while it waits', () => {
  let app: App;
  beforeEach(async () => {
    app = await startInProcess();
  });
  afterEach(async () => {
    await app.close();
  });

  it('reconnects with its session id and still gets the result', async () => {
    const native = app.native!;
    const proxy = await startCuttingProxy(native.port);
    // The lock file names the proxy: the command knows no other way in.
    const lock = JSON.parse(readFileSync(native.lockFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(native.lockFile, JSON.stringify({ ...lock, port: proxy.port }));
    const file = path.join(app.workspace, 'b.txt');
    writeFileSync(file, B_OLD);
    writeFileSync(path.join(app.workspace, 'b.diff'), diffOf('b.txt', B_OLD, B_NEW));
    const cli = run(app, ['review', 'b.diff'], { cwd: app.workspace });
    const review = await app.api.pendingReview();
    proxy.cut();
    // Decided while the command is away: the result waits for its hello.
    await app.api.call('submit', { reviewId: review.id });
    const { code, stdout, stderr } = await cli.done;
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^applied {2}b\.txt {2}\(1\/1 hunk\) {2}sha256:[0-9a-f]{64}\n$/);
    expect(readFileSync(file, 'utf8')).toBe(B_NEW);
    await proxy.close();
  });
});

describe('difftray without a running app', () => {
  let temp: { dir: string; cleanup: () => void };
  beforeEach(() => {
    temp = makeTempDir('cli-none');
  });
  afterEach(() => temp.cleanup());

  it('exits 2 with one line for every command that needs the app', async () => {
    const home = realpathSync(temp.dir);
    const lockDir = path.join(home, '.difftray');
    // No DIFFTRAY_HOME: the command looks in ~/.difftray.
    const env = { ...cliEnv(home, lockDir, path.join(home, '.claude'), home), DIFFTRAY_HOME: '' };
    writeFileSync(path.join(home, 'x.diff'), '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-x\n+y\n');
    const start =
      'start it (the DiffTray app, or npm start in its folder), or set DIFFTRAY_HOME to the folder the running one uses';
    const none = `difftray: DiffTray is not running (no lock file in ~/.difftray): ${start}\n`;
    for (const args of [['review', 'x.diff'], ['status'], ['open']]) {
      expect(await run({ env }, args, { cwd: home }).done).toEqual({ code: 2, stdout: '', stderr: none });
    }
    // A lock file left by a process that is gone does not count.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    mkdirSync(lockDir, { recursive: true });
    writeFileSync(
      path.join(lockDir, '1234.lock'),
      JSON.stringify({
        pid: Number(dead.stdout),
        port: 1234,
        authToken: 'x',
        workspaceFolders: [],
        ideName: 'DiffTray',
        transport: 'ws',
        protocol_version: '1.0',
      }),
    );
    expect(await run({ env }, ['status'], { cwd: home }).done).toEqual({
      code: 2,
      stdout: '',
      stderr: `difftray: DiffTray is not running (no live lock file in ~/.difftray): ${start}\n`,
    });
  });

  it('--help, unknown commands and options', async () => {
    const env = cliEnv(temp.dir, path.join(temp.dir, '.difftray'), temp.dir, temp.dir);
    const help = await run({ env }, ['--help'], { cwd: temp.dir }).done;
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: difftray <command>/);
    expect(await run({ env }, ['frob'], { cwd: temp.dir }).done).toEqual({
      code: 2,
      stdout: '',
      stderr: 'difftray: unknown command "frob" (try difftray --help)\n',
    });
    expect(await run({ env }, ['review', '--frob'], { cwd: temp.dir }).done).toEqual({
      code: 2,
      stdout: '',
      stderr: "difftray: unknown option '--frob'\n",
    });
    expect(await run({ env }, ['review', 'missing.diff'], { cwd: temp.dir }).done).toEqual({
      code: 2,
      stdout: '',
      stderr: 'difftray: no such patch file: missing.diff\n',
    });
  });
});
