/**
 * `difftray setup <agent>` for every agent: where its hook file is (from its own environment variables and
 * the home folder) and the plan for it (shared/hook-setup/agent-hooks.ts), written by hook-file.ts. Reads
 * and writes nothing else: Codex's trust record is the person's to give (codex-trust.ts only reads it).
 */
import os from 'node:os';
import path from 'node:path';
import { AGENT_HOOK_SHAPES, type SetupAgent } from '../../../shared/hook-setup/agent-hooks';
import { updateHooks, type HookSetupOptions } from '../../../shared/hook-setup/hook-entries';
import { claudeConfigDir, claudeSettingsPath } from './claude-hooks-setup';
import {
  applyHookFile,
  planHookFile,
  type HookFileOutcome,
  type HookFilePlan,
  type HookFileTarget,
} from './hook-file';

export interface AgentHooksContext {
  env: NodeJS.ProcessEnv;
  home: string;
  /** The hook command ending in these words (claude-hook-command.ts's currentHookCommand). */
  command: (hookWords: readonly string[]) => string;
}

/** Codex's home: $CODEX_HOME, else ~/.codex. */
export function codexHome(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return env.CODEX_HOME || path.join(home, '.codex');
}

/** The file setup edits for `agent`. */
export function agentHookFile(
  agent: SetupAgent,
  env: NodeJS.ProcessEnv = process.env,
  home = os.homedir(),
): string {
  switch (agent) {
    case 'claude-code':
      return claudeSettingsPath(claudeConfigDir(env, home));
    case 'codex':
      return path.join(codexHome(env, home), 'hooks.json');
    case 'gemini':
      // Gemini CLI takes GEMINI_CLI_HOME as the home its .gemini folder is in.
      return path.join(env.GEMINI_CLI_HOME || home, '.gemini', 'settings.json');
    case 'copilot':
      return path.join(env.COPILOT_HOME || path.join(home, '.copilot'), 'hooks', 'difftray.json');
    case 'qwen':
      return path.join(env.QWEN_HOME || path.join(home, '.qwen'), 'settings.json');
  }
}

export function agentHookTarget(
  agent: SetupAgent,
  context: AgentHooksContext,
  options: HookSetupOptions = {},
): HookFileTarget {
  return {
    file: agentHookFile(agent, context.env, context.home),
    plan: (settings) => updateHooks(settings, AGENT_HOOK_SHAPES[agent], context.command, options),
    ...(agent === 'copilot' && { ownFile: AGENT_HOOK_SHAPES.copilot.required ?? {} }),
  };
}

/** What setup (or removal, with `remove`) would change for `agent`; reads only. */
export function planAgentHooks(
  agent: SetupAgent,
  context: AgentHooksContext,
  options: HookSetupOptions = {},
): HookFilePlan {
  return planHookFile(agentHookTarget(agent, context, options));
}

/** Makes the change planned for `agent`; the outcome says what changed and where the backup is. */
export function applyAgentHooks(
  agent: SetupAgent,
  context: AgentHooksContext,
  options: HookSetupOptions = {},
  now: () => Date = () => new Date(),
): HookFileOutcome {
  return applyHookFile(agentHookTarget(agent, context, options), now);
}
