import { create } from 'zustand';
import type {
  AppChange,
  AppSnapshot,
  ReviewDetail,
  ReviewFileContent,
  ReviewItem,
  ReviewSummary,
} from '../../shared/app-api';
import { applyChange, applyDetailPatch, withHunks } from '../../shared/state-sync';
import type { ConnectionStatus } from '../carriers/types';
import { contentKey, endedByAgent, findReview, isContentKeyOf, type HunkRef } from '../review/review-model';
import { loadPrefs, savePrefs, type ViewPrefs } from './prefs';
import { pauseForAutoSelection, type KeyPause } from '../keys/key-pause';
import { useSettingsView } from '../settings/settings-view';
import { queueOrder } from './sidebar-model';
import {
  announced,
  diskChangeNotice,
  endedByAgentNotice,
  pauseNoticeDropped,
  pauseNoticeStarted,
  reviewOpened,
  staleCleared,
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
  /** Every review as lists show it, kept up to date by main's change stream (state-sync.ts). */
  snapshot: AppSnapshot | null;
  /** The hunks of the review on screen, as main sent them (AppApi.focusReview). */
  detail: ReviewDetail | null;
  /** The review on screen with its hunks; null until they arrive. Unchanged parts keep their identity. */
  selected: ReviewSummary | null;
  connection: ConnectionStatus;
  connectionDetail: string | undefined;
  selectedReviewId: string | null;
  cursors: Record<string, HunkRef>;
  /**
   * The texts of the review on screen, and of no other, keyed by contentKey(review) (per review and
   * content revision): its current revision and, while that one is not ready, the last revision that
   * was, which stays on screen meanwhile (see contentsOnScreen).
   */
  contents: Record<string, ContentEntry>;
  prefs: ViewPrefs;

  applySnapshot(snapshot: AppSnapshot): void;
  /**
   * Applies the next change of the stream; false when it does not follow the version held (the caller
   * then asks for a fresh snapshot). A detail patch that does not follow drops the hunks held.
   */
  applyChange(change: AppChange): boolean;
  setDetail(detail: ReviewDetail | null): void;
  setConnection(status: ConnectionStatus, detail?: string): void;
  selectReview(reviewId: string): void;
  selectAdjacentReview(delta: 1 | -1): void;
  setCursor(reviewId: string, ref: HunkRef): void;
  /** Moves the current hunk by delta across files; returns the new position. */
  moveCursor(delta: 1 | -1): HunkRef | undefined;
  setContent(key: string, entry: ContentEntry): void;
  setPrefs(prefs: Partial<ViewPrefs>): void;
  announce(text: string): void;
  /** At `now`: the status line's message goes if it is stale (status-line.ts). */
  clearStaleStatus(now: number): void;
  /** The pause ended: the status line stops saying that keys are paused. */
  endKeyPause(pause: KeyPause): void;
}

/** The review on screen with its hunks, reusing `previous` when neither part changed. */
function assembleSelected(
  previous: ReviewSummary | null,
  item: ReviewItem | undefined,
  detail: ReviewDetail | null,
): ReviewSummary | null {
  if (!item || !detail || detail.reviewId !== item.id || detail.files.length !== item.files.length)
    return null;
  if (
    previous &&
    assembledFrom.get(previous)?.item === item &&
    assembledFrom.get(previous)?.detail === detail
  ) {
    return previous;
  }
  const selected = withHunks(item, detail);
  assembledFrom.set(selected, { item, detail });
  return selected;
}

const assembledFrom = new WeakMap<ReviewSummary, { item: ReviewItem; detail: ReviewDetail }>();

/**
 * What `contents` keeps of `contents` for `review` on screen: the entry of its current revision and,
 * unless that one is ready, one ready entry of an earlier revision to stand in (`arrived` when it is
 * one, being the newest to come back). Nothing of other reviews: their texts are fetched again when
 * they come on screen, rather than kept beside the models of the one shown.
 */
export function contentsOnScreen(
  contents: Record<string, ContentEntry>,
  review: ReviewItem | undefined,
  arrived?: string,
): Record<string, ContentEntry> {
  if (!review) return {};
  const current = contentKey(review);
  const kept: Record<string, ContentEntry> = {};
  const entry = contents[current];
  if (entry) kept[current] = entry;
  if (entry?.status === 'ready') return kept;
  const earlier = Object.keys(contents).filter(
    (key) => key !== current && isContentKeyOf(key, review.id) && contents[key]?.status === 'ready',
  );
  const standIn = arrived !== undefined && earlier.includes(arrived) ? arrived : earlier[earlier.length - 1];
  if (standIn !== undefined) kept[standIn] = contents[standIn]!;
  return kept;
}

