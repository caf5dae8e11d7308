import type { ReviewSummary } from '../../shared/app-api';
import { useActions } from '../state/context';
import { baseName, submitBlocker } from './file-status';
import { withKeys } from '../keys/key-chords';
import { useKeyMap } from '../keys/key-map';
import { commandDescriptions, type Command } from '../keys/keyboard';
import { countDecisions, endedTally, submitSummary } from './review-model';
import { partialDecisionBlocker } from './whole-proposal';
import { useReviewUi } from './review-ui';
import { resolveCursor, useAppStore } from '../state/store';
import { RejectDialog } from './RejectDialog';
import './Toolbar.css';

/** "Hunk 3 of 40": follows the hunk cursor by itself, so moving between hunks renders only this. */
function HunkCounter({ review, total }: { review: ReviewSummary; total: number }) {
  const hunkIndex = useAppStore((s) => resolveCursor(review, s.cursors[review.id]).hunkIndex);
  return (
    <span className="dt-counter" data-testid="hunk-counter" aria-live="polite" aria-atomic="true">
      {hunkIndex === null ? (
        'No hunks'
      ) : (
        <>
          {/* Left out of a narrow toolbar (Toolbar.css), so the row keeps Submit in view. */}
          <span className="dt-counter-word">Hunk </span>
          {`${hunkIndex + 1} of ${total}`}
        </>
      )}
    </span>
  );
}

/**
 * What Submit will do with the decisions: "2 accepted, 1 rejected, 1 undecided hunk will be accepted".
 * Shown at the end of the note's row, under Submit (the note and the decisions go out together), so the
 * toolbar keeps one row and Submit never moves as the text changes.
 */
export function SubmitSummary({ review }: { review: ReviewSummary }) {
  const summary = submitSummary(countDecisions(review));
  return (
    <span id="dt-submit-summary" className="dt-submit-summary" data-testid="submit-summary" title={summary}>
      {summary}
    </span>
  );
}

/**
 * One row: hunk navigation, the decisions on every hunk and undo, then Submit and Reject… at the row's
 * right end, where they stay whatever else changes (the summary is SubmitSummary's, under them). The
 * current hunk is decided in its bar in the diff or by key; actions on selected lines float over the
 * diff while lines are selected (SelectionActions). An ended review (readOnly) shows no control that
 * could change it, only what came of its hunks.
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
  const submitError = useReviewUi((s) =>
    s.submitError?.reviewId === review.id ? s.submitError.message : null,
  );
  const counts = countDecisions(review);
  const total = review.files[fileIndex]?.hunks.length ?? 0;
  const anyHunks = review.files.some((file) => file.hunks.length > 0 || file.binary);
  const blocker = submitBlocker(review, fileName) ?? partialDecisionBlocker(review.client, counts);

  return (
    <div className="dt-toolbar-wrap">
      <div className="dt-toolbar" data-testid="toolbar">
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
        </div>
        {!readOnly && (
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
        )}
        {readOnly ? (
          <span className="dt-submit-summary" data-testid="decision-tally">
            {endedTally(review, counts)}
          </span>
        ) : (
          <span className="dt-toolbar-spacer" />
        )}
        {!readOnly && (
          <div className="dt-toolbar-group dt-toolbar-finish" role="group" aria-label="Finish review">
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
            <button
              type="button"
              className="dt-danger"
              title="Reject the whole review, with a reason for the agent"
              onClick={() => setRejecting(true)}
            >
              Reject…
            </button>
            <RejectDialog open={rejecting} onClose={() => setRejecting(false)} review={review} />
          </div>
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
