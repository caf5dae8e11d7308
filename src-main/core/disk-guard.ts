/** Reads the files of a review from disk and tells the queue, so decisions are judged against the present. */
import { readDiskSnapshot } from './disk-snapshot';
import type { ReviewQueue } from './review-queue';

export async function refreshFromDisk(queue: ReviewQueue, paths: Iterable<string>): Promise<void> {
  for (const path of paths) {
    try {
      queue.noteDisk(path, await readDiskSnapshot(path));
    } catch {
      // Unreadable now (a directory, no permission): submit will be refused by the next successful read,
      // and an unreadable file cannot be written over by accident either.
    }
  }
}

/** Submit, after a fresh look at the disk: a file changed since its proposal refuses the submit. */
export async function submitWithDiskCheck(queue: ReviewQueue, id: string): Promise<void> {
  await refreshFromDisk(queue, queue.paths(id));
  queue.submit(id);
}
