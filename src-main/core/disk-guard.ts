/** Reads the files of a review from disk and tells the queue, so decisions are judged against the present. */
import { readConfinedSnapshot } from './disk-snapshot';
import type { ReviewQueue } from './review-queue';

/** Each file is read only if it is still inside `workspaceFolders` and a regular file. */
export async function refreshFromDisk(
  queue: ReviewQueue,
  paths: Iterable<string>,
  workspaceFolders: readonly string[],
): Promise<void> {
  for (const path of paths) {
    try {
      queue.noteDisk(path, await readConfinedSnapshot(path, workspaceFolders));
    } catch {
      // Unreadable now (a directory, a symlink swapped in, no permission): submit will be refused by the
      // next successful read, and the writer refuses such a file at the moment of writing anyway.
    }
  }
}

/** Submit, after a fresh look at the disk: a file changed since its proposal refuses the submit. */
export async function submitWithDiskCheck(
  queue: ReviewQueue,
  id: string,
  workspaceFolders: readonly string[],
  note?: string,
): Promise<void> {
  await refreshFromDisk(queue, queue.paths(id), workspaceFolders);
  queue.submit(id, note);
}
