import { useCallback, useEffect, useState } from 'react';
import type { AgentHookState } from '../../shared/app-api';
import { useApi } from '../state/api-context';
import { errorMessage } from '../review/review-model';
import { useAppStore } from '../state/store';
import { hookActions, hookStatusText } from '../settings/agent-hooks-model';
import { useHooksSetup } from '../settings/hooks-setup';
import './AgentHooksList.css';

/**
 * Every agent's hooks as its own files say, read afresh when the list appears, when the hooks dialog
 * closes and when the window regains focus (the person may have trusted a hook in Codex meanwhile).
 */
function useAgentHookStates(): { states: AgentHookState[] | null; problem: string | null } {
  const api = useApi();
  const dialogOpen = useHooksSetup((s) => s.open !== null);
  const [states, setStates] = useState<AgentHookState[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const read = useCallback(() => {
    api.call('agentHooksStatus', {}).then(
      (now) => {
        setStates(now);
        setProblem(null);
      },
      (error: unknown) =>
        setProblem(errorMessage(error, useAppStore.getState().snapshot?.workspaceFolders ?? [])),
    );
  }, [api]);

  useEffect(() => {
    if (!dialogOpen) read();
  }, [dialogOpen, read]);
  useEffect(() => {
    window.addEventListener('focus', read);
    return () => window.removeEventListener('focus', read);
  }, [read]);
  return { states, problem };
}

/**
 * Connections' "Review before it writes": one row per agent DiffTray installs hooks for, its status in
 * words, and the button that opens the hooks dialog (which shows the exact change before it writes).
 */
export function AgentHooksList() {
  const { states, problem } = useAgentHookStates();
  const show = useHooksSetup((s) => s.show);
  return (
    <section className="dt-agent-hooks" aria-labelledby="dt-agent-hooks-title" data-testid="agent-hooks">
      <h2 id="dt-agent-hooks-title" className="dt-queue-title">
        Review before it writes
      </h2>
      <p className="dt-client-note dt-agent-hooks-intro">
        Each agent's hooks ask DiffTray before its edits and shell commands, from any terminal.
      </p>
      {problem && (
        <p role="alert" className="dt-client-note">
          Could not read the agents' hooks: {problem}
        </p>
      )}
      {states && (
        <ul>
          {states.map((state) => (
            // Not a heading: the agent's connected card (above) is headed by the same name.
            <li key={state.agent} className="dt-agent-hook" data-agent={state.agent}>
              <strong className="dt-agent-hook-name">{state.label}</strong>
              <p className="dt-client-note" data-testid="agent-hook-status" data-status={state.status}>
                {hookStatusText(state)}
              </p>
              {hookActions(state).map((action) => (
                <button
                  key={action.text}
                  type="button"
                  aria-label={action.name}
                  onClick={() => show(state.agent, action.remove)}
                >
                  {action.text}
                </button>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
