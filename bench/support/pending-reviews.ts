/**
 * How the bench's driver (standing in for the person) learns that a review is waiting. This is the one
 * place in the bench that knows how core announces changes: today whole snapshots (core.onSnapshot).
 * When core's state API changes, update this function only; everything else in the bench uses the
 * protocol clients, runtime.handler(...) calls, the page's DOM and the lock files.
 */
import type { Runtime } from '../../src-main/runtime';

export interface PendingReview {
  id: string;
  /** The file's display path, or the title the client gave. */
  title: string;
  /** For Claude Code's openDiff: the tab name. */
  description: string | undefined;
}

/**
 * Calls `callback` once for each review that becomes pending from now on (and each pending already).
 * Returns a function that stops it.
 */
export function onPendingReview(runtime: Runtime, callback: (review: PendingReview) => void): () => void {
  let reported = new Set<string>();
  const look = (reviews: ReturnType<Runtime['core']['snapshot']>['reviews']) => {
    const pending = new Set<string>();
    for (const review of reviews) {
      if (review.state !== 'pending') continue;
      pending.add(review.id);
      if (!reported.has(review.id))
        callback({ id: review.id, title: review.title, description: review.description });
    }
    // Only the ones still pending need remembering: a review never becomes pending again.
    reported = pending;
  };
  const stop = runtime.core.onSnapshot((snapshot) => look(snapshot.reviews));
  look(runtime.core.snapshot().reviews);
  return stop;
}
