/**
 * What became on disk of an ended review's changes that were already written (reviewed after the fact:
 * a turn review, "Changes on disk", `difftray review` of a working tree), in History's and the ended
 * banner's words. Only main knows whether a revert happened (ReviewFileInfo.revert): these words say
 * "reverted" only when it did, and never when the file changed meanwhile or the client writes its own.
 */
import type { ReviewItem } from '../../shared/app-api';

/** How many of a review's written files had their rejected part put back, or not and why. */
export interface RevertTally {
  reverted: number;
  /** Not reverted: the file changed on disk since it was reviewed (DiffTray never overwrites it). */
  conflict: number;
  /** Not reverted: the write failed (the review's notes say why). */
  failed: number;
  /** Rejected, but the client writes its own files: DiffTray reverted nothing. */
  client: number;
}

type Ended = Pick<ReviewItem, 'state' | 'files'>;

export function revertTally(review: Ended): RevertTally {
  const tally: RevertTally = { reverted: 0, conflict: 0, failed: 0, client: 0 };
  for (const { revert } of review.files) {
    if (revert === undefined) continue;
    // 'client' is known from the start; only a rejected review has asked the client to put anything back.
    if (revert === 'client' && review.state !== 'rejected') continue;
    tally[revert]++;
  }
  return tally;
}

function notReverted(tally: RevertTally): number {
  return tally.conflict + tally.failed;
}

/** "(changed on disk)" when that is why every file left was not reverted. */
function becauseChanged(tally: RevertTally): string {
  return tally.failed === 0 ? ' (changed on disk)' : '';
}

/**
 * The short words for History: "reverted", "not reverted (changed on disk)", "1 of 2 files not
 * reverted (changed on disk)", "left to the agent"; undefined when there was nothing to put back.
 */
export function revertWords(review: Ended): string | undefined {
  const tally = revertTally(review);
  const left = notReverted(tally);
  if (tally.reverted === 0 && left === 0) return tally.client > 0 ? 'left to the agent' : undefined;
  if (left === 0) return 'reverted';
  if (tally.reverted === 0) return `not reverted${becauseChanged(tally)}`;
  return `${left} of ${left + tally.reverted} files not reverted${becauseChanged(tally)}`;
}

/**
 * The ended banner's sentence on the disk, after what the person decided; undefined when nothing
 * written was to be put back.
 */
export function revertSentence(review: Ended & Pick<ReviewItem, 'client'>): string | undefined {
  const tally = revertTally(review);
  const left = notReverted(tally);
  const written = tally.reverted + left;
  if (written === 0) {
    if (tally.client === 0) return undefined;
    return `DiffTray reverted nothing: ${review.client.name} writes its own files and was told.`;
  }
  const what = review.state === 'rejected' ? 'the change' : 'what was rejected';
  if (left === 0) return `DiffTray reverted ${what} on disk.`;
  const changed =
    tally.conflict === 1
      ? ' the file changed on disk since it was reviewed, and DiffTray does not overwrite it.'
      : ' the files changed on disk since they were reviewed, and DiffTray does not overwrite them.';
  const why = tally.failed === 0 ? changed : ' see the notes below.';
  if (tally.reverted === 0) return `Not reverted:${why}`;
  return `${left} of ${written} files not reverted:${why}`;
}
