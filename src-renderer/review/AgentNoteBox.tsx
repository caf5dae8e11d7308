import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { MAX_NOTE_CHARS } from '../../shared/limits';
import type { ReviewSummary } from '../../shared/app-api';
import { noteUnheardText, offersHooksSetup, useNoteDrafts } from './agent-note';
import { useActions } from '../state/context';
import { HOOKS_SETUP_LABEL, useHooksSetup } from '../settings/hooks-setup';
import { isPaused } from '../keys/key-pause';
import { keysLabel } from '../keys/key-chords';
import { useKeyMap } from '../keys/key-map';
import { registerNoteFocuser } from './review-ui';
import { useAppStore } from '../state/store';

/**
 * The note to the agent for one pending review: one line until it has focus, then it grows with its
 * text (CSS). It never takes focus by itself (the note key gives it focus), and while the person types in
 * it the review keys (j, k, u…) stay out of the way (keyboard.ts: a textarea is a typing target); only
 * Ctrl/Cmd+Enter acts, as everywhere: it submits (allows, on an approval card). Where the note cannot
 * reach the agent, the empty box says so, the open box says why (with the way to fix it), and a written
 * note is marked "Not sent".
 */
export function AgentNoteBox({
  review,
  aside,
}: {
  review: ReviewSummary;
  /** At the row's end: what goes out with the note (the submit summary). */
  aside?: ReactNode;
}) {
  const actions = useActions();
  const draft = useNoteDrafts((s) => s.drafts[review.id] ?? '');
  const setDraft = useNoteDrafts((s) => s.setDraft);
  const showHooksSetup = useHooksSetup((s) => s.show);
  const keyMap = useKeyMap();
  const box = useRef<HTMLTextAreaElement>(null);
  const unheard = noteUnheardText(review.client.protocol);
  const id = `dt-agent-note-${review.id}`;
  const hintId = `${id}-hint`;
  const focusKeys = keysLabel(keyMap, 'focusNote');

  useEffect(() => registerNoteFocuser(() => box.current?.focus()), []);

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.key === 'Escape') {
      // Back to the review keys; the draft stays.
      e.currentTarget.blur();
      return;
    }
    if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
    e.preventDefault();
    // The same hold as the window's keys: a review that just came up is not submitted by accident.
    if (isPaused(useAppStore.getState().keyPause, Date.now())) return;
    void actions.submit();
  };

  return (
    <div className="dt-agent-note" data-testid="agent-note">
      <div className="dt-agent-note-row">
        <label htmlFor={id}>Note to the agent</label>
        {/* One line in the row; focused, it opens over what is below, so nothing moves when it closes
            (a click that closes it lands where the person aimed). */}
        <div className="dt-agent-note-field">
          <div className="dt-agent-note-pop">
            <textarea
              ref={box}
              id={id}
              rows={1}
              maxLength={MAX_NOTE_CHARS}
              value={draft}
              placeholder={
                unheard
                  ? `${unheard} Kept in History only.`
                  : review.approval
                    ? 'Sent with Allow or Deny (a deny gives it as the reason)'
                    : `Sent with Submit or Reject${focusKeys ? ` (${focusKeys} to write)` : ''}`
              }
              aria-describedby={unheard ? hintId : undefined}
              onChange={(e) => setDraft(review.id, e.target.value)}
              onKeyDown={onKeyDown}
            />
            {unheard && (
              <p id={hintId} className="dt-agent-note-unheard" data-testid="note-unheard">
                {unheard}{' '}
                {offersHooksSetup(review.client.protocol) ? (
                  <>
                    Claude Code's hooks can.{' '}
                    <button type="button" onClick={() => showHooksSetup('claude-code')}>
                      {HOOKS_SETUP_LABEL}
                    </button>
                  </>
                ) : (
                  'It is kept in History only.'
                )}
              </p>
            )}
          </div>
        </div>
        {unheard && draft && (
          <span className="dt-agent-note-unsent" title={unheard}>
            Not sent
          </span>
        )}
        {aside}
      </div>
    </div>
  );
}
