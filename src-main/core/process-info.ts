/** What can be learned about a client process from its pid, best effort and without privileges. */
import { readlinkSync } from 'node:fs';

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
