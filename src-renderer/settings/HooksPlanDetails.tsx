import type { AgentHooksPlan } from '../../shared/app-api';
import { CodeText } from '../views/CodeText';
import { PathText } from '../views/PathText';

/**
 * What would change, as main worked it out: the agent's file, each change, the hook commands; after an
 * apply, where the old file was kept, and what is left to do in the agent itself (Codex: trust the hook).
 * Paths wrap only after a separator (PathText).
 */
export function HooksPlanDetails({ plan }: { plan: AgentHooksPlan }) {
  return (
    <>
      <dl className="dt-hooks-plan" data-testid="hooks-plan">
        <dt>Settings file</dt>
        <dd>
          <code>
            <PathText text={plan.settingsPath} />
          </code>
        </dd>
        {plan.changes.length > 0 && (
          <>
            <dt>Changes</dt>
            <dd>
              <ul className="dt-hooks-changes">
                {plan.changes.map((change) => (
                  <li key={change}>
                    <PathText text={change} />
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {plan.commands.length > 0 && (
          <>
            <dt>{plan.commands.length === 1 ? 'Hook command' : 'Hook commands'}</dt>
            {plan.commands.map((command) => (
              <dd key={command}>
                <code className="dt-hooks-command">
                  <PathText text={command} />
                </code>
              </dd>
            ))}
          </>
        )}
        {plan.backupPath && (
          <>
            <dt>Backup</dt>
            <dd>
              <code>
                <PathText text={plan.backupPath} />
              </code>
            </dd>
          </>
        )}
      </dl>
      {plan.pendingStep && (
        <p className="dt-hooks-pending" data-testid="hooks-pending-step">
          <CodeText text={plan.pendingStep} />
        </p>
      )}
    </>
  );
}
