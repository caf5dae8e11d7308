/**
 * Discovery lock files: `<dir>/<port>.lock`, readable only by the user (file 0600 in a 0700 folder),
 * written atomically so a CLI never reads half a file.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface AtomicWriteOptions {
  /**
   * Leave the folder's mode as it is (created with the default mode if missing). For a folder other
   * programs share, such as Gemini CLI's `<tmp>/gemini/ide`; the file itself is still 0600.
   */
  keepFolderMode?: boolean;
}

export function writeFileAtomically(
  file: string,
  content: string,
  mode = 0o600,
  options: AtomicWriteOptions = {},
): void {
  const dir = path.dirname(file);
  if (options.keepFolderMode) {
    mkdirSync(dir, { recursive: true });
  } else {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode does not apply to a folder that already exists; tighten it anyway.
    chmodSync(dir, 0o700);
  }
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

/** Which files of a folder are discovery files, and whose pid each names (undefined: not judged). */
export interface StaleFileRule {
  matches: (name: string) => boolean;
  pidOf: (name: string, readJson: () => unknown) => unknown;
}

/** Claude Code's and NEXUS3's rule: `*.lock` files with a numeric `pid` field. */
export const LOCK_FILE_PID_RULE: StaleFileRule = lockFileRule('pid');

/** `*.lock` files whose process id is in `field` (Qwen Code's lock files name it `ppid`). */
export function lockFileRule(field: string): StaleFileRule {
  return {
    matches: (name) => name.endsWith('.lock'),
    pidOf: (_name, readJson) => {
      const content = readJson();
      return content && typeof content === 'object' ? (content as Record<string, unknown>)[field] : undefined;
    },
  };
}

/**
 * Removes `*.lock` files in `dir` whose `pid` is no longer running. Files of live processes (another
 * DiffTray, an editor's extension) and files we cannot parse are left alone: they are not ours to judge.
 */
export function removeStaleLockFiles(dir: string, rule: StaleFileRule = LOCK_FILE_PID_RULE): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!rule.matches(name)) continue;
    const file = path.join(dir, name);
    let pid: unknown;
    try {
      pid = rule.pidOf(name, () => JSON.parse(readFileSync(file, 'utf8')));
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

export interface OwnedLockFileOptions extends AtomicWriteOptions {
  /** How stale files of the same kind are recognised in the folder before writing. */
  staleRule?: StaleFileRule;
}

/** A lock file this process owns: written now, removed by `remove()` (idempotent). */
export class OwnedLockFile {
  private removed = false;

  constructor(
    readonly file: string,
    content: unknown,
    options: OwnedLockFileOptions = {},
  ) {
    removeStaleLockFiles(path.dirname(file), options.staleRule);
    writeFileAtomically(file, JSON.stringify(content), 0o600, options);
  }

  remove(): void {
    if (this.removed) return;
    this.removed = true;
    rmSync(this.file, { force: true });
  }
}
