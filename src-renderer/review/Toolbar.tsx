import type { ReviewSummary } from '../../shared/app-api';
import { useActions } from '../state/context';
import { baseName, submitBlocker } from './file-status';
import { withKeys } from '../keys/key-chords';
import { useKeyMap } from '../keys/key-map';
import { commandDescriptions, type Command } from '../keys/keyboard';
import { NO_SELECTION_REASON, resolveLineSelection, selectionSummary } from './line-selection';
import { countDecisions, submitSummary, type DecisionCounts } from './review-model';
import { partialDecisionBlocker } from './whole-proposal';
import { useReviewUi } from './review-ui';
import { resolveCursor, useAppStore } from '../state/store';
import { RejectDialog } from './RejectDialog';
import { SendToAgent } from './SendToAgent';
import './Toolbar.css';

/** What the hunks of an ended review were left at; nothing more will happen to them. */
const tally = (counts: DecisionCounts): string =>
  `${counts.accepted} accepted, ${counts.rejected} rejected, ${counts.mixed ? `${counts.mixed} mixed, ` : ''}${counts.pending} undecided`;

/** "Hunk 3 of 40": follows the hunk cursor by itself, so moving between hunks renders only this. */
function HunkCounter({ review, total }: { review: ReviewSummary; total: number }) {
  const hunkIndex = useAppStore((s) => resolveCursor(review, s.cursors[review.id]).hunkIndex);
  return (
    <span className="dt-counter" data-testid="hunk-counter" aria-live="polite" aria-atomic="true">
      {hunkIndex === null ? 'No hunks' : `Hunk ${hunkIndex + 1} of ${total}`}
    </span>
  );
}

/**
 * Hunk navigation always; the decision controls only while the review is pending. An ended review
 * (readOnly) shows no control that could change it, only how its hunks were left.
 */
