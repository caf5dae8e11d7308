/**
 * What the Reject dialog says will happen, for this review's client: whether anything on disk changes,
 * and whether the agent hears the reason. Pure, so each kind of review is tested without a page.
 *
 * Whether a file's change is already on disk is the review's own fact (ReviewFileInfo.written: the
 * agent wrote it, `difftray review` of a working tree, watch mode, a turn review); rejected, such a
 * change is put back, unless the client writes its own files (ReviewFileInfo.revert 'client'): then it
 * is the client's to put back. A change not yet written is one the agent was waiting on: rejected,
 * nobody writes it.
 */
import type { ReviewItem } from '../../shared/app-api';
import { noteUnheardText } from './agent-note';

/** What rejecting does to the files: reverted in the working tree, or never written. */
export function rejectDiskText(review: Pick<ReviewItem, 'files'>): string {
  const total = review.files.length;
  // A client that writes its own files (revert 'client') puts back what it wrote: DiffTray does not.
  const theirs = review.files.filter((file) => file.written && file.revert === 'client').length;
  if (theirs > 0) return clientWrittenText(theirs, total);
  const written = review.files.filter((file) => file.written).length;
  if (written === 0) return 'The agent writes nothing: the files stay as they are.';
  if (written === total) {
    const what = total === 1 ? 'it' : `all ${total} files`;
    return `The change is already on disk: rejecting reverts ${what} in the working tree.`;
  }
  const files = written === 1 ? '1 file is' : `${written} files are`;
  return `${files} already changed on disk: rejecting reverts ${written === 1 ? 'it' : 'them'} in the working tree. The agent writes nothing of the rest.`;
}

/** A change the client already wrote itself: DiffTray leaves it on disk; the client hears of the rejection. */
function clientWrittenText(theirs: number, total: number): string {
  if (theirs === total) {
    return 'The agent already wrote this change itself: DiffTray leaves it on disk, and the agent is told it was rejected.';
  }
  const files = theirs === 1 ? '1 file is' : `${theirs} files are`;
  return `${files} already changed on disk by the agent itself: DiffTray leaves ${theirs === 1 ? 'it as it is' : 'them as they are'}, and the agent is told. The agent writes nothing of the rest.`;
}

/** Whether the reason reaches the agent: it is told why, or the reason stays in History. */
export function rejectNoteText(review: Pick<ReviewItem, 'client'>): string {
  const unheard = noteUnheardText(review.client.protocol);
  return unheard
    ? `${unheard} The reason is kept in History.`
    : `${review.client.name} is told why: the reason goes back with the rejection.`;
}
