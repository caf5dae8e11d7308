import { create } from 'zustand';
import type { AppSnapshot, ReviewFileContent, ReviewSummary } from '../shared/app-api';
import type { ConnectionStatus } from './carriers/types';
import { contentKey, endedByAgent, findReview, hunkRefs, pendingReviews, type HunkRef } from './review-model';
import { loadPrefs, savePrefs, type ViewPrefs } from './prefs';
import { pauseForAutoSelection, type KeyPause } from './key-pause';
import { queueOrder } from './sidebar-model';
import {
  announced,
  diskChangeNotice,
  endedByAgentNotice,
  pauseNoticeDropped,
  pauseNoticeStarted,
  type StatusLine,
} from './status-line';

export type ContentEntry =
  | { status: 'loading' }
  | { status: 'ready'; files: ReviewFileContent[] }
  | { status: 'error'; message: string }
  /** Main no longer keeps this review's texts (ReviewSummary.textsDropped): there is nothing to load. */
  | { status: 'dropped' };

/** The current hunk; hunkIndex is null when the shown file has no hunks. */
export interface Cursor {
  fileIndex: number;
  hunkIndex: number | null;
}

/** The app's state; the status line's fields and how they change are status-line.ts. */
export interface AppState extends StatusLine {
  snapshot: AppSnapshot | null;
  connection: ConnectionStatus;
  connectionDetail: string | undefined;
  selectedReviewId: string | null;
  cursors: Record<string, HunkRef>;
  /** Fetched file contents keyed by contentKey(review), i.e. per review and content revision. */
  contents: Record<string, ContentEntry>;
  prefs: ViewPrefs;

  applySnapshot(snapshot: AppSnapshot): void;
  setConnection(status: ConnectionStatus, detail?: string): void;
  selectReview(reviewId: string): void;
  selectAdjacentReview(delta: 1 | -1): void;
  setCursor(reviewId: string, ref: HunkRef): void;
  /** Moves the current hunk by delta across files; returns the new position. */
  moveCursor(delta: 1 | -1): HunkRef | undefined;
  setContent(key: string, entry: ContentEntry): void;
  setPrefs(prefs: Partial<ViewPrefs>): void;
  announce(text: string): void;
  /** The pause ended: the status line stops saying that keys are paused. */
  endKeyPause(pause: KeyPause): void;
}

export function resolveCursor(review: ReviewSummary, ref: HunkRef | undefined): Cursor {
  const fileCount = review.files.length;
  const firstWithHunks = review.files.findIndex((file) => file.hunks.length > 0);
  const wanted = ref?.fileIndex ?? Math.max(0, firstWithHunks);
  const fileIndex = Math.min(Math.max(0, wanted), Math.max(0, fileCount - 1));
  const hunkCount = review.files[fileIndex]?.hunks.length ?? 0;
  if (hunkCount === 0) return { fileIndex, hunkIndex: null };
  return { fileIndex, hunkIndex: Math.min(Math.max(0, ref?.hunkIndex ?? 0), hunkCount - 1) };
}

/**
 * Which review to show after a snapshot. A review the person is looking at stays selected while it
 * is pending: a new arrival must never pull the view away. It also stays when the agent ended it
 * (cancelled: the CLI went away; superseded: the CLI sent a newer proposal), so the person sees what
 * happened instead of having it vanish, and when the person chose an already ended review to look at.
 * Only when nothing is selected, or the person's own submit or reject ended the selected review, we
 * move on to the review that took its place in the queue.
 */
export function chooseSelection(
  previous: AppSnapshot | null,
  next: AppSnapshot,
  selectedId: string | null,
): string | null {
  const current = findReview(next, selectedId);
  if (current) {
    if (current.state === 'pending' || endedByAgent(current)) return current.id;
    const before = findReview(previous, selectedId);
    if (before !== undefined && before.state !== 'pending') return current.id;
  }
  // The queue as shown: grouped by client session (sidebar-model.ts).
  const queue = queueOrder(next);
  if (queue.length === 0) return null;
  const oldQueue = queueOrder(previous);
  const oldPosition = oldQueue.findIndex((review) => review.id === selectedId);
  if (oldPosition < 0) return queue[0]?.id ?? null;
  // The first review after the ended one that is still pending, else the last one left.
  const successor = oldQueue
    .slice(oldPosition + 1)
    .find((old) => queue.some((review) => review.id === old.id));
  return successor?.id ?? queue[queue.length - 1]?.id ?? null;
}

