import type { ReviewSummary } from '../../shared/app-api';
import { useNow } from '../hooks';
import { useAppStore } from '../store';
import { formatAge } from '../time';
import { displayPath, endedLabel } from '../review-model';

function fileLabel(review: ReviewSummary, workspaceFolders: readonly string[]): string {
  const first = displayPath(review.files[0]?.path ?? '', workspaceFolders);
  return review.files.length > 1 ? `${first} and ${review.files.length - 1} more` : first;
}

const NO_FOLDERS: string[] = [];

/**
 * The pending reviews, oldest first, then the most recently ended ones, newest first. Choosing one
 * never happens on its own while one is open. The count is of pending reviews only.
 */
export function QueueList({
  reviews,
  ended,
  selectedId,
}: {
  reviews: ReviewSummary[];
  ended: ReviewSummary[];
  selectedId: string | null;
}) {
  const selectReview = useAppStore((s) => s.selectReview);
  const workspaceFolders = useAppStore((s) => s.snapshot?.workspaceFolders ?? NO_FOLDERS);
  const now = useNow();
  return (
    <nav className="dt-queue" aria-label="Review queue">
      <h2 className="dt-queue-title">
        Reviews <span className="dt-count">{reviews.length}</span>
      </h2>
      {reviews.length === 0 ? (
        <p className="dt-queue-empty">Nothing to review.</p>
      ) : (
        <ul>
          {reviews.map((review) => {
            const path = fileLabel(review, workspaceFolders);
            return (
              <li key={review.id}>
                <button
                  type="button"
                  className="dt-queue-item"
                  data-review-id={review.id}
                  aria-current={review.id === selectedId ? 'true' : undefined}
                  onClick={() => selectReview(review.id)}
                >
                  <span className="dt-queue-item-title">{review.title}</span>
                  <span className="dt-queue-item-meta">
                    {review.client.name} ·{' '}
                    <time dateTime={new Date(review.createdAt).toISOString()}>
                      {formatAge(review.createdAt, now)}
                    </time>
                  </span>
                  {path && path !== review.title && <span className="dt-queue-item-path">{path}</span>}
                  {review.description && review.description !== review.title && (
                    <span className="dt-queue-item-desc">{review.description}</span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {ended.length > 0 && (
        <section className="dt-ended" aria-labelledby="dt-ended-title" data-testid="ended-reviews">
          <h2 id="dt-ended-title" className="dt-queue-title">
            Ended
          </h2>
          <ul>
            {ended.map((review) => {
              const endedAt = review.decidedAt ?? review.createdAt;
              return (
                <li key={review.id}>
                  <button
                    type="button"
                    className="dt-queue-item dt-queue-item-ended"
                    data-review-id={review.id}
                    data-state={review.state}
                    aria-current={review.id === selectedId ? 'true' : undefined}
                    onClick={() => selectReview(review.id)}
                  >
                    <span className="dt-queue-item-title">{review.title}</span>
                    <span className="dt-ended-label" data-state={review.state}>
                      {endedLabel(review)}
                    </span>
                    <span className="dt-queue-item-meta">
                      {review.client.name} ·{' '}
                      <time dateTime={new Date(endedAt).toISOString()}>{formatAge(endedAt, now)}</time>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </nav>
  );
}
