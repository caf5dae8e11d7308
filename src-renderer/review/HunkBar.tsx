import { memo } from 'react';
import type { HunkView } from '../../shared/app-api';
import type { HunkDecision } from '../../shared/hunks';
import { keysLabel } from '../keys/key-chords';
import { useKeyMap } from '../keys/key-map';
import { decisionLabel } from './review-model';
import './HunkBar.css';

/** "2 lines accepted, 1 rejected" for a mixed hunk, from its per-line decisions. */
export function mixedDetail(hunk: HunkView): string {
  const lines = hunk.lines;
  if (!lines) return '';
  const all = [...lines.removed, ...lines.added];
  const count = (decision: HunkDecision) => all.filter((d) => d === decision).length;
  const parts = [`${count('accepted')} accepted`, `${count('rejected')} rejected`];
  const pending = count('pending');
  if (pending > 0) parts.push(`${pending} undecided`);
  return `Lines: ${parts.join(', ')}`;
}

/** "Accept hunk 2 (⌘+Y on the current hunk)", or the action alone when the command has no key. */
const onCurrent = (action: string, keys: string): string =>
  keys ? `${action} (${keys} on the current hunk)` : action;

/**
 * The control drawn in the diff just above a hunk: its number, accept and reject, its state. Buttons
 * come before the state so a narrow editor clips information, not controls. Memoized: moving to another
 * hunk re-renders the two bars whose `current` changed, not every bar on screen.
 */
export const HunkBar = memo(function HunkBar({
  hunk,
  position,
  current,
  readOnly = false,
  onDecide,
  onSelect,
}: {
  hunk: HunkView;
  position: number;
  current: boolean;
  /** The review ended: the hunk's state is shown, nothing can be decided. */
  readOnly?: boolean;
  onDecide: (position: number, decision: HunkDecision) => void;
  onSelect: (position: number) => void;
}) {
  const keyMap = useKeyMap();
  const n = position + 1;
  const added = hunk.proposedEnd - hunk.proposedStart;
  const removed = hunk.baseEnd - hunk.baseStart;
  const detail = hunk.decision === 'mixed' ? mixedDetail(hunk) : '';
  return (
    <div
      className="dt-hunk-bar"
      role="group"
      aria-label={`Hunk ${n}`}
      data-hunk={n}
      data-decision={hunk.decision}
      data-current={current ? 'true' : 'false'}
      // Clicking or tabbing into a hunk's control makes it the current hunk, so keys act on it.
      onClick={() => onSelect(position)}
      onFocus={() => onSelect(position)}
    >
      <span className="dt-hunk-name">Hunk {n}</span>
      {!readOnly && (
        <>
          <button
            type="button"
            className="dt-hunk-accept"
            aria-label={`Accept hunk ${n}`}
            title={onCurrent(`Accept hunk ${n}`, keysLabel(keyMap, 'acceptHunk'))}
            onClick={() => onDecide(position, 'accepted')}
          >
            ✓ Accept
          </button>
          <button
            type="button"
            className="dt-hunk-reject"
            aria-label={`Reject hunk ${n}`}
            title={onCurrent(`Reject hunk ${n}`, keysLabel(keyMap, 'rejectHunk'))}
            onClick={() => onDecide(position, 'rejected')}
          >
            ✗ Reject
          </button>
        </>
      )}
      <span className="dt-hunk-state" data-testid={`hunk-${n}-state`} title={detail || undefined}>
        {decisionLabel[hunk.decision]}
      </span>
      {detail && <span className="dt-sr-only">{detail}</span>}
      <span className="dt-hunk-lines">
        <span aria-hidden="true">{`+${added} −${removed}`}</span>
        <span className="dt-sr-only">{`${added} lines added, ${removed} removed`}</span>
      </span>
    </div>
  );
});
