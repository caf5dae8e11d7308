/**
 * What submitting a pending review decides: every file composed from its decisions (undecided lines
 * count as accepted). Refused while a file differs on disk from its base or holds conflicts: a
 * decision made against one text must never be applied to another.
 */
import { ReviewError } from '../review-file';
import * as reviewFile from '../review-file';
import type { Review, ReviewOutcome } from '../review-record';
import { agentComments } from './line-comments';

/** The outcome of submitting `review` with the person's `agentNote`; throws ReviewError when refused. */
export function submittedOutcome(review: Review, agentNote: string | undefined): ReviewOutcome {
  // An approval card has no files: submitting it allows.
  if (review.request.approval) return { kind: 'accepted', files: [], ...(agentNote && { note: agentNote }) };
  const comments = agentComments(review);
  for (const file of review.files) {
    if (file.disk.state !== 'unchanged') {
      throw new ReviewError(
        `${file.path} changed on disk (${file.disk.state}) since it was proposed: rebase or reject`,
      );
    }
    if (file.conflicts > 0) {
      throw new ReviewError(
        `${file.path} has ${file.conflicts} unresolved conflict${file.conflicts === 1 ? '' : 's'}`,
      );
    }
  }
  const files = review.files.map(reviewFile.composeFinal);
  // A submit that keeps nothing of the proposal is a rejection, and is recorded as one; the note,
  // if any, is then its reason. The comments go with either.
  return files.every((f) => !f.changed)
    ? { kind: 'rejected', reason: agentNote ?? 'every hunk rejected', ...(comments && { comments }) }
    : { kind: 'accepted', files, ...(agentNote && { note: agentNote }), ...(comments && { comments }) };
}
