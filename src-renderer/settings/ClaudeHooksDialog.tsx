import { useEffect, useState } from 'react';
import type { ClaudeHooksPlan } from '../../shared/app-api';
import { useApi } from '../state/api-context';
import { useModalDialog } from '../state/hooks';
import { useHooksSetup } from './hooks-setup';
import { errorMessage } from '../review/review-model';
import { useAppStore } from '../state/store';
import '../views/dialog.css';

/** An error as the person reads it, with workspace paths shortened. */
const errorText = (error: unknown): string =>
  errorMessage(error, useAppStore.getState().snapshot?.workspaceFolders ?? []);

type Step =
  | { kind: 'loading' }
  | { kind: 'plan'; plan: ClaudeHooksPlan }
  | { kind: 'applying'; plan: ClaudeHooksPlan }
  | { kind: 'done'; plan: ClaudeHooksPlan }
  | { kind: 'error'; message: string; plan?: ClaudeHooksPlan };

/** What would change, as main worked it out: the settings file, each change, the hook command. */
function PlanDetails({ plan }: { plan: ClaudeHooksPlan }) {
  return (
    <dl className="dt-hooks-plan" data-testid="hooks-plan">
      <dt>Settings file</dt>
      <dd>
        <code>{plan.settingsPath}</code>
      </dd>
      {plan.changes.length > 0 && (
        <>
          <dt>Changes</dt>
          <dd>
            <ul className="dt-hooks-changes">
              {plan.changes.map((change) => (
                <li key={change}>{change}</li>
              ))}
            </ul>
          </dd>
        </>
      )}
      <dt>Hook command</dt>
      <dd>
        <code className="dt-hooks-command">{plan.command}</code>
      </dd>
    </dl>
  );
}

/** The dialog's content for one opening: it asks main afresh each time (the settings may have changed). */
function HooksSetupSteps({ onClose }: { onClose: () => void }) {
  const api = useApi();
  const [step, setStep] = useState<Step>({ kind: 'loading' });

  useEffect(() => {
    let current = true;
    api.call('claudeHooksSetup', { apply: false }).then(
      (plan) => current && setStep({ kind: 'plan', plan }),
      (error: unknown) => current && setStep({ kind: 'error', message: errorText(error) }),
    );
    return () => {
      current = false;
    };
  }, [api]);

  const apply = async (plan: ClaudeHooksPlan): Promise<void> => {
    setStep({ kind: 'applying', plan });
    try {
      const after = await api.call('claudeHooksSetup', { apply: true });
      setStep({ kind: 'done', plan: after });
      useAppStore.getState().announce('Claude Code hooks set up');
    } catch (error) {
      setStep({ kind: 'error', message: errorText(error), plan });
    }
  };

  const plan = step.kind === 'loading' ? undefined : step.plan;
  const canApply = (step.kind === 'plan' && !step.plan.upToDate) || step.kind === 'error';
  const finished = step.kind === 'done' || (step.kind === 'plan' && step.plan.upToDate);

  return (
    <>
      <div role="status" className="dt-hooks-status" data-testid="hooks-status">
        {step.kind === 'loading' && 'Reading Claude Code’s settings…'}
        {step.kind === 'plan' &&
          (step.plan.upToDate
            ? 'Claude Code’s hooks are already set up: nothing to change.'
            : 'Applying makes these changes (the old file is backed up):')}
        {step.kind === 'applying' && 'Applying…'}
        {step.kind === 'done' &&
          'Done: Claude Code’s hooks are set up. Sessions started from now on ask DiffTray.'}
      </div>
      {step.kind === 'error' && (
        <p role="alert" className="dt-hooks-error" data-testid="hooks-error">
          Could not set up Claude Code hooks: {step.message}
        </p>
      )}
      {plan && <PlanDetails plan={plan} />}
      <div className="dt-dialog-buttons">
        <button type="button" onClick={onClose}>
          {finished ? 'Close' : 'Cancel'}
        </button>
        {canApply && plan && (
          <button type="button" className="dt-primary" onClick={() => void apply(plan)}>
            Apply
          </button>
        )}
      </div>
    </>
  );
}

/**
 * Sets up Claude Code's hooks (`difftray setup claude-code`) from the app: shows what it will change
 * first, applies only when the person says so, and reports what happened or the error. Opened by any
 * "Set up Claude Code hooks…" button (hooks-setup.ts).
 */
export function ClaudeHooksDialog() {
  const open = useHooksSetup((s) => s.open);
  const hide = useHooksSetup((s) => s.hide);
  const dialogRef = useModalDialog(open);

  return (
    <dialog
      ref={dialogRef}
      className="dt-dialog dt-hooks-dialog"
      aria-labelledby="dt-hooks-title"
      onClose={hide}
    >
      <h2 id="dt-hooks-title">Set up Claude Code hooks</h2>
      <p>
        Claude Code then asks DiffTray before every Edit, Write and Bash command, from any terminal: you
        review per hunk, and your note reaches the agent.
      </p>
      {open && <HooksSetupSteps onClose={hide} />}
    </dialog>
  );
}
