/**
 * Runs an agent CLI's one-shot mode (`claude -p`, `codex exec`, `gemini -p`, `copilot -p`) to its end in
 * its own process group, its output kept (the last MAX_CAPTURED_CHARS of each stream), and kills the
 * group afterwards with anything it left running (a hook, a shell command). Rejects, naming what did not
 * happen and what the CLI printed, if it has not exited within `timeoutMs`.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** Captured output kept per stream, for failure messages. */
const MAX_CAPTURED_CHARS = 64 * 1024;

export interface RunToExitOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Said when the time is up: how far it got (model turns served…). */
  progress?: () => string;
}

export interface RunToExitResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

/** `what` names it in messages: "codex exec". */
export async function runToExit(
  what: string,
  command: string,
  args: readonly string[],
  options: RunToExitOptions,
): Promise<RunToExitResult> {
  const started = Date.now();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: process.platform !== 'win32',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on(
    'data',
    (chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(-MAX_CAPTURED_CHARS)),
  );
  child.stderr.on(
    'data',
    (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-MAX_CAPTURED_CHARS)),
  );
  try {
    const [exitCode, signal] = await waitForExit(child, what, options.timeoutMs, () => {
      const progress = options.progress?.() ?? 'no progress reported';
      return `${what} did not exit within ${options.timeoutMs} ms (${progress})\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;
    });
    return { exitCode, signal, stdout, stderr, elapsedMs: Date.now() - started };
  } finally {
    killProcessGroup(child.pid);
  }
}

function waitForExit(
  child: ChildProcess,
  what: string,
  timeoutMs: number,
  timeoutMessage: () => string,
): Promise<[number | null, NodeJS.Signals | null]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(timeoutMessage())), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${what} did not start: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve([code, signal]);
    });
  });
}

/** The CLI and whatever it started. */
export function killProcessGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') process.kill(pid, 'SIGKILL');
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
