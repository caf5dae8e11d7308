import type { ReviewSummary } from '../../shared/app-api';
import { useActions } from '../state/context';
import { withKeys } from '../keys/key-chords';
import { useKeyMap } from '../keys/key-map';
import { useReviewUi } from './review-ui';
import { sendSummary, type LinesToSend } from './send-to-agent';

/**
 * "Send to agent" for the lines selected in the diff, for a pending or an ended review alike: they go
 * to the review's agent as context. Shown by SelectionActions, only for a client that can take them.
 */
export function SendToAgent({ review, lines }: { review: ReviewSummary; lines: LinesToSend }) {
  const actions = useActions();
  const editsPending = useReviewUi((s) => s.editsPending);
  const keyMap = useKeyMap();
  const waiting = editsPending && lines.side === 'proposed';
  return (
    <>
      <span id="dt-send-lines" className="dt-line-selection" data-testid="send-lines">
        {waiting ? 'Saving your edit: lines of the proposal wait until it is saved' : sendSummary(lines)}
      </span>
      {!waiting && (
        <button
          type="button"
          className="dt-send-to-agent"
          aria-describedby="dt-send-lines"
          title={withKeys(
            `Send the selected lines to ${review.client.name} as context`,
            keyMap,
            'sendToAgent',
          )}
          onClick={() => void actions.sendSelectedLines()}
        >
          <span aria-hidden="true">➤ </span>Send to agent
        </button>
      )}
    </>
  );
}
