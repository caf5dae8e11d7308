/**
 * (f) Start → lock file: from spawning the headless app until its Claude Code lock file is there (what
 * a CLI needs to find it). Raced against a floor: a Node process that starts and writes one file into
 * the same folder. Seen with fs.watch on the folder, so no poll.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, watch } from 'node:fs';
import path from 'node:path';
import { HEADLESS_ENTRY, makeSandboxDirs, sandboxEnv } from '../test/support/headless-process';
import { figure } from './support/results';
import { interleave, since } from './support/stats';

const REPS = 7;
const FLOOR_SCRIPT = "require('node:fs').writeFileSync(process.argv[1], '{}')";

/** Spawns `args` with a fresh sandbox; ms until a *.lock appears in its Claude lock folder. */
async function timeToLock(args: (workspace: string, lockDir: string) => string[]): Promise<number> {
  const { temp, workspace, home, tmp } = makeSandboxDirs('start');
  const lockDir = path.join(home, '.claude', 'ide');
  mkdirSync(lockDir, { recursive: true, mode: 0o700 });
  const hasLock = () => readdirSync(lockDir).some((name) => name.endsWith('.lock'));
  let child: ChildProcess | undefined;
  try {
    const appeared = new Promise<void>((resolve, reject) => {
      const watcher = watch(lockDir, () => {
        if (!hasLock()) return;
        watcher.close();
        resolve();
      });
      setTimeout(() => {
        watcher.close();
        reject(new Error('No lock file within 30 s'));
      }, 30_000).unref();
    });
    const start = performance.now();
    child = spawn(process.execPath, args(workspace, lockDir), {
      env: sandboxEnv(home, tmp),
      stdio: 'ignore',
    });
    await appeared;
    return since(start);
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    temp.cleanup();
  }
}

const [app, floor] = await interleave(
  REPS,
  () => timeToLock((workspace) => [HEADLESS_ENTRY, '--workspace', workspace]),
  () => timeToLock((_workspace, lockDir) => ['-e', FLOOR_SCRIPT, path.join(lockDir, '1.lock')]),
);
figure('f', 'start → lock file', 'ms', app, 'node writing one file', floor, 'no goal (issue: 135 ms)');
