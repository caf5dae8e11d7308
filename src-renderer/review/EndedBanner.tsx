import type { ReviewSummary } from '../../shared/app-api';
import { sentNoteText } from './agent-note';
import { approvalEndedText } from './approval-model';
import { acceptedInPart, endedBannerText, newerProposal } from './review-model';
import { useAppStore } from '../state/store';

/** Above an ended review: what happened to it, the note that went with it, and its newer proposal. */
export function EndedBanner({ review }: { review: ReviewSummary }) {
  const selectReview = useAppStore((s) => s.selectReview);
  const newer = useAppStore((s) => newerProposal(s.snapshot, review));
  const sentNote = sentNoteText(review);
  return (
    <div className="dt-ended-banner" data-testid="ended-banner" data-state={review.state}>
      <p>
        <strong>
          {review.approval ? approvalEndedText(review) : endedBannerText(review, acceptedInPart(review))}
        </strong>{' '}
        This review has ended: it can be looked at, not changed.
      </p>
      {sentNote && (
        <p className="dt-ended-note" data-testid="sent-note">
          {sentNote}
        </p>
      )}
      {review.notes?.map((note) => (
        <p key={note} className="dt-ended-note" data-testid="review-note">
          {note}
        </p>
      ))}
      {newer && (
        <button type="button" onClick={() => selectReview(newer.id)}>
          Show the newer proposal
        </button>
      )}
    </div>
  );
}
