import { useEffect, useState } from 'react';
import type { AgentHooksPlan } from '../../shared/app-api';
import { useApi } from '../state/api-context';
import { useModalDialog } from '../state/hooks';
import { useHooksSetup, type HooksErrand } from './hooks-setup';
import {
  dialogIntro,
  dialogTitle,
  doneAnnouncement,
  errorText,
  stepText,
  type HooksStep,
} from './agent-hooks-model';
import { HooksPlanDetails } from './HooksPlanDetails';
import { errorMessage } from '../review/review-model';
import { useAppStore } from '../state/store';
import '../views/dialog.css';
import './AgentHooksDialog.css';

/** An error as the person reads it, with workspace paths shortened. */
const readableError = (error: unknown): string =>
  errorMessage(error, useAppStore.getState().snapshot?.workspaceFolders ?? []);

/** The dialog's content for one opening: it asks main afresh each time (the file may have changed). */
function HooksSetupSteps({ errand, onClose }: { errand: HooksErrand; onClose: () => void }) {
  const api = useApi();
  const [step, setStep] = useState<HooksStep>({ kind: 'loading' });
  const { agent, remove } = errand;

  useEffect(() => {
    let current = true;
    api.call('agentHooksSetup', { agent, apply: false, remove }).then(
      (plan) => current && setStep({ kind: 'plan', plan }),
      (error: unknown) => current && setStep({ kind: 'error', message: readableError(error) }),
    );
    return () => {
      current = false;
    };
  }, [api, agent, remove]);

  const apply = async (plan: AgentHooksPlan): Promise<void> => {
    setStep({ kind: 'applying', plan });
    try {
      const after = await api.call('agentHooksSetup', { agent, apply: true, remove });
      setStep({ kind: 'done', plan: after });
      useAppStore.getState().announce(doneAnnouncement(agent, remove));
    } catch (error) {
      setStep({ kind: 'error', message: readableError(error), plan });
    }
  };

  const plan = step.kind === 'loading' ? undefined : step.plan;
  const canApply = (step.kind === 'plan' && !step.plan.upToDate) || step.kind === 'error';
  const finished = step.kind === 'done' || (step.kind === 'plan' && step.plan.upToDate);

  return (
    <>
      <div role="status" className="dt-hooks-status" data-testid="hooks-status">
        {stepText(step, errand)}
      </div>
      {step.kind === 'error' && (
        <p role="alert" className="dt-hooks-error" data-testid="hooks-error">
          {errorText(errand, step.message)}
        </p>
      )}
      {plan && <HooksPlanDetails plan={plan} />}
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
 * Sets up (or removes) an agent's hooks, as `difftray setup <agent>` does, from the app: shows the exact
 * change first, applies only when the person says so, and reports what happened or the error. Opened by
 * any "Set up … hooks" button (hooks-setup.ts).
 */
export function AgentHooksDialog() {
  const errand = useHooksSetup((s) => s.open);
  const hide = useHooksSetup((s) => s.hide);
  const dialogRef = useModalDialog(errand !== null);

  return (
    <dialog
      ref={dialogRef}
      className="dt-dialog dt-hooks-dialog"
      aria-labelledby="dt-hooks-title"
      onClose={hide}
    >
      {errand && (
        <>
          <h2 id="dt-hooks-title">{dialogTitle(errand)}</h2>
          <p>{dialogIntro(errand)}</p>
          <HooksSetupSteps key={`${errand.agent}-${errand.remove}`} errand={errand} onClose={hide} />
        </>
      )}
    </dialog>
  );
}
