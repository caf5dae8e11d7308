/**
 * Which arrivals deserve a system notification. A notification informs without taking focus: the
 * window is never raised for a new review, so keystrokes meant for another app stay there.
 */
import type { AppChange } from '../../shared/app-api';

export interface ArrivalNotice {
  reviewId: string;
  title: string;
  body: string;
}

/** Reviews a change brings that are still pending, as notification texts. */
export function arrivalNotices(change: AppChange): ArrivalNotice[] {
  return (change.added ?? [])
    .filter((review) => review.state === 'pending')
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
