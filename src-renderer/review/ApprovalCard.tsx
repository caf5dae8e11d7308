import type { ApprovalRequest, ReviewSummary } from '../../shared/app-api';
import { hasInvisibles } from '../../shared/invisible-chars';
import { noteToSend } from './agent-note';
import { approvalArgsText, approvalLabel, riskLabels } from './approval-model';
import { useActions } from '../state/context';
import { withKeys } from '../keys/key-chords';
import { useKeyMap } from '../keys/key-map';
import { AgentNoteBox } from './AgentNoteBox';
import { Revealed } from './Revealed';

/** The facts of the request, each only when the agent gave it. */
function ApprovalFacts({ approval }: { approval: ApprovalRequest }) {
  const args = approvalArgsText(approval.args);
  const shown = [approval.command, approval.reason, approval.cwd, approval.toolName, args];
  const hidden = shown.some((text) => text !== undefined && hasInvisibles(text));
  return (
    <>
      {hidden && (
        <p className="dt-approval-hidden" role="alert" data-testid="approval-hidden-chars">
          This request holds hidden characters, marked ⟨U+…⟩: what runs may differ from how it reads.
        </p>
      )}
      <dl className="dt-approval-facts">
        {approval.command !== undefined && (
          <>
            <dt>Command</dt>
            <dd>
              <pre className="dt-approval-command" data-testid="approval-command">
                <Revealed text={approval.command} />
              </pre>
            </dd>
          </>
        )}
        {approval.reason && (
          <>
            <dt>Why</dt>
            <dd className="dt-approval-reason">
              <Revealed text={approval.reason} />
            </dd>
          </>
        )}
        {approval.cwd && (
          <>
            <dt>Folder</dt>
            <dd>
              <code>
                <Revealed text={approval.cwd} />
              </code>
            </dd>
          </>
        )}
        {approval.toolName && (
          <>
            <dt>Tool</dt>
            <dd>
              <code>
                <Revealed text={approval.toolName} />
              </code>
            </dd>
          </>
        )}
        {args !== undefined && (
          <>
            <dt>Arguments</dt>
            <dd>
              <pre className="dt-approval-args">
                <Revealed text={args} />
              </pre>
            </dd>
          </>
        )}
        {approval.riskLevel && (
          <>
            <dt>Risk</dt>
            <dd className="dt-approval-risk" data-risk={approval.riskLevel}>
              {riskLabels[approval.riskLevel]}
            </dd>
          </>
        )}
      </dl>
    </>
  );
}

/**
 * An approval card in place of the diff: what the agent wants to run, and Allow / Deny with the note
 * (a deny sends the note as its reason). The submit key allows, as it submits a review; deny is only
 * the button, so no key denies by accident.
 */
export function ApprovalCard({
  review,
  approval,
  readOnly,
}: {
  review: ReviewSummary;
  approval: ApprovalRequest;
  readOnly: boolean;
}) {
  const actions = useActions();
  const keyMap = useKeyMap();
  return (
    <section
      className="dt-approval"
      aria-label={approvalLabel(approval)}
      data-testid="approval-card"
      data-kind={approval.kind}
    >
      <ApprovalFacts approval={approval} />
      {!readOnly && (
        <>
          <AgentNoteBox review={review} />
          <div className="dt-approval-buttons" role="group" aria-label="Answer">
            <button
              type="button"
              className="dt-primary"
              title={withKeys('Allow', keyMap, 'submit')}
              onClick={() => void actions.submit()}
            >
              Allow
            </button>
            <button
              type="button"
              className="dt-danger"
              title="Deny; the note goes to the agent as the reason"
              onClick={() => void actions.reject(noteToSend(review.id) ?? '')}
            >
              Deny
            </button>
          </div>
        </>
      )}
    </section>
  );
}
