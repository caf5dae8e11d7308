/**
 * Watch mode's growing review: one pending review per watched folder takes in the files changed while
 * it waits. A file already in it takes the new proposal in place (its base stays: the baseline has not
 * moved), and its decisions start over, as a decision made on one text is never applied to another.
 * Other files are added. Worked out here without touching the review, so a growth the caps refuse
 * changes nothing; `applyGrowth` then commits it.
 */
import { filesTextBytes } from '../history-texts';
import type { FileState, ProposedFile } from '../review-file';
import * as reviewFile from '../review-file';
import type { Review } from '../review-record';
import { boundedNote, boundedTitle } from '../review-labels';

export interface Growth {
  files: FileState[];
  proposed: ProposedFile[];
  /** Indexes of the files whose text was replaced. */
  replaced: Set<number>;
  /** Paths whose decisions were reset. */
  reset: string[];
  /** What the grown review holds while pending. */
  pendingBytes: number;
}

/** `review` with `files` taken in. */
export function growthOf(review: Review, files: readonly ProposedFile[]): Growth {
  const states = [...review.files];
  const proposed = [...review.request.files];
  const indexOf = new Map(states.map((state, index) => [state.path, index]));
  const replaced = new Set<number>();
  const reset: string[] = [];
  let pendingBytes = review.pendingBytes;
  for (const file of files) {
    const state = reviewFile.createFileState(file);
    pendingBytes += filesTextBytes([], [file]);
    const index = indexOf.get(file.path);
    if (index === undefined) {
      indexOf.set(file.path, states.length);
      states.push(state);
      proposed.push(file);
      continue;
    }
    const before = states[index]!;
    pendingBytes -= filesTextBytes([], [proposed[index]!]);
    // Cached contents are keyed by revision: the new text must never reuse a number.
    state.contentRevision = before.contentRevision + 1;
    if (reviewFile.hasDecisions(before) && !reset.includes(file.path)) reset.push(file.path);
    states[index] = state;
    proposed[index] = file;
    replaced.add(index);
  }
  return { files: states, proposed, replaced, reset, pendingBytes };
}

/** Commits `growth` to `review`, titled `title`; answers the paths of the files it added. */
export function applyGrowth(review: Review, growth: Growth, title: string): string[] {
  const added = growth.files.slice(review.files.length).map((file) => file.path);
  review.files = growth.files;
  review.request.files = growth.proposed;
  review.request.title = title;
  review.title = boundedTitle(title);
  // An undo step would bring back a decision on a text that is gone.
  review.undo = review.undo.filter((step) => step.every(({ fileIndex }) => !growth.replaced.has(fileIndex)));
  if (growth.reset.length > 0) {
    review.notes.push(
      boundedNote(
        `Changed again on disk while waiting; what was decided in it was reset: ${growth.reset.join(', ')}`,
      ),
    );
  }
  return added;
}
