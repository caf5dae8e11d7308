/**
 * Puts a state whose reviews carry every hunk into the store the way main's two streams would: the
 * snapshot of every review, then the hunks of the one on screen (AppApi.focusReview).
 */
import type { AppSnapshot, ReviewSummary } from '../../../shared/app-api';
import { useAppStore } from '../../../src-renderer/state/store';

/** A snapshot whose reviews carry their hunks too (ReviewSummary is a ReviewItem with hunks). */
export type FullState = Omit<AppSnapshot, 'reviews'> & { reviews: ReviewSummary[] };

/** The snapshot main would send for these reviews: hunk counts, no hunks. */
export function itemsOf(state: FullState): AppSnapshot {
  return {
    ...state,
    reviews: state.reviews.map((review) => ({
      ...review,
      files: review.files.map(({ hunks, ...file }) => ({ ...file, hunkCount: hunks.length })),
    })),
  };
}

export function applyFullState(state: FullState): void {
  const store = useAppStore.getState();
  store.applySnapshot(itemsOf(state));
  const selected = state.reviews.find((review) => review.id === useAppStore.getState().selectedReviewId);
  store.setDetail(
    selected ? { reviewId: selected.id, revision: 1, files: selected.files.map((file) => file.hunks) } : null,
  );
}
