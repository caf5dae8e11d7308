/**
 * Replacing or deleting one file in an open, checked directory (confined-directory.ts), only if it
 * still holds what the decision was made against.
 *
 * Replace: the text goes to a temp file in that same directory (same file system, so the rename is
 * atomic), flushed, then renamed over the name; no reader ever sees half a file. The rename replaces
 * the name itself and never follows it: a symlink swapped in at the last moment is replaced, not written
 * through. Like most editors' "atomic save", this makes a new inode: hard links keep the old text.
 *
 * Delete: the file is first moved aside (an atomic rename in its own directory) and checked there, so an
 * edit racing the check either lands before the move (and the file is put back untouched) or finds no
 * file to edit; the put-back never replaces a file that took the name meanwhile (write-journal.ts).
 */
import { constants } from 'node:fs';
import { lstat, open, rename, rm, unlink } from 'node:fs/promises';
import { UnsafeEntryError, type ConfinedDirectory } from './confined-directory';
import {
  describeEntry,
  readSnapshotIn,
  sameContent,
  UnreadableFileError,
  type DiskSnapshot,
} from './disk-snapshot';
import { putBack, temporaryName, type WriteJournal } from '../undo/write-journal';
import { messageOf } from '../../../shared/error-message';

/** The file on disk is no longer what the decision was made against: nothing was written. */
export class FileChangedError extends Error {}

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Writes `text` as `name` if the file still is `expected` (`{exists: false}`: still absent). Returns the
 * permission bits the file had (undefined: there was none), for the undo journal.
 */
export async function replaceFileIfUnchanged(
  directory: ConfinedDirectory,
  name: string,
  expected: DiskSnapshot,
  text: string,
  journal: WriteJournal,
  wantedMode?: number,
): Promise<number | undefined> {
  const existing = await regularFileOrAbsent(directory, name);
  // An existing file keeps its permission bits; a new one gets the usual 0666 less the umask; an undo
  // puts back the bits the file had.
  const previousMode = existing ? existing.mode & 0o7777 : undefined;
  const mode = wantedMode ?? previousMode ?? 0o666;
  const temp = temporaryName(name, 'tmp');
  const endNote = await journal.begin(directory.realPath);
  try {
    const handle = await open(await directory.entry(temp), CREATE_FLAGS, mode);
    try {
      await handle.writeFile(text, 'utf8');
      if (existing || wantedMode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Checked after the temp file is ready, right before the rename: the window for a concurrent edit is
    // as small as a file system without locks allows.
    await checkUnchanged(directory, name, expected);
    await rename(await directory.entry(temp), await directory.entry(name));
    await directory.sync();
    return previousMode;
  } catch (error) {
    await rm(await directory.entry(temp), { force: true }).catch(() => {});
    throw error;
  } finally {
    await endNote();
  }
}

/**
 * Deletes `name` if it still is `expected`; a file already gone that was expected gone is fine. Returns
 * the permission bits the file had (undefined: there was none), for the undo journal.
 */
export async function deleteFileIfUnchanged(
  directory: ConfinedDirectory,
  name: string,
  expected: DiskSnapshot,
  journal: WriteJournal,
): Promise<number | undefined> {
  const existing = await regularFileOrAbsent(directory, name);
  if (!existing) {
    if (!expected.exists) return undefined;
    throw new FileChangedError(`${directory.display(name)} was deleted on disk since it was reviewed`);
  }
  const aside = temporaryName(name, 'deleting');
  const endNote = await journal.begin(directory.realPath);
  try {
    try {
      await rename(await directory.entry(name), await directory.entry(aside));
    } catch (error) {
      throw new FileChangedError(`${directory.display(name)} can no longer be moved: ${messageOf(error)}`);
    }
    let now: DiskSnapshot | undefined;
    try {
      now = await readSnapshotIn(directory, aside);
    } catch {
      // Not a regular file any more (swapped at the last moment): put back below, untouched.
    }
    if (!now || !sameContent(now, expected)) {
      const restoredAs = await putBack(directory, aside, name);
      const kept = restoredAs === name ? '' : `; a new file took its name, so it was kept as ${restoredAs}`;
      throw new FileChangedError(
        `${directory.display(name)} changed on disk since it was reviewed; it was not deleted${kept}`,
      );
    }
    await unlink(await directory.entry(aside));
    await directory.sync();
    return existing.mode & 0o7777;
  } finally {
    await endNote();
  }
}

/** Only if the file is still what was reviewed; a file that can no longer be read has changed. */
export async function checkUnchanged(
  directory: ConfinedDirectory,
  name: string,
  expected: DiskSnapshot,
): Promise<void> {
  let now: DiskSnapshot;
  try {
    now = await readSnapshotIn(directory, name);
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    throw new FileChangedError(`${directory.display(name)} can no longer be read: ${error.message}`);
  }
  if (!sameContent(now, expected)) {
    throw new FileChangedError(
      `${directory.display(name)} changed on disk since it was reviewed; it was not written`,
    );
  }
}

/** The file's stats, undefined if absent; anything but a regular file (a symlink among them) is refused. */
async function regularFileOrAbsent(directory: ConfinedDirectory, name: string) {
  try {
    const stats = await lstat(await directory.entry(name));
    if (!stats.isFile()) {
      throw new UnsafeEntryError(`${describeEntry(stats)}, not a regular file: ${directory.display(name)}`);
    }
    return stats;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
