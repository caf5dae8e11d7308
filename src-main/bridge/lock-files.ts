/**
 * Discovery lock files: `<dir>/<port>.lock`, readable only by the user (file 0600 in a 0700 folder),
 * written atomically so a CLI never reads half a file.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function writeFileAtomically(file: string, content: string, mode = 0o600): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode does not apply to a folder that already exists; tighten it anyway.
  chmodSync(dir, 0o700);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, content, { mode, flag: 'wx' });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

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
 * Removes `*.lock` files in `dir` whose `pid` is no longer running. Files of live processes (another
 * DiffTray, an editor's extension) and files we cannot parse are left alone: they are not ours to judge.
 */
export function removeStaleLockFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.lock')) continue;
    const file = path.join(dir, name);
    let pid: unknown;
    try {
      pid = (JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid;
    } catch {
      continue;
    }
    if (typeof pid === 'number' && !isProcessAlive(pid)) {
      rmSync(file, { force: true });
      removed.push(file);
    }
  }
  return removed;
}

/** A lock file this process owns: written now, removed by `remove()` (idempotent). */
export class OwnedLockFile {
  private removed = false;

  constructor(
    readonly file: string,
    content: unknown,
  ) {
    removeStaleLockFiles(path.dirname(file));
    writeFileAtomically(file, JSON.stringify(content));
  }

  remove(): void {
    if (this.removed) return;
    this.removed = true;
    rmSync(this.file, { force: true });
  }
}
