/**
 * `difftray setup <agent> [--remove] [--dry-run] [--also <Tool,…>]`: installs (or removes) DiffTray's
 * hooks in an agent's own hook file (Claude Code, Codex, Gemini CLI, Copilot CLI, Qwen Code), printing
 * each change first. Works without DiffTray running: it only edits that file.
 */
import os from 'node:os';
import { parseToolList, HookSettingsError } from '../../shared/claude-code/hook-settings';
import {
  AGENT_LABELS,
  AGENT_REVIEW_LIMITS,
  isSetupAgent,
  SETUP_AGENTS,
  type SetupAgent,
} from '../../shared/hook-setup/agent-hooks';
import { currentHookCommand } from '../core/setup/claude-hook-command';
import { applyAgentHooks, planAgentHooks, type AgentHooksContext } from '../core/setup/agent-setup';
import type { HookFileOutcome } from '../core/setup/hook-file';
import { pendingAgentStep } from '../core/setup/hook-status';
import { HooksSetupError } from '../core/setup/settings-text';
import { CliError, tildePath } from './errors';

export const SETUP_TARGETS = SETUP_AGENTS;

export interface SetupOptions {
  target: string;
  remove?: boolean;
  dryRun?: boolean;
  /** `--also` as typed: `WebFetch,Task`. Claude Code only. */
  also?: string;
}

export interface SetupIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  /** This command's own script, dist/main/cli.cjs, which the hook runs. */
  cliPath: string;
  home?: string;
}

export function setup(options: SetupOptions, io: SetupIo): number {
  const agent = options.target;
  if (!isSetupAgent(agent)) {
    throw new CliError(`unknown setup target "${agent}" (known: ${SETUP_TARGETS.join(', ')})`);
  }
  if (options.also !== undefined && agent !== 'claude-code') {
    throw new CliError('--also is for claude-code only (the other agents have their tools set)');
  }
  if (options.remove && options.also !== undefined) throw new CliError('--also does not go with --remove');
  const home = io.home ?? os.homedir();
  const context: AgentHooksContext = {
    env: io.env,
    home,
    command: (hookWords) => currentHookCommand(io.cliPath, io.env, undefined, hookWords),
  };
  let outcome: HookFileOutcome;
  try {
    const hookOptions = {
      remove: options.remove ?? false,
      alsoTools: options.also === undefined ? [] : parseToolList(options.also),
    };
    outcome = options.dryRun
      ? planAgentHooks(agent, context, hookOptions)
      : applyAgentHooks(agent, context, hookOptions);
  } catch (error) {
    if (error instanceof HooksSetupError || error instanceof HookSettingsError) {
      throw new CliError(error.message);
    }
    throw error;
  }
  report(agent, options, outcome, home, io.out);
  if (options.remove || options.dryRun) return 0;
  // Codex runs the hook only once the person trusted it; the others from their next session.
  const pending = pendingAgentStep(agent, context);
  if (pending) io.out(pending);
  else if (!outcome.upToDate) {
    io.out(`${AGENT_LABELS[agent]} sessions started from now on ask DiffTray before edits and commands.`);
    const limit = AGENT_REVIEW_LIMITS[agent];
    if (limit) io.out(limit);
  }
  return 0;
}

function report(
  agent: SetupAgent,
  options: SetupOptions,
  outcome: HookFileOutcome,
  home: string,
  out: (line: string) => void,
): void {
  const label = AGENT_LABELS[agent];
  const file = tildePath(outcome.settingsPath, home);
  if (outcome.upToDate) {
    out(
      options.remove
        ? `${label} has no DiffTray hook in ${file}: nothing to remove`
        : `${label} is already set up (${file}): nothing changes`,
    );
    return;
  }
  out(`${options.dryRun ? 'Would change' : 'Changed'} ${file}:`);
  for (const change of outcome.changes) out(`  ${change}`);
  if (outcome.backupPath) {
    out(`The settings from before today's first change are in ${tildePath(outcome.backupPath, home)}`);
  }
  if (options.dryRun) out('Nothing written (--dry-run)');
}
