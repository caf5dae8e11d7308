/**
 * Setting up every agent's hooks from the app (the window's agentHooksSetup and agentHooksStatus): the
 * same plan and write as `difftray setup <agent>` (agent-setup.ts), answered as the app API's shapes.
 * Writes only the agent's hook file; Codex's trust record is the person's to give and is only read.
 */
import type { AgentHookState, AgentHooksPlan } from '../../../shared/app-api';
import {
  AGENT_HOOK_SHAPES,
  AGENT_LABELS,
  CODEX_TRUST_STEP,
  SETUP_AGENTS,
  type SetupAgent,
} from '../../../shared/hook-setup/agent-hooks';
import { messageOf } from '../../../shared/error-message';
import { agentHookFile, applyAgentHooks, planAgentHooks, type AgentHooksContext } from './agent-setup';
import { agentHookStatus, pendingAgentStep } from './hook-status';
import type { HookFileOutcome } from './hook-file';
import { HooksSetupError } from './settings-text';

export interface AgentHooksRequest {
  agent: SetupAgent;
  /** Make the change; otherwise only say what it would be. */
  apply: boolean;
  /** Take DiffTray's hooks out rather than put them in. */
  remove?: boolean;
}

/** The change for one agent, made when `apply`; the answer is the plan (and the backup) either way. */
export function agentHooksPlan(context: AgentHooksContext, request: AgentHooksRequest): AgentHooksPlan {
  const { agent, apply } = request;
  const options = { remove: request.remove ?? false };
  const outcome: HookFileOutcome = apply
    ? applyAgentHooks(agent, context, options)
    : planAgentHooks(agent, context, options);
  const commands = options.remove ? [] : hookCommands(agent, context);
  const pendingStep = options.remove ? undefined : stepFor(agent, context, apply || outcome.upToDate);
  return {
    agent,
    settingsPath: outcome.settingsPath,
    upToDate: outcome.upToDate,
    changes: outcome.changes,
    commands,
    ...(outcome.backupPath !== undefined && { backupPath: outcome.backupPath }),
    ...(pendingStep !== undefined && { pendingStep }),
  };
}

/** Every agent's hooks as its files say now; a file setup would refuse is reported, not thrown. */
export function agentHookStates(context: AgentHooksContext): AgentHookState[] {
  return SETUP_AGENTS.map((agent) => {
    const base = { agent, label: AGENT_LABELS[agent], file: agentHookFile(agent, context.env, context.home) };
    try {
      return { ...base, status: agentHookStatus(agent, context) };
    } catch (error) {
      if (!(error instanceof HooksSetupError)) throw error;
      return { ...base, status: 'unreadable', problem: messageOf(error) };
    }
  });
}

/** The commands the agent's hooks run (Copilot's name their event, so there may be several). */
function hookCommands(agent: SetupAgent, context: AgentHooksContext): string[] {
  return [...new Set(AGENT_HOOK_SHAPES[agent].slots.map((slot) => context.command(slot.hookWords)))];
}

/**
 * What the person still has to do in the agent (Codex: trust the hook): as the file is once written (or
 * already up to date); before an apply, a new or changed Codex hook will want trusting.
 */
function stepFor(agent: SetupAgent, context: AgentHooksContext, written: boolean): string | undefined {
  if (agent !== 'codex') return undefined;
  return written ? pendingAgentStep(agent, context) : CODEX_TRUST_STEP;
}
