import type { ReviewItem } from '../../shared/app-api';
import { commentCount } from '../../shared/review-comments';
import { sentNoteText } from '../review/agent-note';
import { approvalIcon, approvalLabel, approvalStateLabel } from '../review/approval-model';
import { useNow } from '../state/hooks';
import { clientLabel, endedAt, historyStateLabel, partlyAccepted } from '../state/sidebar-model';
import { useAppStore } from '../state/store';
import { formatAge } from '../state/time';
import { earlierUndoable, undoableOf } from './undo-writes-model';
import { EarlierWrites } from './EarlierWrites';
import { UndoWrites } from './UndoWrites';
import { Revealed } from '../review/Revealed';
import './HistoryList.css';

/**
 * Every ended review, most recently ended first: what happened, when, from which client, and why.
 * Opening one shows it read-only, as it was decided.
 */
export function HistoryList({ reviews, selectedId }: { reviews: ReviewItem[]; selectedId: string | null }) {
  const selectReview = useAppStore((s) => s.selectReview);
  const now = useNow();
  const undoable = useAppStore((s) => s.snapshot?.undoableWrites);
  return (
    <nav className="dt-queue dt-history" aria-label="Review history" data-testid="history">
      <h2 className="dt-queue-title">
        History <span className="dt-count">{reviews.length}</span>
      </h2>
      {reviews.length === 0 ? (
        <p className="dt-queue-empty">No review has ended yet.</p>
      ) : (
        <ul>
          {reviews.map((review) => {
            const at = endedAt(review);
            const reason = review.reason?.trim();
            // A reject's note is its reason, already shown.
            const note = review.agentNote?.trim() === reason ? null : sentNoteText(review);
            const approval = review.approval;
            const writes = undoableOf(undoable, review.id);
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
                  <span className="dt-queue-item-title">
                    {approval && (
                      <span className="dt-approval-icon" aria-hidden="true">
                        {approvalIcon(approval)}
                      </span>
                    )}
                    {approval ? <Revealed text={approvalLabel(approval)} /> : review.title}
                  </span>
                  <span
                    className="dt-ended-label"
                    data-state={review.state}
                    data-partly={partlyAccepted(review) ? 'true' : undefined}
                  >
                    {approval ? approvalStateLabel(review) : historyStateLabel(review)}
                  </span>
                  {reason && <span className="dt-queue-item-desc dt-history-reason">{reason}</span>}
                  {note && (
                    <span
                      className="dt-queue-item-desc dt-history-agent-note"
                      data-testid="history-agent-note"
                    >
                      {note}
                    </span>
                  )}
                  {review.comments && (
                    <span className="dt-queue-item-desc" data-testid="history-comments">
                      {commentCount(review.comments.length)} on lines
                    </span>
                  )}
                  {review.notes?.map((note) => (
                    <span key={note} className="dt-queue-item-desc dt-history-note">
                      {note}
                    </span>
                  ))}
                  <span className="dt-queue-item-meta">
                    {clientLabel(review.client)} ·{' '}
                    <time dateTime={new Date(at).toISOString()} title={new Date(at).toLocaleString()}>
                      {formatAge(at, now)}
                    </time>
                  </span>
                </button>
                {writes && <UndoWrites set={writes} label={review.title} />}
              </li>
            );
          })}
        </ul>
      )}
      <EarlierWrites sets={earlierUndoable(undoable)} />
    </nav>
  );
}
