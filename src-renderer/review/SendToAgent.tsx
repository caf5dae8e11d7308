import { useEffect } from 'react';
import type { ReviewSummary } from '../../shared/app-api';
import { useActions } from '../state/context';
import { withKeys } from '../keys/key-chords';
import { useKeyMap } from '../keys/key-map';
import { useReviewUi } from './review-ui';
import { installSendKey, linesToSend, sendSummary, sendUnavailableText } from './send-to-agent';

/**
 * "Send to agent" beside the line decisions, for a pending or an ended review alike: the lines selected
 * in the diff go to the review's agent as context. Where the client cannot take them, says why instead.
 */
export function SendToAgent({ review, fileIndex }: { review: ReviewSummary; fileIndex: number }) {
  const actions = useActions();
  const lineSelection = useReviewUi((s) => s.lineSelection);
  const editsPending = useReviewUi((s) => s.editsPending);
  const keyMap = useKeyMap();
  const unavailable = sendUnavailableText(review);

  // The key is there even when sending is not: pressed, it says why not.
  useEffect(() => installSendKey(window, () => void actions.sendSelectedLines()), [actions]);

  if (unavailable) {
    return (
      <span className="dt-send-unavailable" data-testid="send-unavailable">
        {unavailable}
      </span>
    );
  }
  const ours =
    lineSelection?.reviewId === review.id && lineSelection.fileIndex === fileIndex ? lineSelection : null;
  const lines = linesToSend(ours?.selection ?? null);
  const waiting = editsPending && lines.ok && lines.side === 'proposed';
  const status = !lines.ok
    ? lines.reason
    : waiting
      ? 'Saving your edit: lines of the proposal wait until it is saved'
      : sendSummary(lines);
  return (
    <div className="dt-toolbar-group" role="group" aria-label="Send selected lines to the agent">
      <button
        type="button"
        className="dt-send-to-agent"
        aria-describedby="dt-send-lines"
        title={withKeys(`Send the selected lines to ${review.client.name} as context`, keyMap, 'sendToAgent')}
        disabled={!lines.ok || waiting}
        onClick={() => void actions.sendSelectedLines()}
      >
        <span aria-hidden="true">➤ </span>Send to agent
      </button>
      <span id="dt-send-lines" className="dt-line-selection" data-testid="send-lines">
        {status}
      </span>
    </div>
  );
}