export function Toolbar({
  review,
  fileIndex,
  readOnly = false,
  fileName = baseName,
}: {
  review: ReviewSummary;
  /** The file on screen (the hunk within it is HunkCounter's). */
  fileIndex: number;
  readOnly?: boolean;
  fileName?: (path: string) => string;
}) {
  const actions = useActions();
  const moveCursor = useAppStore((s) => s.moveCursor);
  const keyMap = useKeyMap();
  const hint = (command: Command): string => withKeys(commandDescriptions[command], keyMap, command);
  const rejecting = useReviewUi((s) => s.rejectOpen);
  const setRejecting = useReviewUi((s) => s.setRejectOpen);
  const lineSelection = useReviewUi((s) => s.lineSelection);
  const editsPending = useReviewUi((s) => s.editsPending);
  const submitError = useReviewUi((s) =>
    s.submitError?.reviewId === review.id ? s.submitError.message : null,
  );
  const counts = countDecisions(review);
  const total = review.files[fileIndex]?.hunks.length ?? 0;
  const anyHunks = review.files.some((file) => file.hunks.length > 0 || file.binary);
  const blocker = submitBlocker(review, fileName) ?? partialDecisionBlocker(review.client, counts);

  const selection =
    lineSelection && lineSelection.reviewId === review.id && lineSelection.fileIndex === fileIndex
      ? resolveLineSelection(review.files[fileIndex]?.hunks ?? [], lineSelection.selection)
      : ({ ok: false, reason: NO_SELECTION_REASON } as const);
  const linesReason = editsPending
    ? 'Saving your edit: line decisions wait until the diff is up to date'
    : selection.ok
      ? ''
      : selection.reason;
  const linesEnabled = selection.ok && !editsPending;

  return (
    <div className="dt-toolbar-wrap">
      <div className="dt-toolbar">
        <div className="dt-toolbar-group" role="group" aria-label="Hunk navigation">
          <button
            type="button"
            aria-label="Previous hunk"
            title={hint('prevHunk')}
            onClick={() => moveCursor(-1)}
          >
            ↑
          </button>
          <HunkCounter review={review} total={total} />
          <button type="button" aria-label="Next hunk" title={hint('nextHunk')} onClick={() => moveCursor(1)}>
            ↓
          </button>
          {/* Same as the controls in the diff, for the current hunk wherever the diff is scrolled. */}
          {!readOnly && (
            <>
              <button
                type="button"
                className="dt-hunk-accept"
                aria-label="Accept current hunk"
                title={hint('acceptHunk')}
                disabled={total === 0}
                onClick={() => void actions.decideCurrent('accepted')}
              >
                ✓
              </button>
              <button
                type="button"
                className="dt-hunk-reject"
                aria-label="Reject current hunk"
                title={hint('rejectHunk')}
                disabled={total === 0}
                onClick={() => void actions.decideCurrent('rejected')}
              >
                ✗
              </button>
            </>
          )}
        </div>
        {!readOnly && (
          <div className="dt-toolbar-group" role="group" aria-label="Selected lines">
            <button
              type="button"
              className="dt-hunk-accept"
              aria-label="Accept selected lines"
              aria-describedby="dt-line-selection"
              title={withKeys('Accept the selected lines of one hunk', keyMap, 'acceptLines')}
              disabled={!linesEnabled}
              onClick={() => void actions.decideSelectedLines('accepted')}
            >
              ✓ Accept selected
            </button>
            <button
              type="button"
              className="dt-hunk-reject"
              aria-label="Reject selected lines"
              aria-describedby="dt-line-selection"
              title={withKeys('Reject the selected lines of one hunk', keyMap, 'rejectLines')}
              disabled={!linesEnabled}
              onClick={() => void actions.decideSelectedLines('rejected')}
            >
              ✗ Reject selected
            </button>
            <span id="dt-line-selection" className="dt-line-selection" data-testid="line-selection">
              {linesEnabled ? selectionSummary(selection) : linesReason}
            </span>
          </div>
        )}
        <SendToAgent review={review} fileIndex={fileIndex} />
        {readOnly ? (
          <span className="dt-submit-summary" data-testid="decision-tally">
            {tally(counts)}
          </span>
        ) : (
          <>
            <div className="dt-toolbar-group" role="group" aria-label="All hunks">
              <button
                type="button"
                disabled={!anyHunks}
                title={hint('acceptAll')}
                onClick={() => void actions.decideAll('accepted')}
              >
                Accept all
              </button>
              <button
                type="button"
                disabled={!anyHunks}
                title={hint('rejectAll')}
                onClick={() => void actions.decideAll('rejected')}
              >
                Reject all
              </button>
              <button
                type="button"
                disabled={!review.canUndo}
                title={withKeys('Undo the last decision or edit', keyMap, 'undo')}
                onClick={() => void actions.undo()}
              >
                Undo
              </button>
            </div>
            <div className="dt-toolbar-group" role="group" aria-label="Finish review">
              <button
                type="button"
                className="dt-primary"
                aria-describedby={blocker ? 'dt-submit-blocked dt-submit-summary' : 'dt-submit-summary'}
                title={blocker ?? hint('submit')}
                disabled={blocker !== null}
                onClick={() => void actions.submit()}
              >
                Submit
              </button>
              <span id="dt-submit-summary" className="dt-submit-summary" data-testid="submit-summary">
                {submitSummary(counts)}
              </span>
              <button type="button" className="dt-danger" onClick={() => setRejecting(true)}>
                Reject…
              </button>
            </div>
            <RejectDialog
              open={rejecting}
              onClose={() => setRejecting(false)}
              reviewId={review.id}
              protocol={review.client.protocol}
            />
          </>
        )}
      </div>
      {!readOnly && blocker && (
        <p id="dt-submit-blocked" className="dt-submit-blocked" data-testid="submit-blocked">
          Submit is disabled: {blocker}.
        </p>
      )}
      {!readOnly && submitError && (
        <p className="dt-submit-error" data-testid="submit-error">
          <strong>Could not submit:</strong> {submitError}
        </p>
      )}
    </div>
  );
}
