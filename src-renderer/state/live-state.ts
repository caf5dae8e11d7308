/**
 * Keeps the store in step with main: the whole state once per (re)connect, then main's change stream
 * applied change by change. A change that does not follow the version held (one was missed) calls for
 * a fresh snapshot; changes arriving meanwhile wait and are applied after it. The review on screen is
 * named to main (focusReview) whenever the selection moves, so its hunks, and only its, come along;
 * its texts are asked for in the same breath (`loadContents`), not once its hunks are in and the view
 * has rendered, so the two round trips overlap.
 */
import type { AppApi, AppChange, AppSnapshot, ReviewItem, StateEvent } from '../../shared/app-api';
import { findReview } from '../review/review-model';
import { resolveCursor, useAppStore, type AppState } from './store';

export interface LiveState {
  /** Asks for the whole state again (after a reconnect: what was pushed meanwhile is lost). */
  resync(): Promise<void>;
  stop(): void;
}

export function startLiveState(
  api: AppApi,
  onError: (error: unknown) => void = () => {},
  loadContents: (review: ReviewItem) => void = () => {},
): LiveState {
  const store = useAppStore;
  /** Changes that arrived while a snapshot was on its way. */
  let waiting: AppChange[] | null = null;
  /** The review whose hunks were last asked for, and a count that tells stale answers apart. */
  let focused: string | null | undefined;
  let focusCall = 0;
  /** The file of the review on screen last told to main (showingFile), as `<review>:<file>`. */
  let shownFile: string | undefined;

  const focus = (force = false): void => {
    const wanted = store.getState().selectedReviewId;
    if (!force && wanted === focused) return;
    const moved = wanted !== focused;
    focused = wanted;
    // Main forgets the file shown with each focus: it is told again once the hunks are in.
    shownFile = undefined;
    const call = ++focusCall;
    api.call('focusReview', { reviewId: wanted }).then(
      (detail) => {
        if (call === focusCall) store.getState().setDetail(detail);
      },
      (error: unknown) => {
        if (call !== focusCall) return;
        // Asked again at the next change of selection or of the stream.
        focused = undefined;
        onError(error);
      },
    );
    // After the hunks: their small answer comes first, and the view renders while the texts travel.
    const review = moved ? findReview(store.getState().snapshot, wanted) : undefined;
    if (review && !review.approval) loadContents(review);
  };

  const apply = (change: AppChange): void => {
    const state = store.getState();
    if (state.snapshot && change.version <= state.snapshot.version) return; // Already held.
    if (!state.applyChange(change)) {
      void resync();
      return;
    }
    // The hunks held no longer follow main's: ask for them whole.
    const { detail, selectedReviewId } = store.getState();
    if (change.detail && !detail && selectedReviewId === change.detail.reviewId) focus(true);
    else focus();
  };

  /**
   * A whole state: main may have forgotten which review is on screen (a new connection), so it is told
   * again, unless the snapshot moved the selection, which named the new one already (the store
   * subscription below) and asked for its texts.
   */
  const adoptSnapshot = (snapshot: AppSnapshot): void => {
    const calls = focusCall;
    store.getState().applySnapshot(snapshot);
    if (focusCall === calls) focus(true);
  };

  const resync = async (): Promise<void> => {
    if (waiting) return;
    waiting = [];
    const calls = focusCall;
    try {
      // Changes wait meanwhile, so the answer is the state to build on, whatever was held before
      // (after a reconnect it may even come from a restarted main, counting versions anew).
      store.getState().applySnapshot(await api.call('getSnapshot', {}));
    } catch (error) {
      onError(error);
    } finally {
      const queued = waiting;
      waiting = null;
      for (const change of queued.sort((a, b) => a.version - b.version)) apply(change);
    }
    // As adoptSnapshot: told again unless a new selection was named meanwhile.
    if (focusCall === calls) focus(true);
  };

  const unsubscribeState = api.onState((event: StateEvent) => {
    if ('snapshot' in event) adoptSnapshot(event.snapshot);
    else if ('show' in event) store.getState().selectReview(event.show.reviewId);
    else if ('open' in event)
      return; // The Settings view is opened by its own listener (settings-view.ts).
    else if (waiting) waiting.push(event.change);
    else apply(event.change);
  });
  const tellShownFile = (state: AppState): void => {
    const review = state.selected;
    if (!review || review.id !== focused || review.approval) return;
    const { fileIndex } = resolveCursor(review, state.cursors[review.id]);
    const key = `${review.id}:${fileIndex}`;
    if (key === shownFile) return;
    shownFile = key;
    api.call('showingFile', { reviewId: review.id, fileIndex }).catch(onError);
  };

  // The person chose another review: its hunks are asked for at once.
  const unsubscribeStore = store.subscribe((state, previous) => {
    if (state.selectedReviewId !== previous.selectedReviewId) {
      shownFile = undefined;
      focus();
    }
    // Which file tab is shown: what an agent asking for the active file is told.
    if (state.selected !== previous.selected || state.cursors !== previous.cursors) tellShownFile(state);
  });

  return {
    resync,
    stop() {
      unsubscribeState();
      unsubscribeStore();
    },
  };
}
