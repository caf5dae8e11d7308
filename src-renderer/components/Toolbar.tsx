import { useState } from 'react';
import type { ReviewSummary } from '../../shared/app-api';
import { useActions } from '../context';
import { commandDescriptions, shortcutLabels, type Command } from '../keyboard';
import { countDecisions, submitSummary, type DecisionCounts } from '../review-model';
import { useAppStore, type Cursor } from '../store';
import { RejectDialog } from './RejectDialog';

const hint = (command: Command): string => `${commandDescriptions[command]} (${shortcutLabels[command]})`;

/** What the hunks of an ended review were left at; nothing more will happen to them. */
const tally = (counts: DecisionCounts): string =>
  `${counts.accepted} accepted, ${counts.rejected} rejected, ${counts.pending} undecided`;

/**
 * Hunk navigation always; the decision controls only while the review is pending. An ended review
 * (readOnly) shows no control that could change it, only how its hunks were left.
 */
export function Toolbar({
  review,
  cursor,
  readOnly = false,
}: {
  review: ReviewSummary;
  cursor: Cursor;
  readOnly?: boolean;
}) {
  const actions = useActions();
  const moveCursor = useAppStore((s) => s.moveCursor);
  const canUndo = useAppStore((s) => s.undo.some((entry) => entry.reviewId === review.id));
  const [rejecting, setRejecting] = useState(false);
  const counts = countDecisions(review);
  const total = review.files[cursor.fileIndex]?.hunks.length ?? 0;
  const anyHunks = review.files.some((file) => file.hunks.length > 0);

  return (
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
        <span className="dt-counter" data-testid="hunk-counter" aria-live="polite" aria-atomic="true">
          {cursor.hunkIndex === null ? 'No hunks' : `Hunk ${cursor.hunkIndex + 1} of ${total}`}
        </span>
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
              disabled={cursor.hunkIndex === null}
              onClick={() => void actions.decideCurrent('accepted')}
            >
              ✓
            </button>
            <button
              type="button"
              className="dt-hunk-reject"
              aria-label="Reject current hunk"
              title={hint('rejectHunk')}
              disabled={cursor.hunkIndex === null}
              onClick={() => void actions.decideCurrent('rejected')}
            >
              ✗
            </button>
          </>
        )}
      </div>
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
              disabled={!canUndo}
              title={hint('undo')}
              onClick={() => void actions.undo()}
            >
              Undo
            </button>
          </div>
          <div className="dt-toolbar-group" role="group" aria-label="Finish review">
            <button
              type="button"
              className="dt-primary"
              aria-describedby="dt-submit-summary"
              title={hint('submit')}
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
          <RejectDialog open={rejecting} onClose={() => setRejecting(false)} />
        </>
      )}
    </div>
  );
}
