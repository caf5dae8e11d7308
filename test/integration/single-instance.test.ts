/**
 * One DiffTray per DiffTray home, and no lock file left behind, with the real process: the headless app
 * (`node dist/main/headless.cjs`, built first) and `npm start`'s launcher (`node scripts/start.mjs
 * --headless`), in a sandbox HOME, DIFFTRAY_HOME and TMPDIR.
 *
 * - A second start hands over: it prints the first's address, exits 0 and writes nothing of its own.
 * - `--new-instance` is refused while the first runs; after the first is killed (SIGKILL: its records
 *   left stale) a start proceeds.
 * - A record whose port another program holds now (one that says nothing, one that speaks HTTP) is
 *   stale: that program cannot prove it is DiffTray, and the start proceeds without asking it anything.
 * - Lock and discovery files are gone after SIGINT with stdout a pipe nobody reads (`npm start | tee log`
 *   after Ctrl-C, the signal sent to the whole process group as a terminal does), SIGTERM and SIGHUP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_V8_FLAGS, withAppMallocTunables } from '../../scripts/node-flags.mjs';
import { BUILD_TIMEOUT_MS, buildMain, ROOT } from '../support/build';
import { browserRecorder, HEADLESS_ENTRY, makeSandboxDirs, sandboxEnv } from '../support/headless-process';
import { processStartTime } from '../../src-main/core/clients/process-info';

beforeAll(buildMain, BUILD_TIMEOUT_MS);

const UI_LINE = /Open the UI: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/;
/** What DiffTray keeps in a sandbox between runs: its host key. Everything else it writes is a lock. */
const KEPT = ['home/.difftray/host-key.pem'];

interface Sandbox {
  root: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** The addresses DiffTray opened in "the person's browser" ($BROWSER, a recorder outside HOME and TMPDIR). */
  opened: () => string[];
  cleanup: () => void;
}

interface Started {
  child: ChildProcess;
  /** Everything printed, stdout and stderr. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: ChildProcess[] = [];
const sandboxes: Sandbox[] = [];

/** The apps started through the launcher: not left running should the launcher die without them. */
const apps: Array<{ pid: number; workspace: string }> = [];

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const { pid, workspace } of apps.splice(0)) {
    try {
      // Only that app: its pid may name another process by now.
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(workspace)) process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already, as it should be.
    }
  }
  for (const sandbox of sandboxes.splice(0)) sandbox.cleanup();
});

function makeSandbox(): Sandbox {
  const { temp, workspace, home, tmp } = makeSandboxDirs('single-instance');
  const root = path.dirname(home);
  const browser = browserRecorder(path.join(root, 'browser'));
  const sandbox = {
    root,
    workspace,
    env: { ...sandboxEnv(home, tmp), BROWSER: browser.program },
    opened: browser.opened,
    cleanup: temp.cleanup,
  };
  sandboxes.push(sandbox);
  return sandbox;
}

/** Every file under the sandbox's HOME and TMPDIR, from its root: where lock and discovery files go. */
function filesIn(sandbox: Sandbox): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else found.push(path.relative(sandbox.root, file));
    }
  };
  for (const dir of ['home', 'tmp']) walk(path.join(sandbox.root, dir));
  return found.sort();
}

/** The files with their modification times: a rewrite shows too. */
function snapshot(sandbox: Sandbox): Record<string, number> {
  return Object.fromEntries(
    filesIn(sandbox).map((file) => [file, statSync(path.join(sandbox.root, file)).mtimeMs]),
  );
}

const headlessCommand = (sandbox: Sandbox, extra: string[] = []) =>
  [process.execPath, [...APP_V8_FLAGS, HEADLESS_ENTRY, '--workspace', sandbox.workspace, ...extra]] as const;

const launcherCommand = (sandbox: Sandbox, extra: string[] = []) =>
  [
    process.execPath,
    ['scripts/start.mjs', '--headless', '--workspace', sandbox.workspace, ...extra],
  ] as const;

/** Starts a process in its own process group (as a terminal's job is), output piped. */
function start(sandbox: Sandbox, [command, args]: readonly [string, readonly string[]]): Started {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: withAppMallocTunables({ ...sandbox.env, DIFFTRAY_NO_ELECTRON_DOWNLOAD: '1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** Resolves with the UI address once printed; rejects if the process exits first. */
async function uiAddress(started: Started): Promise<string> {
  for (;;) {
    const match = UI_LINE.exec(started.output());
    if (match) return match[1]!;
    const result = await Promise.race([
      started.exited,
      new Promise<undefined>((resolve) => setTimeout(resolve, 50)),
    ]);
    if (result) throw new Error(`exited (${JSON.stringify(result)}) before serving: ${started.output()}`);
  }
}

/** A start that is expected to end by itself, within 15 s. */
async function finished(started: Started): Promise<{ code: number | null; output: string }> {
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`still running: ${started.output()}`)), 15_000),
  );
  const { code } = await Promise.race([started.exited, timeout]);
  return { code, output: started.output() };
}

