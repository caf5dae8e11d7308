/** Looks at the files of a review on disk and tells the queue, so decisions are judged against the present. */
import { MAX_FILE_BYTES, readConfinedSnapshot, type DiskSnapshot } from './disk-snapshot';
import { ReviewError, type ReviewQueue } from '../review/review-queue';
import { messageOf } from '../../../shared/error-message';

/**
 * What is at `path` now, looked at inside `workspaceFolders` and only if a regular file. The snapshot the
 * queue already holds is reused, unread, when the file's signature shows no change since it was read
 * (disk-snapshot.ts): a file left alone is read once, when it is proposed.
 */
function lookAtDisk(
  queue: ReviewQueue,
  path: string,
  workspaceFolders: readonly string[],
): Promise<DiskSnapshot> {
  return readConfinedSnapshot(path, workspaceFolders, MAX_FILE_BYTES, queue.knownDisk(path));
}

/** Notes what is on disk at each path; a path that cannot be looked at now is skipped. */
export async function refreshFromDisk(
  queue: ReviewQueue,
  paths: Iterable<string>,
  workspaceFolders: readonly string[],
): Promise<void> {
  for (const path of paths) {
    try {
      queue.noteDisk(path, await lookAtDisk(queue, path, workspaceFolders));
    } catch {
      // Unreadable now (a directory, a symlink swapped in, no permission): submit refuses it, and the
      // writer refuses such a file at the moment of writing anyway.
    }
  }
}

/**
 * Submit, after a fresh look at the disk: a file changed since its proposal refuses the submit, and so
 * does one that cannot be looked at now (a symlink or a FIFO swapped in, its folder moved outside the
 * workspace), since the client would write the answer there.
 */
export async function submitWithDiskCheck(
  queue: ReviewQueue,
  id: string,
  workspaceFolders: readonly string[],
  note?: string,
): Promise<void> {
  const seen: Array<[string, DiskSnapshot]> = [];
  for (const path of queue.paths(id)) {
    try {
      seen.push([path, await lookAtDisk(queue, path, workspaceFolders)]);
    } catch (error) {
      throw new ReviewError(`Not submitted, the file cannot be checked on disk: ${messageOf(error)}`);
    }
  }
  // Noted together, right before the submit: nothing older can be noted in between.
  for (const [path, snapshot] of seen) queue.noteDisk(path, snapshot);
  queue.submit(id, note);
}
