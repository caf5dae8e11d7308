/**
 * "Undo changes on disk" in History: what the confirmation names and what the status line says after.
 * Pure text; UndoWrites.tsx shows it.
 */
import type { UndoableWrites, UndoWritesResult } from '../../shared/app-api';
import { displayPath } from '../review/review-model';

/** The set of a review of this run, by its review id: what History shows the button on. */
export function undoableOf(
  sets: readonly UndoableWrites[] | undefined,
  reviewId: string,
): UndoableWrites | undefined {
  return sets?.find((set) => set.thisRun && set.reviewId === reviewId);
}

/** Sets written by an earlier run of DiffTray, whose reviews are no longer in History. */
export function earlierUndoable(sets: readonly UndoableWrites[] | undefined): UndoableWrites[] {
  return (sets ?? []).filter((set) => !set.thisRun && !set.spent);
}

/** The question asked before anything is written. */
export function undoQuestion(set: UndoableWrites): string {
  const count = set.files.length;
  const what = count === 1 ? 'this file as it was' : `these ${count} files as they were`;
  return `Put back ${what} before DiffTray wrote ${count === 1 ? 'it' : 'them'}? A file changed since is left alone and offered as a merge to review.`;
}

/** What happened, in one line for the status line. */
export function undoOutcomeText(result: UndoWritesResult, folders: readonly string[]): string {
  const shown = (paths: readonly string[]) => paths.map((p) => displayPath(p, folders)).join(', ');
  const parts: string[] = [];
  if (result.restored.length > 0) parts.push(`Put back ${shown(result.restored)}`);
  if (result.changedSince.length > 0) {
    const merge = result.mergeReviewId ? '; the undo waits as a merge review in the queue' : '';
    parts.push(`Changed on disk since, left as they are: ${shown(result.changedSince)}${merge}`);
  }
  let failed = false;
  for (const { path, reason } of result.failed) {
    failed = true;
    if (result.changedSince.includes(path)) continue;
    parts.push(`Not put back: ${displayPath(path, folders)} (${reason})`);
  }
  // What failed keeps its saved text (undo-writes.ts): the same undo can be tried again.
  if (failed) parts.push('The undo of what was not put back stays available, to try again');
  return parts.length > 0 ? parts.join('. ') : 'Nothing to put back';
}