function instanceRecord(sandbox: Sandbox): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(sandbox.env.DIFFTRAY_HOME!, 'instance.json'), 'utf8')) as Record<
    string,
    unknown
  >;
}

async function startFirst(sandbox: Sandbox): Promise<Started & { url: string }> {
  const first = start(sandbox, headlessCommand(sandbox));
  return { ...first, url: await uiAddress(first) };
}

// Each test starts the real app two or three times: slow under load, never waiting on a clock.
describe('one DiffTray per DiffTray home', { timeout: 90_000 }, () => {
  it('a second start has the first open its UI, prints its address, exits 0 and writes no file of its own', async () => {
    const sandbox = makeSandbox();
    const first = await startFirst(sandbox);
    const { port: uiPort, searchParams } = new URL(first.url);
    const token = searchParams.get('token')!;
    const recordFile = path.join(sandbox.env.DIFFTRAY_HOME!, 'instance.json');
    expect(instanceRecord(sandbox)).toMatchObject({
      pid: first.child.pid,
      shell: 'headless',
      uiPort: Number(uiPort),
    });
    expect(statSync(recordFile).mode & 0o777).toBe(0o600);
    // Whoever can read the record (every program of this user) learns no key to the reviews.
    expect(readFileSync(recordFile, 'utf8')).not.toContain(token);
    const before = snapshot(sandbox);

    for (const command of [headlessCommand(sandbox), launcherCommand(sandbox)]) {
      const { code, output } = await finished(start(sandbox, command));
      expect(code, output).toBe(0);
      expect(output).toContain(`pid ${first.child.pid}`);
      expect(output).toContain('this start hands over to it');
      expect(output).toContain(`Its UI, http://127.0.0.1:${uiPort}/, is opened in your browser`);
      // The token stays on the first one's terminal: an agent could start DiffTray too.
      expect(output).not.toContain(token);
      expect(output).not.toContain('Bridge listening');
      expect(snapshot(sandbox)).toEqual(before);
      // The first one opened the person's browser on its address, token and all.
      await expect.poll(sandbox.opened).toContain(first.url);
    }
    // The first still serves.
    expect((await fetch(first.url)).status).toBeLessThan(500);
    expect(first.child.exitCode).toBeNull();
  });

  it('--new-instance is refused while the first runs, and proceeds once a killed first left only stale files', async () => {
    const sandbox = makeSandbox();
    const first = await startFirst(sandbox);
    const before = snapshot(sandbox);

    const refused = await finished(start(sandbox, headlessCommand(sandbox, ['--new-instance'])));
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain('--new-instance refused');
    expect(refused.output).toContain(`pid ${first.child.pid}`);
    expect(refused.output).not.toMatch(UI_LINE);
    expect(snapshot(sandbox)).toEqual(before);

    // Killed as a crash would end it: its instance record and lock files stay behind.
    first.child.kill('SIGKILL');
    await first.exited;
    expect(filesIn(sandbox)).toContain('home/.difftray/instance.json');
    const staleNativeLocks = readdirSync(sandbox.env.DIFFTRAY_HOME!).filter((name) => name.endsWith('.lock'));
    expect(staleNativeLocks).toHaveLength(1);

    const second = start(sandbox, headlessCommand(sandbox, ['--new-instance']));
    const url = await uiAddress(second);
    expect(url).not.toBe(first.url);
    expect(instanceRecord(sandbox)).toMatchObject({
      pid: second.child.pid,
      uiPort: Number(new URL(url).port),
    });
    // The first one's native lock file is judged stale and removed; the second's is the only one.
    await expect
      .poll(() => readdirSync(sandbox.env.DIFFTRAY_HOME!).filter((name) => name.endsWith('.lock')))
      .not.toContain(staleNativeLocks[0]);
  });
});

/** Programs that may hold a crashed DiffTray's port since: they accept connections, they are not DiffTray. */
const STRANGERS = {
  'accepts and says nothing': `require('node:net').createServer(() => {})`,
  'speaks HTTP': `require('node:http').createServer((q, s) => s.end('hello'))`,
};

/**
 * A stranger on a loopback port, in a process of its own: a record naming its pid and start time stands
 * for a crashed DiffTray's record where the pid was reused (where start times cannot be read, any live
 * pid passes), so only the port's answer can tell. Resolves once it listens.
 */
