/** Pure read-only views over the snapshot main sends. Hunks are shown exactly as main computed them. */
import type {
  AppSnapshot,
  HunkView,
  ReviewFileSummary,
  ReviewItem,
  ReviewState,
  ReviewSummary,
} from '../../shared/app-api';
import type { HunkDecision, HunkStats } from '../../shared/hunks';
import type { HunkState } from '../../shared/line-decisions';
import { messageOf } from '../../shared/error-message';
import { revertSentence } from './revert-words';

/** Pending reviews, oldest first: the queue the person works through. */
export function pendingReviews(snapshot: AppSnapshot | null): ReviewItem[] {
  if (!snapshot) return [];
  return snapshot.reviews
    .filter((review) => review.state === 'pending')
    .sort((a, b) => a.createdAt - b.createdAt);
}

/** How many ended reviews the queue lists below the pending ones. */
export const ENDED_SHOWN = 10;

/** Ended reviews, most recently ended first, at most `limit` of them. */
export function endedReviews(snapshot: AppSnapshot | null, limit = ENDED_SHOWN): ReviewItem[] {
  if (!snapshot) return [];
  const endedAt = (review: ReviewItem): number => review.decidedAt ?? review.createdAt;
  return snapshot.reviews
    .filter((review) => review.state !== 'pending')
    .sort((a, b) => endedAt(b) - endedAt(a))
    .slice(0, limit);
}

/**
 * True when the agent side ended the review (its CLI went away, or sent a newer proposal for the same
 * tab), not the person: such a review stays on screen so the person sees what happened to it.
 */
export function endedByAgent(review: ReviewItem): boolean {
  return review.state === 'cancelled' || review.state === 'superseded';
}

export const reviewStateLabel: Record<ReviewState, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  superseded: 'Superseded',
};

/** The queue's label for an ended review: "Accepted", "Rejected — too broad", "Cancelled — client disconnected". */
export function endedLabel(review: ReviewItem): string {
  const label = reviewStateLabel[review.state];
  const reason = review.reason?.trim();
  const withReason = review.state === 'rejected' || review.state === 'cancelled';
  return withReason && reason ? `${label} — ${reason}` : label;
}

/**
 * The sentence shown above the diff of an ended review: what happened, whether anything went out, and
 * for a change already on disk what its rejection did there (revert-words.ts).
 * `inPart`: an accepted review of which something was rejected (acceptedInPart).
 */
export function endedBannerText(review: ReviewItem, inPart = false): string {
  const reason = review.reason?.trim();
  switch (review.state) {
    case 'cancelled': {
      // A vanished client received nothing; a client that closed its tab got no decision of the person's.
      const gone = reason === 'client disconnected' || !review.client.connected;
      const tail = gone
        ? `nothing was sent to ${review.client.name}.`
        : `your decisions were not sent to ${review.client.name}.`;
      return reason ? `Cancelled: ${reason} — ${tail}` : `Cancelled — ${tail}`;
    }
    case 'superseded':
      return 'Superseded by a newer proposal.';
    case 'accepted': {
      const disk = revertSentence(review);
      if (disk) return `Partially accepted. ${disk}`;
      return inPart ? 'Partially accepted: what was rejected was left out.' : 'Accepted.';
    }
    case 'rejected': {
      const said = reason ? `Rejected: ${reason}` : 'Rejected.';
      const disk = revertSentence(review);
      if (!disk) return said;
      // The reason is the person's words: a stop is added only where it has none.
      return `${said}${reason && !/[.!?]$/.test(reason) ? '.' : ''} ${disk}`;
    }
    case 'pending':
      return '';
  }
}

/** Whether any line of the file was rejected (a file without hunks: the file itself). */
function somethingRejected(file: ReviewFileSummary): boolean {
  if (file.hunks.length === 0) return file.fileDecision === 'rejected';
  return file.hunks.some(
    (hunk) =>
      hunk.decision === 'rejected' ||
      (hunk.lines !== undefined && [...hunk.lines.removed, ...hunk.lines.added].includes('rejected')),
  );
}

/**
 * An accepted review of which something was rejected (a file, a hunk or some lines): what was applied is
 * only part of the proposal. Undecided hunks went in as accepted, so they do not make it partial, and
 * neither does a hunk 'mixed' of accepted and undecided lines: the hunks are looked at, not the files'
 * combined state.
 */
export function acceptedInPart(review: Pick<ReviewSummary, 'state' | 'files'>): boolean {
  return review.state === 'accepted' && review.files.some(somethingRejected);
}

/** Shown instead of the diff of an ended review whose texts main let go (ReviewSummary.textsDropped). */
export function droppedTextsText(review: ReviewItem): string {
  const why =
    review.state === 'cancelled' || review.state === 'superseded'
      ? 'nobody answered this review, so DiffTray let them go'
      : 'History keeps the full texts of recent reviews only';
  return `The texts of this review are no longer kept: ${why}. Its outcome and the decision on each hunk are kept.`;
}

/** The pending review that likely replaced a superseded one: same client and tab, arrived no earlier. */
export function newerProposal(snapshot: AppSnapshot | null, review: ReviewItem): ReviewItem | undefined {
  if (review.state !== 'superseded') return undefined;
  return pendingReviews(snapshot).find(
    (other) =>
      other.id !== review.id &&
      other.client.id === review.client.id &&
      // The tab name, when the CLI gave one, is kept as the description.
      (review.description !== undefined
        ? other.description === review.description
        : other.title === review.title) &&
      other.createdAt >= review.createdAt,
  );
}

