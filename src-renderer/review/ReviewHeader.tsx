import { useEffect, useRef, useState } from 'react';
import type { ReviewSummary } from '../../shared/app-api';
import { commentCount } from '../../shared/review-comments';
import { approvalIcon, approvalLabel } from './approval-model';
import { useNow } from '../state/hooks';
import { formatAge } from '../state/time';
import { Revealed } from './Revealed';

/**
 * A description of any length in two lines, with "more" to read the rest in place: the diff keeps the
 * room, and no box inside the page scrolls on its own until the person asks for the whole text.
 */
function Description({ text }: { text: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [open, setOpen] = useState(false);
  const [clipped, setClipped] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || open) return;
    // The clamp hides what does not fit; only then is there more to show (the width can change it).
    // Measured when the observer reports the laid-out size, never in the commit: reading sizes there
    // would make the browser lay out the whole review an extra time before it is first painted.
    const observer = new ResizeObserver(() => setClipped(element.scrollHeight > element.clientHeight + 1));
    observer.observe(element);
    return () => observer.disconnect();
  }, [text, open]);
  return (
    <div className="dt-review-desc-row">
      <p
        ref={ref}
        id="dt-review-desc"
        className="dt-review-desc"
        data-testid="review-description"
        data-open={open ? 'true' : undefined}
      >
        {text}
      </p>
      {(clipped || open) && (
        <button
          type="button"
          className="dt-link dt-review-desc-more"
          aria-expanded={open}
          aria-controls="dt-review-desc"
          onClick={() => setOpen(!open)}
        >
          {open ? 'less' : 'more'}
        </button>
      )}
    </div>
  );
}

/** The review's title, who sent it and when, on one line; then its description. */
export function ReviewHeader({ review }: { review: ReviewSummary }) {
  const now = useNow();
  const { approval } = review;
  return (
    <header className="dt-review-header">
      <div className="dt-review-heading">
        <h1 id="dt-review-title">
          {approval && (
            <span className="dt-approval-icon" aria-hidden="true">
              {approvalIcon(approval)}
            </span>
          )}
          {approval ? <Revealed text={review.title} /> : review.title}
        </h1>
        <p className="dt-review-meta">
          From <strong className="dt-review-client">{review.client.name}</strong>
          {review.client.version ? ` ${review.client.version}` : ''} · {formatAge(review.createdAt, now)}
          {!review.client.connected && ' · client disconnected'}
          {review.comments && (
            <span data-testid="comment-count"> · {commentCount(review.comments.length)}</span>
          )}
        </p>
      </div>
      {approval && review.title !== approvalLabel(approval) && (
        <p className="dt-review-desc dt-approval-label">
          <Revealed text={approvalLabel(approval)} />
        </p>
      )}
      {review.description && review.description !== review.title && <Description text={review.description} />}
    </header>
  );
}
