/**
 * A small file read at once, answered as an outcome instead of an error, for the synchronous reads of the
 * watch walk (ignore rules are consulted as it goes; the `.git` file is looked at while git's answer is
 * checked). The reading itself is regular-file.ts's, the one reader of paths someone else can create:
 * the open cannot block (a FIFO is refused by fstat, not waited on), unless links are allowed it does not
 * follow a link in the final name (O_NOFOLLOW, even one swapped in after a look), and at most `maxBytes`
 * are read.
 */
import { NotRegularFileError, readRegularFile } from './regular-file';

export type SmallFileRead =
  | { ok: true; text: string }
  | { ok: false; why: 'absent' | 'symlink' | 'not a regular file' | 'too large' | 'unreadable' };

/**
 * `followLinks`: the person's own files (their global excludes file is often a link into a dotfiles
 * folder) may be links; files in the workspace may not.
 */
export function readSmallFileSync(
  file: string,
  maxBytes: number,
  options: { followLinks?: boolean } = {},
): SmallFileRead {
  try {
    return { ok: true, text: readRegularFile(file, { maxBytes, noFollow: options.followLinks !== true }) };
  } catch (error) {
    if (error instanceof NotRegularFileError) return { ok: false, why: error.why };
    return { ok: false, why: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : 'unreadable' };
  }
}
