/**
 * Writing a file DiffTray is responsible for (Clio applyDiff / proposeDiff, native change sets):
 * atomically, so no reader ever sees half a file, and keeping what the file was (its permission bits,
 * the file a symlink points to).
 *
 * The text goes to a temp file in the same folder (same file system, so the rename is atomic), which is
 * flushed and then renamed over the target. A new file's missing parent folders are created.
 * Like most editors' "atomic save", this replaces the inode: hard links to the old file keep the old text.
 */
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { readDiskSnapshot, sameContent, type DiskSnapshot } from './disk-snapshot';
import { resolveRealPath } from './workspace-paths';

/** The file on disk is no longer what the decision was made against: nothing was written. */
export class FileChangedError extends Error {}

/** Writes `text` (UTF-8) to `file` atomically; an existing file keeps its permission bits. */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  await writeThroughTemp(file, text);
}

/**
 * Writes `text` only if the file still holds `expected` (`{exists: false}`: the file must still be
 * absent). The disk is checked after the temp file is ready, right before the rename, to keep the
 * window for a concurrent edit as small as a file system without locks allows.
 */
export async function writeFileIfUnchanged(
  file: string,
  expected: DiskSnapshot,
  text: string,
): Promise<void> {
  await writeThroughTemp(file, text, async (target) => {
    let now: DiskSnapshot;
    try {
      now = await readDiskSnapshot(target);
    } catch (error) {
      throw new FileChangedError(`${file} can no longer be read: ${(error as Error).message}`);
    }
    if (!sameContent(now, expected)) {
      throw new FileChangedError(`${file} changed on disk since it was reviewed; it was not written`);
    }
  });
}

async function writeThroughTemp(
  file: string,
  text: string,
  beforeRename?: (target: string) => Promise<void>,
): Promise<void> {
  // Through a symlink to the file it names: renaming over the link would replace the link itself.
  const target = resolveRealPath(file);
  const existing = await statIfExists(target);
  if (existing && !existing.isFile()) throw new Error(`Not a regular file: ${file}`);
  const dir = path.dirname(target);
  if (!existing) await mkdir(dir, { recursive: true });
  const mode = existing ? existing.mode & 0o777 : 0o666;
  const temp = path.join(
    dir,
    `.${path.basename(target)}.difftray-${process.pid}-${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(text, 'utf8');
      // open()'s mode passes through the umask; an existing file's bits are restored exactly.
      if (existing) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await beforeRename?.(target);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function statIfExists(file: string): Promise<Stats | undefined> {
  try {
    return await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Deletes `file` only if it still holds `expected`. The file is first moved aside (an atomic rename in
 * its own folder) and checked there, so an edit racing the check either lands before the move (and the
 * file is put back untouched) or finds no file to edit; nothing written meanwhile is lost.
 */
export async function deleteFileIfUnchanged(file: string, expected: DiskSnapshot): Promise<void> {
  const target = resolveRealPath(file);
  const aside = path.join(
    path.dirname(target),
    `.${path.basename(target)}.difftray-${process.pid}-${randomBytes(6).toString('hex')}.deleting`,
  );
  try {
    await rename(target, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !expected.exists) return;
    throw new FileChangedError(`${file} can no longer be moved: ${(error as Error).message}`);
  }
  let now: DiskSnapshot;
  try {
    now = await readDiskSnapshot(aside);
  } catch (error) {
    await rename(aside, target);
    throw new FileChangedError(`${file} can no longer be read: ${(error as Error).message}`);
  }
  if (!sameContent(now, expected)) {
    await rename(aside, target);
    throw new FileChangedError(`${file} changed on disk since it was reviewed; it was not deleted`);
  }
  await rm(aside, { force: true });
}
