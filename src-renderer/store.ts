import { create } from 'zustand';
import type { AppSnapshot, ReviewFileContent, ReviewSummary } from '../shared/app-api';
import type { ConnectionStatus } from './carriers/types';
import {
  contentKey,
  displayPath,
  endedBannerText,
  endedByAgent,
  findReview,
  hunkRefs,
  pendingReviews,
  type HunkRef,
} from './review-model';
import { diskChangeAnnouncement, newlyChangedOnDisk } from './file-status';
import { loadPrefs, savePrefs, type ViewPrefs } from './prefs';
import { isPaused, pauseForAutoSelection, type KeyPause } from './keyboard';
import { queueOrder } from './sidebar-model';

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

export interface AppState {
  snapshot: AppSnapshot | null;
  connection: ConnectionStatus;
  connectionDetail: string | undefined;
  selectedReviewId: string | null;
  cursors: Record<string, HunkRef>;
  /** Fetched file contents keyed by contentKey(review), i.e. per review and content revision. */
  contents: Record<string, ContentEntry>;
  prefs: ViewPrefs;
  /** The status line. A quiet one is shown but not read out again (it was read when first said). */
  announcement: { id: number; text: string; quiet?: boolean } | null;
  /** Set when the review on screen changed by itself: decision keys wait a moment (keyboard.ts). */
  keyPause: KeyPause | null;
  /** What the status line said before the key-pause notice replaced it; shown again when the pause ends. */
  beforePause: string | null;

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

/** The status line without the notice of `pause`: null when nothing else was said. */
function withoutPauseNotice(text: string, pause: KeyPause | null, beforePause: string | null): string | null {
  if (!pause) return text;
  if (text === pause.text) return beforePause;
  const suffix = `. ${pause.text}`;
  return text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
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

/**
 * The state change that ends the key-pause notice on the status line: what was said before it (or
 * alongside it) is shown again, but not read out a second time; nothing, if nothing else was said.
 */
function pauseNoticeDropped(state: AppState): Partial<AppState> {
  const { keyPause, announcement, beforePause } = state;
  if (!keyPause) return {};
  const text = announcement ? withoutPauseNotice(announcement.text, keyPause, beforePause) : null;
  if (!announcement || text === announcement.text) return { keyPause: null, beforePause: null };
  return {
    keyPause: null,
    beforePause: null,
    announcement: text === null ? null : { id: announcement.id + 1, text, quiet: true },
  };
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
    const before = findReview(state.snapshot, selectedReviewId);
    if (selected && before?.state === 'pending' && endedByAgent(selected)) {
      // Nothing is left to decide, so no "keys paused" notice either.
      set({ keyPause: null, beforePause: null });
      get().announce(endedBannerText(selected));
    }
    // A review the person did not choose came up: hold decision keys a moment, and say so.
    const pause = pauseForAutoSelection(state.selectedReviewId, selected, Date.now());
    if (pause) {
      const { announcement, keyPause, beforePause } = get();
      const before = announcement ? withoutPauseNotice(announcement.text, keyPause, beforePause) : null;
      set({ keyPause: pause, beforePause: before });
      get().announce(pause.text);
    }
    // A file of the review on screen changed on disk: said once, as it happens (the banner stays).
    if (selected?.state === 'pending') {
      const changed = newlyChangedOnDisk(findReview(state.snapshot, selected.id), selected);
      const said = changed.map((index) => {
        const file = selected.files[index]!;
        return diskChangeAnnouncement(displayPath(file.path, snapshot.workspaceFolders), file);
      });
      if (said.length > 0) get().announce(said.join('. '));
    }
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
    // While keys are paused for a new review, keep saying so alongside whatever else is announced.
    const pause = get().keyPause;
    const full =
      pause && text !== pause.text && isPaused(pause, Date.now()) ? `${text}. ${pause.text}` : text;
    set({ announcement: { id: (get().announcement?.id ?? 0) + 1, text: full } });
  },

  endKeyPause(pause) {
    // A newer pause has its own end.
    if (get().keyPause === pause) set(pauseNoticeDropped(get()));
  },
}));
