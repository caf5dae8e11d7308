/**
 * How the bench's driver (standing in for the person) learns that a review is waiting. This is the one
 * place in the bench that knows how core announces changes: its change stream (core.subscribe), where
 * a new review arrives whole in `added`. Everything else in the bench uses the protocol clients,
 * runtime.handler(...) calls, the page's DOM and the lock files.
 */
import type { ReviewItem } from '../../shared/app-api';
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
  const report = (review: ReviewItem): void => {
    if (review.state === 'pending') {
      callback({ id: review.id, title: review.title, description: review.description });
    }
  };
  const subscription = runtime.core.subscribe((change) => change.added?.forEach(report));
  runtime.core.snapshot().reviews.forEach(report);
  return () => subscription.close();
}
