/** What can be learned about a client process from its pid, best effort and without privileges. */
import { readlinkSync, statSync } from 'node:fs';
import { readRegularFile } from '../disk/regular-file';

/** The working folder of a process: where the CLI was started. Linux only (/proc); undefined elsewhere. */
export function processWorkingFolder(pid: number): string | undefined {
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid runs (as anyone's: EPERM still means it exists). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When the process started, from /proc/<pid>/stat (field 22, clock ticks since boot): with the pid, it
 * names one process for good, where a pid alone is reused. Linux only; undefined elsewhere or when gone.
 */
export function processStartTime(pid: number): string | undefined {
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0) return undefined;
  let stat: string;
  try {
    stat = readRegularFile(`/proc/${pid}/stat`, { maxBytes: 64 * 1024 });
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')': count after the last one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = fields[22 - 3];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

/**
 * Whether `pid` is still the process that wrote a lock file: alive, ours (a process of another user is
 * not; EPERM is no longer "alive" here), and, where start times can be read (Linux), started when the lock
 * says. A lock that cannot say when its process started is not trusted where it could have.
 */
export function isSameOwnProcess(pid: number, processStart: string | undefined): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch {
    // ESRCH: gone. EPERM: someone else's, so not the DiffTray that wrote a lock in our own folder.
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    if (typeof process.getuid === 'function' && statSync(`/proc/${pid}`).uid !== process.getuid())
      return false;
  } catch {
    return false;
  }
  const actual = processStartTime(pid);
  return actual !== undefined && actual === processStart;
}
