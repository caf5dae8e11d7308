/** Pure read-only views over the snapshot main sends. Hunks are shown exactly as main computed them. */
import type { AppSnapshot, HunkView, ReviewSummary } from '../shared/app-api';
import { hunkStats, type HunkDecision, type HunkStats } from '../shared/hunks';

/** Pending reviews, oldest first: the queue the person works through. */
export function pendingReviews(snapshot: AppSnapshot | null): ReviewSummary[] {
  if (!snapshot) return [];
  return snapshot.reviews
    .filter((review) => review.state === 'pending')
    .sort((a, b) => a.createdAt - b.createdAt);
}

export function findReview(snapshot: AppSnapshot | null, reviewId: string | null): ReviewSummary | undefined {
  if (!snapshot || reviewId === null) return undefined;
  return snapshot.reviews.find((review) => review.id === reviewId);
}

/** Cache key for a review's contents: it changes whenever any file's proposed text changes. */
export function contentKey(review: ReviewSummary): string {
  return `${review.id}@${review.files.map((file) => file.contentRevision).join(',')}`;
}

/** Position of one hunk: which file, and its position in that file's hunk list. */
export interface HunkRef {
  fileIndex: number;
  hunkIndex: number;
}

/** Every hunk of a review in reading order, so j/k can walk across files. */
export function hunkRefs(review: ReviewSummary): HunkRef[] {
  return review.files.flatMap((file, fileIndex) =>
    file.hunks.map((_, hunkIndex) => ({ fileIndex, hunkIndex })),
  );
}

export function hunkAt(review: ReviewSummary, ref: HunkRef): HunkView | undefined {
  return review.files[ref.fileIndex]?.hunks[ref.hunkIndex];
}

export type DecisionCounts = HunkStats;

/** Counts for the submit summary, over all files (a display tally; main remains the authority). */
export function countDecisions(review: ReviewSummary): DecisionCounts {
  const counts: DecisionCounts = { accepted: 0, rejected: 0, pending: 0 };
  for (const file of review.files) {
    const stats = hunkStats(
      file.hunks,
      file.hunks.map((hunk) => hunk.decision),
    );
    counts.accepted += stats.accepted;
    counts.rejected += stats.rejected;
    counts.pending += stats.pending;
  }
  return counts;
}

/** "2 accepted, 1 rejected" plus what submit will do with undecided hunks. */
export function submitSummary(counts: DecisionCounts): string {
  const parts = [`${counts.accepted} accepted`, `${counts.rejected} rejected`];
  if (counts.pending > 0) {
    const noun = counts.pending === 1 ? 'undecided hunk' : 'undecided hunks';
    parts.push(`${counts.pending} ${noun} will be accepted`);
  }
  return parts.join(', ');
}

export const decisionLabel: Record<HunkDecision, string> = {
  pending: 'Undecided',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

/** Past tense used in announcements: "Hunk 2 accepted". */
export const decisionVerb: Record<HunkDecision, string> = {
  pending: 'reset to undecided',
  accepted: 'accepted',
  rejected: 'rejected',
};

/** What a submit did, for the announcement: undecided hunks went in as accepted. */
export function submittedSummary(counts: DecisionCounts): string {
  return `${counts.accepted + counts.pending} accepted, ${counts.rejected} rejected`;
}

/** A path as the person thinks of it: relative to the workspace folder that holds it, when one does. */
export function displayPath(path: string, workspaceFolders: readonly string[]): string {
  let best = '';
  for (const folder of workspaceFolders) {
    const prefix = folder.endsWith('/') || folder.endsWith('\\') ? folder : `${folder}/`;
    const windowsPrefix = prefix.replace(/\//g, '\\');
    if ((path.startsWith(prefix) || path.startsWith(windowsPrefix)) && prefix.length > best.length)
      best = prefix;
  }
  return best ? path.slice(best.length) : path;
}
