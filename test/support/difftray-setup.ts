/**
 * `difftray setup <agent>` run the way a person runs it (the built bin/difftray.cjs), in a test's own
 * home: the real-client tests install DiffTray's hooks through it, never by writing the files themselves.
 */
import { spawnSync } from 'node:child_process';
import { DIFFTRAY_BIN } from './build';

/** Runs setup with `env` (HOME, CODEX_HOME, COPILOT_HOME… of the test); throws with its output on failure. */
export function runDiffTraySetup(agent: string, env: Record<string, string>): string {
  const run = spawnSync(process.execPath, [DIFFTRAY_BIN, 'setup', agent], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    throw new Error(`difftray setup ${agent} failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
  }
  return run.stdout;
}
