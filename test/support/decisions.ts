import type { AppApiHandler } from '../../src-main/core/app-api-handler';

/**
 * Through the app API, as the renderer would: accepts and rejects the given hunks (0-based) of one
 * file of a review, then submits it.
 */
export async function decideHunksAndSubmit(
  api: AppApiHandler,
  reviewId: string,
  hunks: { accepted: number[]; rejected: number[] },
  fileIndex = 0,
): Promise<void> {
  await api('decideHunks', { reviewId, fileIndex, hunkIndexes: hunks.accepted, decision: 'accepted' });
  await api('decideHunks', { reviewId, fileIndex, hunkIndexes: hunks.rejected, decision: 'rejected' });
  await api('submit', { reviewId });
}
