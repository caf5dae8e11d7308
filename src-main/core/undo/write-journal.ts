/**
 * A note, kept on disk while DiffTray has a temp file or a file moved aside in some folder, of which
 * folder that is. If DiffTray is killed mid-write (kill -9, power loss), the next start reads the notes
 * of processes no longer alive and cleans up after them (recoverLeftovers): temp files are removed
 * (the target was never replaced: it is wholly old), and a file moved aside to be deleted or checked is
 * put back under its own name (or, if that name was taken meanwhile, beside it under a visible name), so
 * no one's only copy is ever left under a hidden name. Only names of DiffTray's own pattern, with the
 * dead process's id in them, are touched.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { link, readdir, rename, rm, unlink, writeFile, lstat } from 'node:fs/promises';
import path from 'node:path';
import { readRegularFile } from '../disk/regular-file';
import { ConfinedDirectory } from '../disk/confined-directory';
import { messageOf } from '../../../shared/error-message';

/** `.<name>.difftray-<pid>-<12 hex>.tmp|deleting`: the names DiffTray gives its own short-lived files. */
const LEFTOVER = /^\.(.+)\.difftray-(\d+)-([0-9a-f]{12})\.(tmp|deleting)$/;

/** Whether `name` is one of DiffTray's own short-lived files (watch mode never reviews them). */
export function isTemporaryName(name: string): boolean {
  return LEFTOVER.test(name);
}

export function temporaryName(name: string, kind: 'tmp' | 'deleting'): string {
  return `.${name}.difftray-${process.pid}-${randomBytes(6).toString('hex')}.${kind}`;
}

export class WriteJournal {
  /** `dir` undefined: no notes are kept (tests that do not exercise crashes). */
  constructor(private readonly dir: string | undefined) {
    if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Notes that this process is about to leave its own names in `folder`; returns the way to end the note. */
  async begin(folder: string): Promise<() => Promise<void>> {
    if (!this.dir) return async () => {};
    const note = path.join(this.dir, `${process.pid}-${randomBytes(6).toString('hex')}.json`);
    await writeFile(note, JSON.stringify({ pid: process.pid, folder }), { mode: 0o600, flag: 'wx' });
    return () => rm(note, { force: true });
  }
}

export interface Recovered {
  removedTemp: string[];
  restored: string[];
  /** Put beside their name, which was taken meanwhile: [kept as, original name]. */
  keptAside: Array<[string, string]>;
}

/**
 * Cleans up after DiffTray processes that died mid-write, as recorded in `journalDir`. Notes of live
 * processes are left alone (another DiffTray may be writing right now).
 */
export async function recoverLeftovers(
  journalDir: string,
  isAlive: (pid: number) => boolean,
  log: (message: string) => void,
): Promise<Recovered> {
  const recovered: Recovered = { removedTemp: [], restored: [], keptAside: [] };
  let notes: string[];
  try {
    notes = (await readdir(journalDir)).filter((name) => name.endsWith('.json'));
  } catch {
    return recovered;
  }
  for (const noteName of notes) {
    const note = path.join(journalDir, noteName);
    const parsed = readNote(note);
    if (!parsed) {
      await rm(note, { force: true });
      continue;
    }
    if (parsed.pid !== process.pid && isAlive(parsed.pid)) continue;
    try {
      await cleanFolder(parsed.folder, parsed.pid, recovered, log);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') {
        log(`difftray: could not clean up ${parsed.folder} after an interrupted write: ${messageOf(error)}`);
        continue;
      }
    }
    await rm(note, { force: true });
  }
  return recovered;
}

/** A note is a pid and a folder path. */
const MAX_NOTE_BYTES = 64 * 1024;

function readNote(note: string): { pid: number; folder: string } | undefined {
  try {
    const value = JSON.parse(readRegularFile(note, { noFollow: true, maxBytes: MAX_NOTE_BYTES })) as {
      pid?: unknown;
      folder?: unknown;
    };
    if (!Number.isInteger(value.pid) || (value.pid as number) <= 0) return undefined;
    if (typeof value.folder !== 'string' || !path.isAbsolute(value.folder)) return undefined;
    return { pid: value.pid as number, folder: value.folder };
  } catch {
    return undefined;
  }
}

async function cleanFolder(folder: string, pid: number, recovered: Recovered, log: (m: string) => void) {
  // Confined to the folder itself: nothing outside the folder that was written in is touched.
  const directory = await ConfinedDirectory.open(folder, [folder]);
  try {
    for (const name of await directory.list()) {
      const match = LEFTOVER.exec(name);
      if (!match || Number(match[2]) !== pid) continue;
      const original = match[1]!;
      if (match[4] === 'tmp') {
        await unlink(await directory.entry(name));
        recovered.removedTemp.push(directory.display(name));
        log(`difftray: removed ${directory.display(name)}, left by an interrupted write`);
        continue;
      }
      const where = await putBack(directory, name, original);
      if (where === original) {
        recovered.restored.push(directory.display(original));
        log(`difftray: put ${directory.display(original)} back, moved aside by an interrupted delete`);
      } else {
        recovered.keptAside.push([directory.display(where), directory.display(original)]);
        log(
          `difftray: ${directory.display(original)} was moved aside by an interrupted delete and its name ` +
            `is taken now; its old content is kept as ${directory.display(where)}`,
        );
      }
    }
  } finally {
    await directory.close();
  }
}

/**
 * Moves the file at `aside` back to `name` without ever replacing a file that took the name meanwhile;
 * in that case it goes beside it under a visible name. Returns the name it has now.
 */
export async function putBack(directory: ConfinedDirectory, aside: string, name: string): Promise<string> {
  const from = await directory.entry(aside);
  try {
    // link() fails if the name exists, where rename() would silently replace it.
    await link(from, await directory.entry(name));
    await unlink(from);
    return name;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return keepBeside(directory, from, name);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
  }
  // A file system without hard links: rename, if the name is still free.
  if (await isTaken(directory, name)) return keepBeside(directory, from, name);
  await rename(from, await directory.entry(name));
  return name;
}

async function isTaken(directory: ConfinedDirectory, name: string): Promise<boolean> {
  try {
    await lstat(await directory.entry(name));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

async function keepBeside(directory: ConfinedDirectory, from: string, name: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const kept = `${name}.difftray-kept-${stamp}`;
  await rename(from, await directory.entry(kept));
  return kept;
}
