/**
 * Runs the real `difftray` command (bin/difftray.cjs, built first) as an agent runs its hook: in the
 * test runtime's workspace, DiffTray's lock folder in the test's home, stdin written and closed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { DIFFTRAY_BIN } from './build';
import type { TestRuntime } from './test-runtime';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  t: Pick<TestRuntime, 'workspace' | 'home'>,
  args: string[],
  stdin = '',
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [DIFFTRAY_BIN, ...args], {
    cwd: t.workspace,
    env: { ...process.env, DIFFTRAY_HOME: path.join(t.home, '.difftray'), ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A hook stops reading stdin past its bound and exits: the rest of a huge input then has no reader.
  child.stdin!.on('error', () => {});
  child.stdin!.end(stdin);
  const done = new Promise<CliRun>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}