/** The files to show for `review`: its current revision's when ready, else the revision standing in. */
export function shownFiles(
  contents: Record<string, ContentEntry>,
  review: ReviewItem,
): ReviewFileContent[] | undefined {
  const current = contents[contentKey(review)];
  if (current?.status === 'ready') return current.files;
  for (const [key, entry] of Object.entries(contents)) {
    if (entry.status === 'ready' && isContentKeyOf(key, review.id)) return entry.files;
  }
  return undefined;
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
 * The hunk `delta` away from `cursor`, across files; the first or last hunk stays where it is. Costs
 * nothing per hunk, so walking a file of thousands of hunks stays as quick as walking ten.
 */
export function stepCursor(review: ReviewSummary, cursor: Cursor, delta: 1 | -1): HunkRef | undefined {
  const count = (fileIndex: number): number => review.files[fileIndex]?.hunks.length ?? 0;
  const { fileIndex, hunkIndex } = cursor;
  if (hunkIndex !== null) {
    const within = hunkIndex + delta;
    if (within >= 0 && within < count(fileIndex)) return { fileIndex, hunkIndex: within };
  }
  // The nearest file in that direction that has hunks; at either end, stay on the hunk we are at.
  for (let other = fileIndex + delta; other >= 0 && other < review.files.length; other += delta) {
    if (count(other) > 0) return { fileIndex: other, hunkIndex: delta > 0 ? 0 : count(other) - 1 };
  }
  if (hunkIndex !== null) return { fileIndex, hunkIndex };
  // The shown file has no hunks and none lie that way: the nearest the other way.
  for (let other = fileIndex - delta; other >= 0 && other < review.files.length; other -= delta) {
    if (count(other) > 0) return { fileIndex: other, hunkIndex: delta > 0 ? count(other) - 1 : 0 };
  }
  return undefined;
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
  detail: null,
  selected: null,
  connection: 'connecting',
  connectionDetail: undefined,
  selectedReviewId: null,
  cursors: {},
  contents: {},
  prefs: loadPrefs(),
  announcement: null,
  said: null,
  keyPause: null,
  beforePause: null,

  applySnapshot(snapshot) {
    adopt(snapshot);
  },

  applyChange(change) {
    const { snapshot, detail } = get();
    if (!snapshot || change.version !== snapshot.version + 1) return false;
    if (change.detail && detail) set({ detail: applyDetailPatch(detail, change.detail) ?? null });
    adopt(applyChange(snapshot, change));
    return true;
  },

  setDetail(detail) {
    const { snapshot, selectedReviewId, selected } = get();
    const wanted = detail && detail.reviewId === selectedReviewId ? detail : null;
    set({
      detail: wanted,
      selected: assembleSelected(selected, findReview(snapshot, selectedReviewId), wanted),
    });
  },
  setConnection(connection, detail) {
    set({ connection, connectionDetail: detail });
  },

  selectReview(reviewId) {
    // The person chose it: no pause, and it is shown, in place of Settings.
    useSettingsView.getState().hide();
    set({ ...reviewOpened(get(), reviewId), selectedReviewId: reviewId });
  },

  selectAdjacentReview(delta) {
    const { snapshot, selectedReviewId } = get();
    const queue = queueOrder(snapshot);
    if (queue.length === 0) return;
    const position = queue.findIndex((review) => review.id === selectedReviewId);
    // From an ended review (not in the queue), both keys go to the first pending one.
    const target = position < 0 ? 0 : Math.min(Math.max(0, position + delta), queue.length - 1);
    const review = queue[target];
    useSettingsView.getState().hide();
    if (review) set({ ...reviewOpened(get(), review.id), selectedReviewId: review.id });
  },

  setCursor(reviewId, ref) {
    set({ cursors: { ...get().cursors, [reviewId]: ref } });
  },

  moveCursor(delta) {
    const { selected: review, cursors } = get();
    if (!review) return undefined;
    const next = stepCursor(review, resolveCursor(review, cursors[review.id]), delta);
    if (next) get().setCursor(review.id, next);
    return next;
  },

  setContent(key, entry) {
    const { contents, snapshot, selectedReviewId } = get();
    const review = findReview(snapshot, selectedReviewId);
    set({ contents: contentsOnScreen({ ...contents, [key]: entry }, review, key) });
  },

  setPrefs(partial) {
    const prefs = { ...get().prefs, ...partial };
    savePrefs(prefs);
    set({ prefs });
  },

  announce(text) {
    set(announced(get(), text, Date.now(), get().selectedReviewId));
  },

  clearStaleStatus(now) {
    set(staleCleared(get(), now));
  },

  endKeyPause(pause) {
    // A newer pause has its own end.
    if (get().keyPause === pause) set(pauseNoticeDropped(get()));
  },
}));

/**
 * Takes the state main sent (a fresh snapshot, or the held one with a change applied): chooses what is
 * on screen, forgets what belongs to reviews no longer kept, and says what the person should hear.
 */
function adopt(snapshot: AppSnapshot): void {
  const get = useAppStore.getState;
  const set = useAppStore.setState;
  const state = get();
  const selectedReviewId = chooseSelection(state.snapshot, snapshot, state.selectedReviewId);
  const selected = findReview(snapshot, selectedReviewId);
  // Pending reviews and the one on screen, even ended, keep their cursor.
  const kept = (id: string): ReviewItem | undefined => {
    const review = findReview(snapshot, id);
    return review && (review.state === 'pending' || review.id === selectedReviewId) ? review : undefined;
  };
  // Texts are held for the review on screen only.
  const contents = contentsOnScreen(state.contents, selected);
  const cursors = Object.fromEntries(Object.entries(state.cursors).filter(([id]) => kept(id)));
  // The hunks held belong to the review on screen only.
  const detail = state.detail?.reviewId === selectedReviewId ? state.detail : null;
  // Undo lives in main (ReviewSummary.canUndo), not here.
  set({
    snapshot,
    selectedReviewId,
    contents,
    cursors,
    detail,
    selected: assembleSelected(state.selected, selected, detail),
  });
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
  if (pause) set(pauseNoticeStarted(get(), pause, now, selectedReviewId));
  // A file of the review on screen changed on disk: said once, as it happens (the banner stays).
  const diskChange = diskChangeNotice(state.snapshot, snapshot, selected);
  if (diskChange !== null) get().announce(diskChange);
}
