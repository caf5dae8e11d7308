/**
 * The real headless app as a child process (`node dist/main/headless.cjs --workspace <ws>`), with a temp
 * HOME, DIFFTRAY_HOME, CLAUDE_CONFIG_DIR and TMPDIR, and every port and token read from where the CLIs
 * read them: Claude's lock file, Gemini's discovery file, Clio's bridge.json, the native lock file and
 * the UI address printed at start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FixtureTree } from './fixture-tree';
import { APP_V8_FLAGS, withAppMallocTunables } from '../../../scripts/node-flags.mjs';

/** The checkout: the nearest folder up with a package.json (this file runs from test/ or bundled in dist/). */
export const ROOT = findRoot(__dirname);
export const HEADLESS_ENTRY =
  process.env.DIFFTRAY_TEST_HEADLESS_ENTRY || path.join(ROOT, 'dist', 'main', 'headless.cjs');

export interface Endpoints {
  claude: { port: number; token: string };
  gemini: { port: number; token: string };
  /** Copilot CLI's `/ide`: a Unix socket and the nonce, from `$HOME/.copilot/ide/<uuid>.lock`. */
  copilot: { socketPath: string; token: string };
  clio: { port: number; token: string };
  native: { port: number; token: string };
  headless: { port: number; token: string };
}

/** Memory in kB after forced full GCs: RSS, and what V8 keeps (heap used and external buffers). */
export interface AfterGc {
  rssKb: number;
  heapKb: number;
}

/** How the process ended, for the report. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderrTail: string;
  stdoutTail: string;
}

const TAIL_CHARS = 16 * 1024;

/**
 * Preloaded into the app (test only, never in the product): on SIGUSR2 it runs full GCs and prints the
 * RSS after them, so the fuzz can tell memory kept from garbage not yet collected.
 */
const GC_PRELOAD = `process.on('SIGUSR2', () => {
  for (let i = 0; i < 3; i++) globalThis.gc();
  const m = process.memoryUsage();
  process.stdout.write('difftray-fuzz-gc rss=' + m.rss + ' heap=' + m.heapUsed + ' external=' + m.external + '\\n');
});
`;
const GC_LINE = /^difftray-fuzz-gc rss=(\d+) heap=(\d+) external=(\d+)$/;
const START_TIMEOUT_MS = 20_000;

