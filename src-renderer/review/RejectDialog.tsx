import type { FormEvent, KeyboardEvent } from 'react';
import type { ReviewSummary } from '../../shared/app-api';
import { MAX_NOTE_CHARS } from '../../shared/limits';
import { useNoteDrafts } from './agent-note';
import { rejectDiskText, rejectNoteText } from './reject-words';
import { useActions } from '../state/context';
import { useModalDialog } from '../state/hooks';
import { MOD } from '../keys/keyboard';
import '../views/dialog.css';

/**
 * Rejecting the whole review, with a reason for the agent. It says first what rejecting does for this
 * review (reject-words.ts): a change already on disk is reverted, one not written yet never is; the
 * agent is told why, or the reason is only kept. The reason is the review's note to the agent: what the
 * person wrote in the note box is already here, and what they change here stays in the box if they
 * cancel, so it is typed once. A modal <dialog> traps focus for us.
 */
export function RejectDialog({
  open,
  onClose,
  review,
}: {
  open: boolean;
  onClose: () => void;
  review: ReviewSummary;
}) {
  const actions = useActions();
  const dialogRef = useModalDialog(open);
  const reviewId = review.id;
  const reason = useNoteDrafts((s) => s.drafts[reviewId] ?? '');
  const setReason = useNoteDrafts((s) => s.setDraft);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    void actions.reject(reason);
    onClose();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      e.currentTarget.form?.requestSubmit();
    }
  };

  return (
    <dialog ref={dialogRef} className="dt-dialog" aria-labelledby="dt-reject-title" onClose={onClose}>
      <form onSubmit={submit}>
        <h2 id="dt-reject-title">Reject review</h2>
        <p data-testid="reject-consequence">
          {rejectDiskText(review)} {rejectNoteText(review)}
        </p>
        <label htmlFor="dt-reject-reason">Reason</label>
        <textarea
          id="dt-reject-reason"
          rows={4}
          maxLength={MAX_NOTE_CHARS}
          value={reason}
          onChange={(e) => setReason(reviewId, e.target.value)}
          onKeyDown={onKeyDown}
          autoFocus
        />
        <div className="dt-dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="dt-danger" title={`Reject review (${MOD}+Enter)`}>
            Reject review
          </button>
        </div>
      </form>
    </dialog>
  );
}