export function findReview(snapshot: AppSnapshot | null, reviewId: string | null): ReviewItem | undefined {
  if (!snapshot || reviewId === null) return undefined;
  return snapshot.reviews.find((review) => review.id === reviewId);
}

/**
 * Cache key for a review's contents: it changes whenever any file's text changes, and when a change
 * on disk is detected (the contents then carry what is on disk, `diskText`).
 */
export function contentKey(review: ReviewItem): string {
  const part = (file: ReviewItem['files'][number]): string =>
    file.disk.state === 'unchanged'
      ? String(file.contentRevision)
      : `${file.contentRevision}:${file.disk.state}${file.disk.detectedAt ?? ''}`;
  return `${review.id}@${review.files.map(part).join(',')}`;
}

/** Whether `key` is a contentKey of the review `reviewId`, of whatever revision. */
export const isContentKeyOf = (key: string, reviewId: string): boolean => key.startsWith(`${reviewId}@`);

/** Position of one hunk: which file, and its position in that file's hunk list. */
export interface HunkRef {
  fileIndex: number;
  hunkIndex: number;
}

export function hunkAt(review: ReviewSummary, ref: HunkRef): HunkView | undefined {
  return review.files[ref.fileIndex]?.hunks[ref.hunkIndex];
}

/** Hunks by state; `mixed` counts hunks with some lines accepted and others rejected. */
export interface DecisionCounts extends HunkStats {
  mixed?: number;
}

/**
 * Counts for the submit summary, over all files (a display tally; main remains the authority).
 * A binary file has no hunks: its file decision counts as one.
 */
export function countDecisions(review: ReviewSummary): DecisionCounts {
  const counts = { accepted: 0, rejected: 0, pending: 0, mixed: 0 };
  for (const file of review.files) {
    if (file.binary) counts[file.fileDecision] += 1;
    else for (const hunk of file.hunks) counts[hunk.decision] += 1;
  }
  return counts;
}

/** "2 accepted, 1 rejected" plus what submit will do with undecided hunks. */
export function submitSummary(counts: DecisionCounts): string {
  const parts = [`${counts.accepted} accepted`, `${counts.rejected} rejected`];
  if (counts.mixed) parts.push(`${counts.mixed} mixed`);
  if (counts.pending > 0) {
    const noun = counts.pending === 1 ? 'undecided hunk' : 'undecided hunks';
    parts.push(`${counts.pending} ${noun} will be accepted`);
  }
  return parts.join(', ');
}

const hunks = (n: number): string => `${n} ${n === 1 ? 'hunk' : 'hunks'}`;

/**
 * What came of an ended review's hunks, in the toolbar's place of the submit summary. Accepted:
 * undecided hunks went in as accepted. Rejected as a whole: nothing was kept, whatever the hunks were
 * marked. Cancelled or superseded: nothing the person decided was applied.
 */
export function endedTally(review: Pick<ReviewItem, 'state'>, counts: DecisionCounts): string {
  const total = counts.accepted + counts.rejected + counts.pending + (counts.mixed ?? 0);
  switch (review.state) {
    case 'accepted':
      return submittedSummary(counts);
    case 'rejected':
      return total === 1 ? 'Rejected: its hunk was not kept' : `Rejected: none of its ${hunks(total)} kept`;
    case 'cancelled':
    case 'superseded':
    case 'pending': {
      const mixed = counts.mixed ? `, ${counts.mixed} mixed` : '';
      const marks = `${counts.accepted} accepted, ${counts.rejected} rejected${mixed}, ${counts.pending} undecided`;
      return review.state === 'pending' ? marks : `Nothing applied (marked: ${marks})`;
    }
  }
}

/** The one word for each decision state, for hunks and files alike. */
export const decisionLabel: Record<HunkState, string> = {
  pending: 'Undecided',
  accepted: 'Accepted',
  rejected: 'Rejected',
  mixed: 'Mixed',
};

/** Past tense used in announcements: "Hunk 2 accepted". */
export const decisionVerb: Record<HunkDecision, string> = {
  pending: 'reset to undecided',
  accepted: 'accepted',
  rejected: 'rejected',
};

/** What a submit did, for the announcement: undecided hunks went in as accepted. */
export function submittedSummary(counts: DecisionCounts): string {
  const mixed = counts.mixed ? `, ${counts.mixed} mixed` : '';
  return `${counts.accepted + counts.pending} accepted, ${counts.rejected} rejected${mixed}`;
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

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A message (an error from main, say) with the paths in it shortened the way displayPath shortens
 * them, so it names files as the rest of the window does. Only whole paths that start with a
 * workspace folder are shortened, the longest folder first.
 */
export function shortenPaths(text: string, workspaceFolders: readonly string[]): string {
  const folders = workspaceFolders
    .map((folder) => folder.replace(/[\\/]+$/, ''))
    .filter((folder) => folder.length > 0)
    .sort((a, b) => b.length - a.length);
  let result = text;
  for (const folder of folders) {
    for (const variant of new Set([folder, folder.replace(/\//g, '\\')])) {
      // Not inside a longer path or word: at the start, or after a space, quote, bracket, colon…
      const pattern = new RegExp(`(^|[^\\w.~/\\\\-])${escapeRegExp(variant)}[/\\\\](?=[^\\s/\\\\])`, 'g');
      result = result.replace(pattern, '$1');
    }
  }
  return result;
}

/** What an error says, with workspace paths shortened (shortenPaths). */
export function errorMessage(error: unknown, workspaceFolders: readonly string[]): string {
  const text = messageOf(error);
  return shortenPaths(text, workspaceFolders);
}
