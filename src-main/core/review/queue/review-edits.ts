/**
 * The person's edits of a pending review (decisions, edited proposals, rebases) and their undo. Each
 * edit works on copies of the files it touches and commits them only if it succeeds, so a refused edit
 * changes nothing; the originals become its undo step.
 */
import type { DiskSnapshot } from '../../disk/disk-snapshot';
import { ReviewError, type FileState } from '../review-file';
import * as reviewFile from '../review-file';
import type { Review } from '../review-record';

/** Undo steps kept per review. */
const UNDO_LIMIT = 500;

/** Applies `operation` to copies of the named files of `review`, and keeps the originals to undo it. */
export function editFiles(
  review: Review,
  fileIndexes: readonly number[],
  operation: (files: FileState[]) => void,
): void {
  const originals = fileIndexes.map((fileIndex) => {
    const file = review.files[fileIndex];
    if (!file) throw new ReviewError(`Review ${review.id} has no file ${fileIndex}`);
    return file;
  });
  const copies = originals.map(reviewFile.cloneFileState);
  operation(copies);
  fileIndexes.forEach((fileIndex, i) => (review.files[fileIndex] = copies[i]!));
  review.undo.push(fileIndexes.map((fileIndex, i) => ({ fileIndex, before: originals[i]! })));
  if (review.undo.length > UNDO_LIMIT) review.undo.shift();
}

/**
 * Takes back the review's last edit. `seenOnDisk` is the latest snapshot the queue noted at a path: a
 * restored file whose base differs is judged against it, as the disk moved on meanwhile.
 */
export function undoLastEdit(
  review: Review,
  seenOnDisk: (path: string) => DiskSnapshot | undefined,
  now: number,
): void {
  const step = review.undo.pop();
  if (!step) throw new ReviewError('Nothing to undo');
  for (const { fileIndex, before } of step) {
    const current = review.files[fileIndex]!;
    // Cached contents are keyed by revision: a restored text must never reuse a number.
    if (before.baseText !== current.baseText || before.proposedText !== current.proposedText) {
      before.contentRevision = current.contentRevision + 1;
    } else {
      before.contentRevision = current.contentRevision;
    }
    // The disk moved on independently of the person's decisions: judge the restored file against it.
    if (before.base === current.base) before.disk = current.disk;
    else if (!review.request.remote) {
      const seen = seenOnDisk(before.path);
      if (seen) reviewFile.noteDisk(before, seen, now);
    }
    review.files[fileIndex] = before;
  }
}
