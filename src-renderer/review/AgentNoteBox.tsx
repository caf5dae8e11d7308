import type { KeyboardEvent } from 'react';
import { MAX_NOTE_CHARS } from '../../shared/limits';
import type { ReviewSummary } from '../../shared/app-api';
import { noteUnheardText, offersHooksSetup, useNoteDrafts } from './agent-note';
import { useActions } from '../state/context';
import { HOOKS_SETUP_LABEL, useHooksSetup } from '../settings/hooks-setup';
import { isPaused } from '../keys/key-pause';
import { MOD } from '../keys/keyboard';
import { useAppStore } from '../state/store';

/**
 * The note to the agent for one pending review. It never takes focus by itself, and while the person
 * types in it the review keys (j, k, u…) stay out of the way (keyboard.ts: a textarea is a typing
 * target); only Ctrl/Cmd+Enter acts, as everywhere: it submits (allows, on an approval card).
 */
export function AgentNoteBox({ review }: { review: ReviewSummary }) {
  const actions = useActions();
  const draft = useNoteDrafts((s) => s.drafts[review.id] ?? '');
  const setDraft = useNoteDrafts((s) => s.setDraft);
  const showHooksSetup = useHooksSetup((s) => s.show);
  const unheard = noteUnheardText(review.client.protocol);
  const id = `dt-agent-note-${review.id}`;
  const hintId = `${id}-hint`;

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
    e.preventDefault();
    // The same hold as the window's keys: a review that just came up is not submitted by accident.
    if (isPaused(useAppStore.getState().keyPause, Date.now())) return;
    void actions.submit();
  };

  return (
    <div className="dt-agent-note" data-testid="agent-note">
      <label htmlFor={id}>Note to the agent</label>
      <textarea
        id={id}
        rows={2}
        maxLength={MAX_NOTE_CHARS}
        value={draft}
        placeholder={
          review.approval
            ? 'Sent with Allow or Deny (a deny gives it as the reason)'
            : `Sent with Submit or Reject (${MOD}+Enter submits)`
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
  );
}
