/** Reading a DiffTray running as a child process: its lock file, its CPU time and memory, its queue. */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The Claude Code lock file in `home` (CLAUDE_CONFIG_DIR is `<home>/.claude`): port and token. */
export function claudeLock(home: string): { port: number; token: string } {
  const dir = path.join(home, '.claude', 'ide');
  const name = readdirSync(dir).find((entry) => entry.endsWith('.lock'));
  if (!name) throw new Error(`No lock file in ${dir}`);
  const lock = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as { authToken: string };
  return { port: Number(path.basename(name, '.lock')), token: lock.authToken };
}

/** CPU seconds the process used so far, user and system, all its threads. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at the state, field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / TICKS_PER_SECOND;
}

/** Resident memory, in MB. */
export function rssMb(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  if (!match) throw new Error(`No VmRSS for ${pid}`);
  return Number(match[1]) / 1024;
}

/** The number of pending reviews, as `difftray status` reports it (the command, in the app's environment). */
export async function pendingReviews(env: NodeJS.ProcessEnv): Promise<number> {
  const cli = path.resolve('dist/main/cli.cjs');
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'status'], { env });
  const match = stdout.match(/^Pending reviews: (\d+)/m);
  if (!match) throw new Error(`difftray status said: ${stdout}`);
  return Number(match[1]);
}
