/**
 * `difftray setup claude-code` on disk: Claude Code's settings.json, changed by the planner in
 * shared/claude-code/hook-settings.ts and written as every agent's hook file is (hook-file.ts: text edits,
 * a daily backup, temp file then rename, links kept, FIFOs and read-only files refused).
 */
import os from 'node:os';
import path from 'node:path';
import type { ClaudeHooksPlan } from '../../../shared/app-api';
import { updateHookSettings, type HookSettingsOptions } from '../../../shared/claude-code/hook-settings';
import { applyHookFile, planHookFile, type HookFileTarget } from './hook-file';

export { BACKUP_DAYS } from './hook-file';
export { editedText, HooksSetupError as ClaudeHooksSetupError } from './settings-text';

export interface ClaudeHooksTarget {
  /** `${CLAUDE_CONFIG_DIR:-~/.claude}`: see claudeConfigDir. */
  configDir: string;
  /** The hook command (claude-hook-command.ts). */
  command: string;
}

export interface ClaudeHooksOutcome extends ClaudeHooksPlan {
  /** Where the old settings were copied before the change; none when there was no file or no change. */
  backupPath?: string;
}

/** Claude Code's configuration folder: $CLAUDE_CONFIG_DIR, else ~/.claude. */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return env.CLAUDE_CONFIG_DIR || path.join(home, '.claude');
}

export function claudeSettingsPath(configDir: string): string {
  return path.join(configDir, 'settings.json');
}

/** What setup (or removal, with `remove`) would change; reads only. */
export function planClaudeHooks(
  target: ClaudeHooksTarget,
  options: HookSettingsOptions = {},
): ClaudeHooksOutcome {
  return { ...planHookFile(fileTarget(target, options)), command: target.command };
}

/** Makes the change planned; the outcome says what changed and where the backup is. */
export function applyClaudeHooks(
  target: ClaudeHooksTarget,
  options: HookSettingsOptions = {},
  now: () => Date = () => new Date(),
): ClaudeHooksOutcome {
  return { ...applyHookFile(fileTarget(target, options), now), command: target.command };
}

function fileTarget(target: ClaudeHooksTarget, options: HookSettingsOptions): HookFileTarget {
  return {
    file: claudeSettingsPath(target.configDir),
    plan: (settings) => updateHookSettings(settings, target.command, options),
  };
}
