/**
 * Which arrivals deserve a system notification. A notification informs without taking focus: the
 * window is never raised for a new review, so keystrokes meant for another app stay there.
 */
import type { AppSnapshot } from '../../shared/app-api';

export interface ArrivalNotice {
  reviewId: string;
  title: string;
  body: string;
}

/** Reviews pending in `next` that were not known in `previous`, as notification texts. */
export function arrivalNotices(previous: AppSnapshot | undefined, next: AppSnapshot): ArrivalNotice[] {
  const known = new Set(previous?.reviews.map((review) => review.id) ?? []);
  return next.reviews
    .filter((review) => review.state === 'pending' && !known.has(review.id))
    .map((review) => {
      const files = review.files.length > 1 ? `${review.files.length} files` : review.title;
      return {
        reviewId: review.id,
        title: `${review.client.name} proposes a change`,
        body:
          review.description && review.description !== review.title
            ? `${files} — ${review.description}`
            : files,
      };
    });
}
