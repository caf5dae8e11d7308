/**
 * The real headless app (`node dist/main/headless.cjs`, built by the caller) in a child process, with a
 * temp workspace, HOME, DIFFTRAY_HOME, CLAUDE_CONFIG_DIR, OPENCLAUDE_CONFIG_DIR, QWEN_HOME, COPILOT_HOME
 * and TMPDIR: nothing it writes reaches the real ones. Resolves once it prints the UI address.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir } from './temp';
import { APP_V8_FLAGS, withAppMallocTunables } from '../../scripts/node-flags.mjs';

export const HEADLESS_ENTRY =
  process.env.DIFFTRAY_TEST_HEADLESS_ENTRY ||
  path.resolve(__dirname, '..', '..', 'dist', 'main', 'headless.cjs');

export interface HeadlessProcess {
  child: ChildProcess;
  /** The UI address with its token, as printed. */
  url: string;
  workspace: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Everything it printed so far. */
  output(): string;
  /** The addresses the app opened in "the person's browser" ($BROWSER, a recorder outside HOME and TMPDIR). */
  browserOpened(): string[];
  /** SIGTERM (SIGKILL after 3 s) and the temp folders removed. */
  stop(): Promise<void>;
}

/** The environment of a process sandboxed in `home` (the app, or a CLI talking to it). */
export function sandboxEnv(home: string, tmp: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: home,
    DIFFTRAY_HOME: path.join(home, '.difftray'),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    OPENCLAUDE_CONFIG_DIR: path.join(home, '.openclaude'),
    QWEN_HOME: path.join(home, '.qwen'),
    COPILOT_HOME: path.join(home, '.copilot'),
    TMPDIR: tmp,
    // Keep git from reading the real user's configuration.
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Agent',
    GIT_AUTHOR_EMAIL: 'agent@example.com',
    GIT_COMMITTER_NAME: 'Agent',
    GIT_COMMITTER_EMAIL: 'agent@example.com',
  };
}

/** A temp folder with the sandbox an app process runs in: its workspace, HOME and TMPDIR. */
export function makeSandboxDirs(prefix: string) {
  const temp = makeTempDir(prefix);
  const root = realpathSync(temp.dir);
  const [workspace, home, tmp] = ['workspace', 'home', 'tmp'].map((name) => path.join(root, name)) as [
    string,
    string,
    string,
  ];
  for (const dir of [workspace, home, tmp]) mkdirSync(dir, { recursive: true });
  return { temp, workspace, home, tmp };
}

/**
 * A stand-in for the person's browser: a program that records each address it is asked to open, one a
 * line. Nothing opens a real browser while tests run.
 */
export function browserRecorder(dir: string): { program: string; opened: () => string[] } {
  mkdirSync(dir, { recursive: true });
  const program = path.join(dir, 'browser.sh');
  const log = path.join(dir, 'opened.txt');
  writeFileSync(program, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\n`, { mode: 0o700 });
  return {
    program,
    opened: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
  };
}

export interface HeadlessProcessOptions {
  /** Called with the sandbox's folders before the app starts (settings.json, files in the workspace). */
  beforeStart?: (dirs: { workspace: string; home: string }) => void;
  /** A command the app is started through, before `node` (`unshare ... sh -c '...; exec "$0" "$@"'`). */
  launcher?: readonly string[];
  /** Started under this open-files limit, soft and hard (a shell's `ulimit -n`). */
  maxOpenFiles?: number;
}

export async function startHeadlessProcess(
  prefix: string,
  options: HeadlessProcessOptions = {},
): Promise<HeadlessProcess> {
  const { temp, workspace, home, tmp } = makeSandboxDirs(prefix);
  const browser = browserRecorder(path.join(path.dirname(home), 'browser'));
  const env = { ...sandboxEnv(home, tmp), BROWSER: browser.program };
  options.beforeStart?.({ workspace, home });
  const openFilesLimit =
    options.maxOpenFiles === undefined
      ? []
      : ['sh', '-c', 'ulimit -n "$0" && exec "$@"', String(options.maxOpenFiles)];
  const [command = process.execPath, ...args] = [
    ...openFilesLimit,
    ...(options.launcher ?? []),
    process.execPath,
    ...APP_V8_FLAGS,
    HEADLESS_ENTRY,
    '--workspace',
    workspace,
  ];
  const child = spawn(command, args, { env: withAppMallocTunables(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
      child.kill('SIGKILL');
    }
    temp.cleanup();
  };
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/Open the UI: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`headless exited with ${code}: ${output}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { child, url, workspace, home, env, output: () => output, browserOpened: browser.opened, stop };
}
