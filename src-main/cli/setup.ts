/**
 * `difftray setup claude-code [--remove] [--dry-run] [--also <Tool,…>]`: installs (or removes) DiffTray's
 * PreToolUse hook in Claude Code's settings.json, printing each change first. Works without DiffTray
 * running: it only edits the settings file.
 */
import os from 'node:os';
import { parseToolList, HookSettingsError } from '../../shared/claude-code/hook-settings';
import { currentHookCommand } from '../core/setup/claude-hook-command';
import {
  applyClaudeHooks,
  claudeConfigDir,
  ClaudeHooksSetupError,
  planClaudeHooks,
  type ClaudeHooksOutcome,
} from '../core/setup/claude-hooks-setup';
import { CliError, tildePath } from './errors';

export const SETUP_TARGETS = ['claude-code'] as const;

export interface SetupOptions {
  target: string;
  remove?: boolean;
  dryRun?: boolean;
  /** `--also` as typed: `WebFetch,Task`. */
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
  if (!(SETUP_TARGETS as readonly string[]).includes(options.target)) {
    throw new CliError(`unknown setup target "${options.target}" (known: ${SETUP_TARGETS.join(', ')})`);
  }
  if (options.remove && options.also !== undefined) throw new CliError('--also does not go with --remove');
  const home = io.home ?? os.homedir();
  const target = {
    configDir: claudeConfigDir(io.env, home),
    command: currentHookCommand(io.cliPath, io.env),
  };
  let outcome: ClaudeHooksOutcome;
  try {
    const hookOptions = {
      remove: options.remove ?? false,
      alsoTools: options.also === undefined ? [] : parseToolList(options.also),
    };
    outcome = options.dryRun ? planClaudeHooks(target, hookOptions) : applyClaudeHooks(target, hookOptions);
  } catch (error) {
    if (error instanceof ClaudeHooksSetupError || error instanceof HookSettingsError) {
      throw new CliError(error.message);
    }
    throw error;
  }
  const settings = tildePath(outcome.settingsPath, home);
  if (outcome.upToDate) {
    io.out(
      options.remove
        ? `Claude Code has no DiffTray hook in ${settings}: nothing to remove`
        : `Claude Code is already set up (${settings}): nothing changes`,
    );
    return 0;
  }
  io.out(`${options.dryRun ? 'Would change' : 'Changed'} ${settings}:`);
  for (const change of outcome.changes) io.out(`  ${change}`);
  if (outcome.backupPath) {
    io.out(`The settings from before today's first change are in ${tildePath(outcome.backupPath, home)}`);
  }
  if (options.dryRun) io.out('Nothing written (--dry-run)');
  else if (!options.remove)
    io.out('Claude Code sessions started from now on ask DiffTray before edits and commands.');
  return 0;
}