export class AppProcess {
  private stdoutTail = '';
  private stderrTail = '';
  private exitInfo: ExitInfo | undefined;
  private readonly exited: Promise<ExitInfo>;
  /** The start of a stdout line not ended yet, and the answers to SIGUSR2 read so far. */
  private partialLine = '';
  private gcAnswers: AfterGc[] = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly tree: FixtureTree,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => {
      this.stdoutTail = tail(this.stdoutTail + chunk.toString());
      this.readGcAnswers(chunk.toString());
    });
    child.stderr!.on('data', (chunk: Buffer) => (this.stderrTail = tail(this.stderrTail + chunk.toString())));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal, stderrTail: this.stderrTail, stdoutTail: this.stdoutTail };
        resolve(this.exitInfo);
      }),
    );
  }

  private found: Endpoints | undefined;

  /** Ports and tokens, as the CLIs find them. */
  get endpoints(): Endpoints {
    if (!this.found) throw new Error('the app has not started');
    return this.found;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Starts the app with its own fresh HOME and TMPDIR under the tree's root (`instance` names them). */
  static async start(tree: FixtureTree, instance = 0): Promise<AppProcess> {
    const env = appEnv(path.join(tree.root, `home-${instance}`), path.join(tree.root, `tmp-${instance}`));
    for (const dir of [env.HOME!, env.TMPDIR!]) mkdirSync(dir, { recursive: true });
    const preload = path.join(tree.root, 'gc-on-signal.cjs');
    writeFileSync(preload, GC_PRELOAD);
    const args = [
      ...APP_V8_FLAGS,
      '--expose-gc',
      '--require',
      preload,
      HEADLESS_ENTRY,
      '--workspace',
      tree.workspace,
    ];
    const child = spawn(process.execPath, args, {
      env: withAppMallocTunables(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const app = new AppProcess(child, tree);
    try {
      app.found = await app.discover(env);
      return app;
    } catch (error) {
      await app.stop();
      throw error;
    }
  }

  alive(): boolean {
    return this.exitInfo === undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** How it ended; undefined while it runs. */
  exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** Resolves with the exit once the process has ended, or undefined after `ms`. */
  async exitWithin(ms: number): Promise<ExitInfo | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      this.exited,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), ms);
      }),
    ]);
    clearTimeout(timer);
    return result;
  }

  /** Resident set size in kB (VmRSS), or undefined where /proc is not there or the process is gone. */
  rssKb(): number | undefined {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
      return match ? Number(match[1]) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Memory right after forced full GCs (the preload's answer to SIGUSR2); undefined without one. */
  async afterGc(timeoutMs = 10_000): Promise<AfterGc | undefined> {
    if (!this.alive()) return undefined;
    const before = this.gcAnswers.length;
    this.child.kill('SIGUSR2');
    const deadline = Date.now() + timeoutMs;
    while (this.gcAnswers.length === before && this.alive() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.gcAnswers[before];
  }

  private readGcAnswers(text: string): void {
    const lines = (this.partialLine + text).split('\n');
    this.partialLine = lines.pop()!.slice(-200);
    for (const line of lines) {
      const match = GC_LINE.exec(line.trim());
      if (match) {
        const [rss, heap, external] = match.slice(1).map((bytes) => Math.round(Number(bytes) / 1024));
        this.gcAnswers.push({ rssKb: rss!, heapKb: heap! + external! });
      }
    }
  }

  logTail(): string {
    return `--- stderr ---\n${this.stderrTail}\n--- stdout ---\n${this.stdoutTail}`;
  }

  async stop(): Promise<void> {
    if (!this.alive()) return;
    this.child.kill('SIGTERM');
    if (!(await this.exitWithin(3000))) {
      this.child.kill('SIGKILL');
      await this.exitWithin(3000);
    }
  }

  private async discover(env: NodeJS.ProcessEnv): Promise<Endpoints> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (!this.alive()) throw new Error(`the app exited at start\n${this.logTail()}`);
      const found = this.readDiscovery(env);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`the app did not start in time\n${this.logTail()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private readDiscovery(env: NodeJS.ProcessEnv): Endpoints | undefined {
    const ui = /Open the UI: http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)/.exec(this.stdoutTail);
    const claudeLock = onlyFile(path.join(env.CLAUDE_CONFIG_DIR!, 'ide'), (name) => name.endsWith('.lock'));
    const geminiFile = onlyFile(path.join(env.TMPDIR!, 'gemini', 'ide'), (name) =>
      name.startsWith(`gemini-ide-server-${this.pid}-`),
    );
    const clioFile = path.join(env.HOME!, '.clio', 'ide', 'bridge.json');
    const nativeLock = onlyFile(env.DIFFTRAY_HOME!, (name) => name.endsWith('.lock'));
    const copilotLock = onlyFile(path.join(env.HOME!, '.copilot', 'ide'), (name) => name.endsWith('.lock'));
    if (!ui || !claudeLock || !geminiFile || !existsSync(clioFile) || !nativeLock || !copilotLock) {
      return undefined;
    }
    const claude = readJson(claudeLock);
    const gemini = readJson(geminiFile);
    const clio = readJson(clioFile);
    const native = readJson(nativeLock);
    const copilot = readJson(copilotLock) as { socketPath?: unknown; headers?: { Authorization?: unknown } };
    return {
      claude: { port: Number(path.basename(claudeLock, '.lock')), token: String(claude.authToken) },
      gemini: { port: Number(gemini.port), token: String(gemini.authToken) },
      copilot: {
        socketPath: String(copilot.socketPath),
        token: String(copilot.headers?.Authorization).replace(/^Nonce /, ''),
      },
      clio: { port: Number(clio.port), token: String(clio.authToken) },
      native: { port: Number(native.port), token: String(native.authToken) },
      headless: { port: Number(ui[1]), token: ui[2]! },
    };
  }
}

export function appEnv(home: string, tmp: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    DIFFTRAY_HOME: path.join(home, '.difftray'),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    TMPDIR: tmp,
    // `show_window` has a headless DiffTray open the person's browser: here a program that does nothing.
    BROWSER: 'true',
  };
}

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

function onlyFile(dir: string, matches: (name: string) => boolean): string | undefined {
  if (!existsSync(dir)) return undefined;
  const name = readdirSync(dir).find(matches);
  return name === undefined ? undefined : path.join(dir, name);
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

function tail(text: string): string {
  return text.length > TAIL_CHARS ? text.slice(-TAIL_CHARS) : text;
}
