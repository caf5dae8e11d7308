import { useEffect } from 'react';
import type { ReviewSummary } from '../../shared/app-api';
import { useActions } from '../state/context';
import { withKeys } from '../keys/key-chords';
import { useKeyMap } from '../keys/key-map';
import { resolveLineSelection, selectionSummary } from './line-selection';
import { useReviewUi } from './review-ui';
import { installSendKey, linesToSend, sendUnavailableText } from './send-to-agent';
import { SendToAgent } from './SendToAgent';

/**
 * What can be done with the lines selected in the diff, floating over the diff's lower edge while lines
 * are selected: accept or reject them (lines of one hunk of a pending review), send them to the agent.
 * Nothing is shown without a selection, so the toolbar carries no disabled buttons waiting for one, and
 * the diff does not move when the bar comes and goes.
 */
export function SelectionActions({
  review,
  fileIndex,
  readOnly,
}: {
  review: ReviewSummary;
  fileIndex: number;
  readOnly: boolean;
}) {
  const actions = useActions();
  const keyMap = useKeyMap();
  const lineSelection = useReviewUi((s) => s.lineSelection);
  const editsPending = useReviewUi((s) => s.editsPending);

  // The send key is there even when nothing is selected or sending is not possible: pressed, it says why.
  useEffect(() => installSendKey(window, () => void actions.sendSelectedLines()), [actions]);

  const ours =
    lineSelection?.reviewId === review.id && lineSelection.fileIndex === fileIndex ? lineSelection : null;
  if (!ours) return null;
  const decidable = readOnly
    ? null
    : resolveLineSelection(review.files[fileIndex]?.hunks ?? [], ours.selection);
  const lines = linesToSend(ours.selection);
  const unavailable = sendUnavailableText(review);
  // A caret where nothing applies (an unchanged line of a client that takes no lines) shows nothing.
  if (!decidable?.ok && (!lines.ok || unavailable)) return null;

  return (
    <div
      className="dt-selection-bar"
      role="group"
      aria-label="Selected lines"
      data-testid="selection-actions"
    >
      {decidable?.ok && (
        <div className="dt-selection-group">
          {editsPending ? (
            <span className="dt-line-selection" data-testid="line-selection">
              Saving your edit: line decisions wait until the diff is up to date
            </span>
          ) : (
            <>
              <span className="dt-line-selection" data-testid="line-selection" id="dt-line-selection">
                {selectionSummary(decidable)}
              </span>
              <button
                type="button"
                className="dt-hunk-accept"
                aria-describedby="dt-line-selection"
                title={withKeys('Accept the selected lines of one hunk', keyMap, 'acceptLines')}
                onClick={() => void actions.decideSelectedLines('accepted')}
              >
                {/* The name is the words shown, with "selected" for screen readers (label-content-name-match). */}
                <span aria-hidden="true">✓ </span>
                Accept
                <span className="dt-sr-only"> selected</span> lines
              </button>
              <button
                type="button"
                className="dt-hunk-reject"
                aria-describedby="dt-line-selection"
                title={withKeys('Reject the selected lines of one hunk', keyMap, 'rejectLines')}
                onClick={() => void actions.decideSelectedLines('rejected')}
              >
                <span aria-hidden="true">✗ </span>
                Reject
                <span className="dt-sr-only"> selected</span> lines
              </button>
            </>
          )}
        </div>
      )}
      <div className="dt-selection-group">
        {unavailable ? (
          <span className="dt-send-unavailable" data-testid="send-unavailable">
            {unavailable}
          </span>
        ) : (
          lines.ok && <SendToAgent review={review} lines={lines} />
        )}
      </div>
    </div>
  );
}
