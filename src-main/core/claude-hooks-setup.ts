/**
 * `difftray setup claude-code` on disk: reads Claude Code's settings.json, plans the change
 * (shared/claude-code/hook-settings.ts) and writes it safely.
 * - A file that is not valid JSON is reported and never written over.
 * - Before a change the old file is copied to `settings.json.difftray-backup-<UTC time>` beside it, with
 *   its mode: one per change, so the settings from before the first setup are never written over.
 * - The new file is written to a temp file in the same folder and renamed over the old one, keeping the
 *   old file's mode (0600 for a new file, in a folder made 0700). A settings.json that is a symlink (to a
 *   dotfiles repository, say) stays one: its target is replaced.
 * - Nothing is written when nothing changes, so a second run leaves the file's bytes as they are.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClaudeHooksPlan } from '../../shared/app-api';
import {
  HookSettingsError,
  updateHookSettings,
  type HookSettingsOptions,
  type HookSettingsResult,
} from '../../shared/claude-code/hook-settings';

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

/** Why setup cannot go on (settings.json unreadable or not JSON); the file is left as it was. */
export class ClaudeHooksSetupError extends Error {}

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
  return prepare(target, options).plan;
}

/** Makes the change planned; the outcome says what changed and where the backup is. */
export function applyClaudeHooks(
  target: ClaudeHooksTarget,
  options: HookSettingsOptions = {},
  now: () => Date = () => new Date(),
): ClaudeHooksOutcome {
  const { plan, file, result } = prepare(target, options);
  if (plan.upToDate) return plan;
  mkdirSync(target.configDir, { recursive: true, mode: 0o700 });
  const text = serialize(result.settings, file);
  // Write beside the real file, so that a symlinked settings.json keeps pointing at it.
  const destination = file.exists ? realpathSync(plan.settingsPath) : plan.settingsPath;
  const mode = file.exists ? statSync(destination).mode & 0o7777 : 0o600;
  const backupPath = file.exists ? writeBackup(plan.settingsPath, file.raw, mode, now()) : undefined;
  const temp = path.join(
    path.dirname(destination),
    `.${path.basename(destination)}.difftray-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    writeNewFile(temp, text, mode);
    // Claude Code may have written the file meanwhile (a permission rule, say): theirs wins, we stop.
    if (readIfExists(plan.settingsPath) !== (file.exists ? file.raw : undefined)) {
      throw new ClaudeHooksSetupError(`${plan.settingsPath} changed while setting up; run setup again`);
    }
    renameSync(temp, destination);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return backupPath === undefined ? plan : { ...plan, backupPath };
}

interface SettingsFile {
  exists: boolean;
  raw: string;
}

function prepare(
  target: ClaudeHooksTarget,
  options: HookSettingsOptions,
): { plan: ClaudeHooksOutcome; file: SettingsFile; result: HookSettingsResult } {
  const settingsPath = claudeSettingsPath(target.configDir);
  const raw = readIfExists(settingsPath);
  const file = { exists: raw !== undefined, raw: raw ?? '' };
  let result: HookSettingsResult;
  try {
    result = updateHookSettings(parseSettings(settingsPath, file.raw), target.command, options);
  } catch (error) {
    if (error instanceof HookSettingsError) {
      throw new ClaudeHooksSetupError(`${settingsPath}: ${error.message}; left as it is`);
    }
    throw error;
  }
  const changes =
    !file.exists && !result.unchanged ? [`Create ${settingsPath}`, ...result.changes] : result.changes;
  return {
    plan: { settingsPath, upToDate: result.unchanged, changes, command: target.command },
    file,
    result,
  };
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ClaudeHooksSetupError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/** An empty file counts as no settings, as Claude Code reads it; anything else must be JSON. */
function parseSettings(settingsPath: string, raw: string): unknown {
  const text = raw.replace(/^\uFEFF/, '');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ClaudeHooksSetupError(
      `${settingsPath} is not valid JSON (${(error as Error).message}); fix it first, it was not changed`,
    );
  }
}

/** JSON indented as the old file was (two spaces for a new one), ending as it ended. */
function serialize(settings: unknown, file: SettingsFile): string {
  const indent = /^([ \t]+)"/m.exec(file.raw)?.[1] ?? '  ';
  const endsWithNewline = !file.exists || file.raw.trim() === '' || file.raw.endsWith('\n');
  const bom = file.raw.startsWith('\uFEFF') ? '\uFEFF' : '';
  return `${bom}${JSON.stringify(settings, null, indent)}${endsWithNewline ? '\n' : ''}`;
}

/** A copy of the old settings that nothing overwrites (it may hold API keys: the old file's mode). */
function writeBackup(settingsPath: string, raw: string, mode: number, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let attempt = 0; ; attempt++) {
    const backup = `${settingsPath}.difftray-backup-${stamp}${attempt === 0 ? '' : `-${attempt}`}`;
    try {
      writeNewFile(backup, raw, mode);
      return backup;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 100) throw error;
    }
  }
}

/** Creates `file` (never an existing one, nor through a symlink), durably, with exactly `mode`. */
function writeNewFile(file: string, text: string, mode: number): void {
  const fd = openSync(file, 'wx', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  // The umask may have narrowed the mode given to open.
  if ((lstatSync(file).mode & 0o7777) !== mode) chmodSync(file, mode);
}
