/**
 * The one way main reads a small file whose path someone else could have created (a settings file, a lock
 * or discovery file, Claude Code's settings.json): the open cannot block and only a regular file is read.
 *
 * A plain readFileSync of a FIFO waits for a writer forever, freezing the whole app (or `difftray setup`);
 * of a device it may never end. Here the open is O_NONBLOCK (a FIFO opens at once, with no writer), fstat of
 * the descriptor, the very thing opened, must show a regular file, and at most `maxBytes` are read however
 * much the file grows meanwhile. The lint rule in eslint/file-reads.js keeps other reads out of src-main.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { describeEntry } from './disk-snapshot';

export interface RegularFileOptions {
  /** Larger files are refused (default 16 MiB: settings and lock files are a few KiB). */
  maxBytes?: number;
  /** Refuse a symbolic link in the final name (O_NOFOLLOW) instead of reading its target. */
  noFollow?: boolean;
}

export const DEFAULT_MAX_READ_BYTES = 16 * 1024 * 1024;

/** A path that is there but is no regular file (a FIFO, a device, a folder), or one too large. */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREGULAR';
  constructor(
    message: string,
    readonly why: 'symlink' | 'not a regular file' | 'too large',
  ) {
    super(message);
  }
}

// O_NOCTTY: a terminal swapped in must not become the process's controlling terminal.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * The UTF-8 text of `file`, as readFileSync(file, 'utf8') would give it, but never blocking: a missing
 * file throws as readFileSync does (ENOENT, EACCES... with their codes), anything but a regular file
 * throws NotRegularFileError naming what it is.
 */
export function readRegularFile(file: string, options: RegularFileOptions = {}): string {
  return readRegularBytes(file, options).toString('utf8');
}

/** readRegularFile's bytes, undecoded. */
export function readRegularBytes(file: string, options: RegularFileOptions = {}): Buffer {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_READ_BYTES;
  const flags = FLAGS | (options.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
  let fd: number;
  try {
    fd = openSync(file, flags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP' && options.noFollow) {
      throw new NotRegularFileError(`A symbolic link, not a regular file: ${file}`, 'symlink');
    }
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      throw new NotRegularFileError(
        `${describeEntry(stats)}, not a regular file: ${file}`,
        'not a regular file',
      );
    if (stats.size > maxBytes)
      throw new NotRegularFileError(`${file} is larger than ${maxBytes} bytes`, 'too large');
    return readUpTo(fd, maxBytes, stats.size, file);
  } finally {
    closeSync(fd);
  }
}

/** Reads to the end, in one call when the file did not grow since fstat; refuses more than `maxBytes`. */
function readUpTo(fd: number, maxBytes: number, size: number, file: string): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  let ask = size + 1;
  for (;;) {
    const chunk = Buffer.allocUnsafe(ask);
    const got = readSync(fd, chunk, 0, ask, null);
    if (got === 0) break;
    chunks.push(chunk.subarray(0, got));
    total += got;
    if (total > maxBytes)
      throw new NotRegularFileError(`${file} is larger than ${maxBytes} bytes`, 'too large');
    ask = Math.min(maxBytes + 1 - total, 64 * 1024);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

/** readRegularFile without holding the thread while it reads: for texts of megabytes (an undo's). */
export async function readRegularFileAsync(file: string, options: RegularFileOptions = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_READ_BYTES;
  let handle;
  try {
    handle = await open(file, FLAGS | (options.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP' && options.noFollow) {
      throw new NotRegularFileError(`A symbolic link, not a regular file: ${file}`, 'symlink');
    }
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      throw new NotRegularFileError(
        `${describeEntry(stats)}, not a regular file: ${file}`,
        'not a regular file',
      );
    }
    if (stats.size > maxBytes)
      throw new NotRegularFileError(`${file} is larger than ${maxBytes} bytes`, 'too large');
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
