/**
 * The words of Connections' "Review before it writes" list and of the hooks dialog: each agent's status
 * as its own files say (agentHooksStatus), the buttons it offers, and what the dialog says at each step.
 */
import type { AgentHookState, AgentHooksPlan } from '../../shared/app-api';
import { AGENT_LABELS, type SetupAgent } from '../../shared/hook-setup/agent-hooks';
import type { HooksErrand } from './hooks-setup';

/** An agent's status in words. */
export function hookStatusText(state: AgentHookState): string {
  switch (state.status) {
    case 'installed':
      return 'Hooks installed';
    case 'untrusted':
      return 'Installed — not trusted yet: in Codex type /hooks, then t';
    case 'disabled':
      return 'Installed — turned off in Codex: type /hooks and turn DiffTray’s hooks on';
    case 'outdated':
      return 'Outdated — set up again';
    case 'not-installed':
      return 'Not set up';
    case 'unreadable':
      return `Cannot use its file: ${state.problem ?? state.file}`;
  }
}

export interface HookAction {
  /** The button's text. */
  text: string;
  /** Its accessible name: the agent named, since every row has one. */
  name: string;
  remove: boolean;
}

/**
 * What a row offers: Set up when nothing is there, Update (and Remove) when setup would change what is
 * there, Remove once installed. A file setup cannot use offers nothing: the person fixes it first.
 */
export function hookActions(state: AgentHookState): HookAction[] {
  const setUp = (text: string): HookAction => ({
    text,
    name: `${text} ${state.label} hooks…`,
    remove: false,
  });
  const remove: HookAction = { text: 'Remove', name: `Remove ${state.label} hooks…`, remove: true };
  switch (state.status) {
    case 'not-installed':
      return [setUp('Set up')];
    case 'outdated':
      return [setUp('Update'), remove];
    case 'installed':
    case 'untrusted':
    case 'disabled':
      return [remove];
    case 'unreadable':
      return [];
  }
}

/** The dialog's title: it names the agent and the errand. */
export function dialogTitle({ agent, remove }: HooksErrand): string {
  return `${remove ? 'Remove' : 'Set up'} ${AGENT_LABELS[agent]} hooks`;
}

/** Why set them up (or what removing does), under the title. */
export function dialogIntro({ agent, remove }: HooksErrand): string {
  const label = AGENT_LABELS[agent];
  return remove
    ? `${label} then no longer asks DiffTray: it asks in its terminal, as it does without DiffTray.`
    : `${label} then asks DiffTray before each edit and shell command, from any terminal: you review per ` +
        'hunk, and your note reaches the agent.';
}

export type HooksStep =
  | { kind: 'loading' }
  | { kind: 'plan'; plan: AgentHooksPlan }
  | { kind: 'applying'; plan: AgentHooksPlan }
  | { kind: 'done'; plan: AgentHooksPlan }
  | { kind: 'error'; message: string; plan?: AgentHooksPlan };

/** The dialog's status line at each step (an error has its own alert). */
export function stepText(step: HooksStep, { agent, remove }: HooksErrand): string {
  const label = AGENT_LABELS[agent];
  switch (step.kind) {
    case 'loading':
      return `Reading ${label}’s settings…`;
    case 'plan':
      if (!step.plan.upToDate) return 'Applying makes these changes (the old file is backed up):';
      return remove
        ? `${label} has no DiffTray hooks: nothing to remove.`
        : `${label}’s hooks are already set up: nothing to change.`;
    case 'applying':
      return 'Applying…';
    case 'done':
      return remove
        ? `Done: ${label}’s hooks are removed. Sessions started from now on do not ask DiffTray.`
        : `Done: ${label}’s hooks are set up. Sessions started from now on ask DiffTray.`;
    case 'error':
      return '';
  }
}

/** The alert when setup or removal failed. */
export function errorText({ agent, remove }: HooksErrand, message: string): string {
  return `Could not ${remove ? 'remove' : 'set up'} ${AGENT_LABELS[agent]} hooks: ${message}`;
}

/** What the live region says once it is done. */
export function doneAnnouncement(agent: SetupAgent, remove: boolean): string {
  return `${AGENT_LABELS[agent]} hooks ${remove ? 'removed' : 'set up'}`;
}