async function stranger(server: string): Promise<{ child: ChildProcess; port: number }> {
  const program = `${server}.listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
  const child = spawn(process.execPath, ['-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
  running.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`the stranger exited (${code})`)));
  });
  return { child, port };
}

describe('a record whose port another program holds now', { timeout: 90_000 }, () => {
  it.each(Object.entries(STRANGERS))(
    'is stale when that program %s: the start proceeds, and the stranger is asked nothing',
    async (_name, server) => {
      const sandbox = makeSandbox();
      const home = sandbox.env.DIFFTRAY_HOME!;
      const { child, port } = await stranger(server);
      const pid = child.pid!;
      const processStart = processStartTime(pid);
      // What a DiffTray that crashed leaves: its record and its native lock file, both naming the port.
      mkdirSync(home, { recursive: true, mode: 0o700 });
      const left = { pid, ...(processStart !== undefined && { processStart }) };
      writeFileSync(
        path.join(home, 'instance.json'),
        JSON.stringify({
          ...left,
          startedAt: new Date().toISOString(),
          shell: 'headless',
          port,
          uiPort: port,
        }),
        { mode: 0o600 },
      );
      writeFileSync(
        path.join(home, `${port}.lock`),
        JSON.stringify({
          ...left,
          port,
          authToken: 'f'.repeat(64),
          workspaceFolders: [sandbox.workspace],
          ideName: 'DiffTray',
          transport: 'ws',
          protocol_version: '1.0',
        }),
        { mode: 0o600 },
      );

      const started = start(sandbox, headlessCommand(sandbox));
      const url = await uiAddress(started);
      expect(started.output()).not.toContain('hands over');
      expect(instanceRecord(sandbox)).toMatchObject({
        pid: started.child.pid,
        uiPort: Number(new URL(url).port),
      });
      expect(instanceRecord(sandbox).port).not.toBe(port);
      // Never told to show itself (SIGUSR2 would have ended it): it still runs, and nothing was opened.
      expect(child.exitCode).toBeNull();
      expect(child.signalCode).toBeNull();
      expect(sandbox.opened()).toEqual([]);
    },
  );
});

describe('lock and discovery files are removed on every exit', { timeout: 60_000 }, () => {
  const lockFilesOf = (sandbox: Sandbox) => filesIn(sandbox).filter((file) => !KEPT.includes(file));

  /** Serves, then checks there are lock files to remove (and nothing else left over from before). */
  async function serving(sandbox: Sandbox, command: readonly [string, readonly string[]]) {
    const started = start(sandbox, command);
    await uiAddress(started);
    apps.push({ pid: instanceRecord(sandbox).pid as number, workspace: sandbox.workspace });
    const locks = lockFilesOf(sandbox);
    expect(locks).toContain('home/.difftray/instance.json');
    expect(locks.some((file) => file.startsWith('home/.claude/ide/'))).toBe(true);
    expect(locks.some((file) => file.startsWith('tmp/gemini/ide/'))).toBe(true);
    return started;
  }

  async function expectNoLockFilesAfter(sandbox: Sandbox, started: Started, appPid: number) {
    const { code, output } = await finished(started);
    expect(code, output).toBe(0);
    // The app itself (the launcher's child) is gone too, not merely the launcher.
    await expect.poll(() => existsSync(`/proc/${appPid}`), { timeout: 10_000 }).toBe(false);
    expect(lockFilesOf(sandbox)).toEqual([]);
  }

  it.each([
    ['the headless app', headlessCommand],
    ['npm start’s launcher', launcherCommand],
  ])('Ctrl-C with stdout a pipe nobody reads any more (%s)', async (_name, command) => {
    const sandbox = makeSandbox();
    const started = await serving(sandbox, command(sandbox));
    const appPid = instanceRecord(sandbox).pid as number;
    // `npm start | tee log`, then Ctrl-C: tee is gone, and every process of the job gets SIGINT.
    started.child.stdout!.destroy();
    process.kill(-started.child.pid!, 'SIGINT');
    await expectNoLockFilesAfter(sandbox, started, appPid);
  });

  it.each(['SIGTERM', 'SIGHUP'] as const)('%s to the launcher', async (signal) => {
    const sandbox = makeSandbox();
    const started = await serving(sandbox, launcherCommand(sandbox));
    const appPid = instanceRecord(sandbox).pid as number;
    started.child.kill(signal);
    await expectNoLockFilesAfter(sandbox, started, appPid);
  });

  it.each(['SIGTERM', 'SIGHUP'] as const)(
    '%s to the whole job, its output read by nobody (SIGHUP: a closed terminal)',
    async (signal) => {
      const sandbox = makeSandbox();
      const started = await serving(sandbox, headlessCommand(sandbox));
      // Nothing reads its output any more either.
      started.child.stdout!.destroy();
      started.child.stderr!.destroy();
      process.kill(-started.child.pid!, signal);
      await expectNoLockFilesAfter(sandbox, started, started.child.pid!);
    },
  );
});