export const useAppStore = create<AppState>()((set, get) => ({
  snapshot: null,
  connection: 'connecting',
  connectionDetail: undefined,
  selectedReviewId: null,
  cursors: {},
  contents: {},
  prefs: loadPrefs(),
  announcement: null,
  keyPause: null,
  beforePause: null,

  applySnapshot(snapshot) {
    const state = get();
    const selectedReviewId = chooseSelection(state.snapshot, snapshot, state.selectedReviewId);
    const queue = pendingReviews(snapshot);
    const selected = findReview(snapshot, selectedReviewId);
    // Pending reviews and the one on screen, even ended, keep their cursor and contents.
    const kept = selected && selected.state !== 'pending' ? [...queue, selected] : queue;
    const keptIds = new Set(kept.map((review) => review.id));
    const keptKeys = new Set(kept.map(contentKey));
    // Forget what belongs to ended reviews or to superseded content revisions.
    const contents = Object.fromEntries(Object.entries(state.contents).filter(([key]) => keptKeys.has(key)));
    const cursors = Object.fromEntries(Object.entries(state.cursors).filter(([id]) => keptIds.has(id)));
    // Undo lives in main (ReviewSummary.canUndo), not here.
    set({ snapshot, selectedReviewId, contents, cursors });
    // Say so when the agent ends the review the person is working on.
    const ended = endedByAgentNotice(findReview(state.snapshot, selectedReviewId), selected);
    if (ended !== null) {
      // Nothing is left to decide, so no "keys paused" notice either.
      set({ keyPause: null, beforePause: null });
      get().announce(ended);
    }
    // A review the person did not choose came up: hold decision keys a moment, and say so.
    const now = Date.now();
    const pause = pauseForAutoSelection(state.selectedReviewId, selected, now);
    if (pause) set(pauseNoticeStarted(get(), pause, now));
    // A file of the review on screen changed on disk: said once, as it happens (the banner stays).
    const diskChange = diskChangeNotice(state.snapshot, snapshot, selected);
    if (diskChange !== null) get().announce(diskChange);
  },

  setConnection(connection, detail) {
    set({ connection, connectionDetail: detail });
  },

  selectReview(reviewId) {
    // The person chose it: no pause.
    set({ selectedReviewId: reviewId, ...pauseNoticeDropped(get()) });
  },

  selectAdjacentReview(delta) {
    const { snapshot, selectedReviewId } = get();
    const queue = queueOrder(snapshot);
    if (queue.length === 0) return;
    const position = queue.findIndex((review) => review.id === selectedReviewId);
    // From an ended review (not in the queue), both keys go to the first pending one.
    const target = position < 0 ? 0 : Math.min(Math.max(0, position + delta), queue.length - 1);
    const review = queue[target];
    if (review) set({ selectedReviewId: review.id, ...pauseNoticeDropped(get()) });
  },

  setCursor(reviewId, ref) {
    set({ cursors: { ...get().cursors, [reviewId]: ref } });
  },

  moveCursor(delta) {
    const { snapshot, selectedReviewId, cursors } = get();
    const review = findReview(snapshot, selectedReviewId);
    if (!review) return undefined;
    const refs = hunkRefs(review);
    if (refs.length === 0) return undefined;
    const cursor = resolveCursor(review, cursors[review.id]);
    const position = refs.findIndex(
      (ref) => ref.fileIndex === cursor.fileIndex && ref.hunkIndex === cursor.hunkIndex,
    );
    let next: HunkRef | undefined;
    if (position >= 0) {
      next = refs[Math.min(Math.max(0, position + delta), refs.length - 1)];
    } else if (delta > 0) {
      // The shown file has no hunks: step to the nearest file that has some.
      next = refs.find((ref) => ref.fileIndex > cursor.fileIndex) ?? refs[refs.length - 1];
    } else {
      next = refs.findLast((ref) => ref.fileIndex < cursor.fileIndex) ?? refs[0];
    }
    if (next) get().setCursor(review.id, next);
    return next;
  },

  setContent(key, entry) {
    set({ contents: { ...get().contents, [key]: entry } });
  },

  setPrefs(partial) {
    const prefs = { ...get().prefs, ...partial };
    savePrefs(prefs);
    set({ prefs });
  },

  announce(text) {
    set(announced(get(), text, Date.now()));
  },

  endKeyPause(pause) {
    // A newer pause has its own end.
    if (get().keyPause === pause) set(pauseNoticeDropped(get()));
  },
}));
