/**
 * Where Claude Code keeps its settings, for `difftray setup claude-code` (agent-setup.ts): the hooks go
 * into settings.json there, written as every agent's hook file is (hook-file.ts: text edits, a daily
 * backup, temp file then rename, links kept, FIFOs and read-only files refused).
 */
import os from 'node:os';
import path from 'node:path';

export { BACKUP_DAYS } from './hook-file';
export { editedText, HooksSetupError as ClaudeHooksSetupError } from './settings-text';

/** Claude Code's configuration folder: $CLAUDE_CONFIG_DIR, else ~/.claude. */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return env.CLAUDE_CONFIG_DIR || path.join(home, '.claude');
}

export function claudeSettingsPath(configDir: string): string {
  return path.join(configDir, 'settings.json');
}
