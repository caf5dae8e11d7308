/**
 * A small file read at once, for the few reads that must be synchronous (ignore rules are consulted by
 * the watch walk as it goes; the `.git` file is looked at while git's answer is checked). The same rules
 * as every other read of a path someone else can create (disk-snapshot.ts): the entry is looked at
 * (lstat) before it is opened; the open cannot block (O_NONBLOCK: a FIFO is refused by fstat, not waited
 * on) and, unless links are allowed, does not follow a link in the final name (O_NOFOLLOW), even one
 * swapped in after the look; the descriptor opened must be the regular file looked at; at most
 * `maxBytes` are read.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync } from 'node:fs';

export type SmallFileRead =
  | { ok: true; text: string }
  | { ok: false; why: 'absent' | 'symlink' | 'not a regular file' | 'too large' | 'unreadable' };

const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * `followLinks`: the person's own files (their global excludes file is often a link into a dotfiles
 * folder) may be links; files in the workspace may not.
 */
export function readSmallFileSync(
  file: string,
  maxBytes: number,
  options: { followLinks?: boolean } = {},
): SmallFileRead {
  const follow = options.followLinks === true;
  let looked;
  try {
    looked = follow ? statSync(file, { bigint: true }) : lstatSync(file, { bigint: true });
  } catch (error) {
    return { ok: false, why: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : 'unreadable' };
  }
  if (looked.isSymbolicLink()) return { ok: false, why: 'symlink' };
  if (!looked.isFile()) return { ok: false, why: 'not a regular file' };
  if (looked.size > BigInt(maxBytes)) return { ok: false, why: 'too large' };
  let fd: number;
  try {
    fd = openSync(file, follow ? FLAGS : FLAGS | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, why: code === 'ELOOP' ? 'symlink' : code === 'ENOENT' ? 'absent' : 'unreadable' };
  }
  try {
    const opened = fstatSync(fd, { bigint: true });
    // Swapped between the look and the open: not the entry looked at, not read.
    if (!opened.isFile() || opened.ino !== looked.ino || opened.dev !== looked.dev) {
      return { ok: false, why: 'not a regular file' };
    }
    if (opened.size > BigInt(maxBytes)) return { ok: false, why: 'too large' };
    // One byte more than its size: a file that grew while being read is not taken half read.
    const bytes = Buffer.alloc(Number(opened.size) + 1);
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(fd, bytes, read, bytes.length - read, read);
      if (got === 0) break;
      read += got;
    }
    if (read === bytes.length) return { ok: false, why: 'unreadable' };
    return { ok: true, text: bytes.subarray(0, read).toString('utf8') };
  } catch {
    return { ok: false, why: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}
