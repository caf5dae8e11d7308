/**
 * What is on disk at a path, in the one form every comparison uses: absent, text, or opaque bytes
 * (binary, not UTF-8, or too large to review) known by their hash.
 */
import { createHash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedDirectory, namingFolder } from './confined-directory';
import { MAX_FILE_BYTES } from './limits';
import { PathOutsideWorkspaceError } from './workspace-paths';

export { MAX_FILE_BYTES };

export type DiskSnapshot =
  | { exists: false }
  | { exists: true; kind: 'text'; text: string }
  | { exists: true; kind: 'opaque'; hash: string; size: number; why: 'binary' | 'not UTF-8' | 'too large' };

export class UnreadableFileError extends Error {}

/** A NUL byte in the first 8 KiB is how git and most editors tell binary from text. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

// fatal: text that is not UTF-8 would come back altered on write; ignoreBOM: keep a BOM as text.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * What is at `filePath` now. Only a regular file is read: the entry is looked at (lstat) before it is
 * opened, a symlink in the final name is refused (O_NOFOLLOW), and the open cannot block (O_NONBLOCK: a
 * FIFO swapped in at the last moment is opened without waiting for a writer, then refused by fstat).
 * At most `maxBytes` + 1 bytes are read, however much the file grows meanwhile.
 */
export async function readDiskSnapshot(filePath: string, maxBytes = MAX_FILE_BYTES): Promise<DiskSnapshot> {
  let seen: Stats;
  try {
    seen = await lstat(filePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false };
    throw new UnreadableFileError(`Cannot read ${filePath}: ${(error as Error).message}`);
  }
  if (!seen.isFile())
    throw new UnreadableFileError(`${describeEntry(seen)}, not a regular file: ${filePath}`);
  let handle: FileHandle;
  try {
    handle = await open(filePath, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { exists: false };
    if (code === 'ELOOP') throw new UnreadableFileError(`A symbolic link, not a regular file: ${filePath}`);
    throw new UnreadableFileError(`Cannot read ${filePath}: ${(error as Error).message}`);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.ino !== seen.ino || stats.dev !== seen.dev) {
      throw new UnreadableFileError(`Replaced while being read, not read: ${filePath}`);
    }
    if (stats.size > maxBytes) return tooLarge(stats);
    const bytes = await readUpTo(handle, maxBytes + 1);
    if (bytes.length > maxBytes) return tooLarge(await handle.stat());
    if (looksBinary(bytes))
      return { exists: true, kind: 'opaque', hash: hashBytes(bytes), size: bytes.length, why: 'binary' };
    try {
      return { exists: true, kind: 'text', text: utf8.decode(bytes) };
    } catch {
      return { exists: true, kind: 'opaque', hash: hashBytes(bytes), size: bytes.length, why: 'not UTF-8' };
    }
  } finally {
    await handle.close();
  }
}

/**
 * `readDiskSnapshot` of a real path, inside the workspace at the moment of reading: its folder is opened
 * and checked first (confined-directory.ts), and the file read through that folder. A folder that does
 * not exist means the file does not either.
 */
export async function readConfinedSnapshot(
  realPath: string,
  folders: readonly string[],
  maxBytes = MAX_FILE_BYTES,
): Promise<DiskSnapshot> {
  let directory: ConfinedDirectory;
  try {
    directory = await ConfinedDirectory.open(path.dirname(realPath), folders);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false };
    if (error instanceof PathOutsideWorkspaceError) throw error;
    throw new UnreadableFileError(`Cannot read ${realPath}: ${(error as Error).message}`);
  }
  try {
    return await readSnapshotIn(directory, path.basename(realPath), maxBytes);
  } finally {
    await directory.close();
  }
}

/** `readDiskSnapshot` of `name` in an open, checked directory; messages name the real path. */
export async function readSnapshotIn(
  directory: ConfinedDirectory,
  name: string,
  maxBytes = MAX_FILE_BYTES,
): Promise<DiskSnapshot> {
  try {
    return await readDiskSnapshot(await directory.entry(name), maxBytes);
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    throw new UnreadableFileError(namingFolder(error.message, directory.realPath));
  }
}

const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

function tooLarge(stats: Stats): DiskSnapshot {
  // Not read whole: size and mtime stand in for the content, enough to notice a change.
  const hash = createHash('sha256').update(`${stats.size}:${stats.mtimeMs}`).digest('hex');
  return { exists: true, kind: 'opaque', hash, size: stats.size, why: 'too large' };
}

async function readUpTo(handle: FileHandle, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(limit - total, 1024 * 1024));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/** What kind of entry it is, for an error message a person can act on. */
export function describeEntry(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'A symbolic link';
  if (stats.isDirectory()) return 'A folder';
  if (stats.isFIFO()) return 'A named pipe (FIFO)';
  if (stats.isSocket()) return 'A socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'A device';
  return 'An unusual entry';
}

/** Whether two snapshots show the same file content. */
export function sameContent(a: DiskSnapshot, b: DiskSnapshot): boolean {
  if (!a.exists || !b.exists) return a.exists === b.exists;
  if (a.kind === 'text' && b.kind === 'text') return a.text === b.text;
  if (a.kind === 'opaque' && b.kind === 'opaque') return a.hash === b.hash;
  return false;
}
