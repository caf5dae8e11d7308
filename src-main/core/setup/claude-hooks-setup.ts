/**
 * `difftray setup claude-code` on disk: reads Claude Code's settings.json, plans the change
 * (shared/claude-code/hook-settings.ts) and writes it safely.
 * - The file is edited as text (jsonc-parser's modify and applyEdits, as VS Code edits settings): what the
 *   change does not touch keeps its bytes (comments, formatting, a number JSON.parse would round).
 * - A file that is not valid JSON (comments allowed), a FIFO or device, a read-only file, and a symlink
 *   whose target does not exist are reported and never written over.
 * - Before a change the old file is copied to `settings.json.difftray-backup-<UTC day>` beside it, with
 *   its mode: one a day, the first, so the settings from before the day's first change are never written
 *   over, and repeated runs do not pile up copies; the newest BACKUP_DAYS are kept, older ones removed.
 * - The new file is written to a temp file in the same folder and renamed over the old one, keeping the
 *   old file's mode (0600 for a new file, in a folder made 0700). A settings.json that is a symlink (to a
 *   dotfiles repository, say) stays one: its target, checked to be a regular file, is replaced.
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
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClaudeHooksPlan } from '../../../shared/app-api';
import {
  applyEdits,
  findNodeAtLocation,
  format,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type FormattingOptions,
  type Node as JsonNode,
  type ParseError,
} from 'jsonc-parser';
import {
  HookSettingsError,
  updateHookSettings,
  type SettingsEdit,
  type HookSettingsOptions,
  type HookSettingsResult,
} from '../../../shared/claude-code/hook-settings';
import { readRegularFile } from '../disk/regular-file';
import { messageOf } from '../../../shared/error-message';

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
  const text = editedText(file.raw, result);
  const mode = file.exists ? file.mode : 0o600;
  const backupPath = file.exists ? keepDailyBackup(plan.settingsPath, file.raw, mode, now()) : undefined;
  // Written beside the real file, so that a symlinked settings.json keeps pointing at it.
  const temp = path.join(
    path.dirname(file.destination),
    `.${path.basename(file.destination)}.difftray-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    writeNewFile(temp, text, mode);
    // Claude Code may have written the file meanwhile (a permission rule, say): theirs wins, we stop.
    const current = readSettings(plan.settingsPath);
    if (
      current.exists !== file.exists ||
      current.raw !== file.raw ||
      current.destination !== file.destination
    ) {
      throw new ClaudeHooksSetupError(`${plan.settingsPath} changed while setting up; run setup again`);
    }
    renameSync(temp, file.destination);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return backupPath === undefined ? plan : { ...plan, backupPath };
}

interface SettingsFile {
  exists: boolean;
  raw: string;
  /** The file a change replaces: settings.json, or the target of the link settings.json is. */
  destination: string;
  /** The destination's permission bits (0 when there is none). */
  mode: number;
}

function prepare(
  target: ClaudeHooksTarget,
  options: HookSettingsOptions,
): { plan: ClaudeHooksOutcome; file: SettingsFile; result: HookSettingsResult } {
  const settingsPath = claudeSettingsPath(target.configDir);
  const file = readSettings(settingsPath);
  let result: HookSettingsResult;
  try {
    result = updateHookSettings(parseSettings(settingsPath, file.raw), target.command, options);
  } catch (error) {
    if (error instanceof HookSettingsError) {
      throw new ClaudeHooksSetupError(`${settingsPath}: ${error.message}; left as it is`);
    }
    throw error;
  }
  // Renaming over a read-only file would work (the folder is writable), but the person made it read-only.
  if (!result.unchanged && file.exists && (file.mode & 0o200) === 0) {
    throw new ClaudeHooksSetupError(
      `${settingsPath} is read-only; it was not changed (make it writable, e.g. chmod u+w, to set up)`,
    );
  }
  const changes =
    !file.exists && !result.unchanged ? [`Create ${settingsPath}`, ...result.changes] : result.changes;
  return {
    plan: { settingsPath, upToDate: result.unchanged, changes, command: target.command },
    file,
    result,
  };
}

/**
 * settings.json as it is: its text, and what a change would replace. A link is followed to a regular file
 * (a dangling link is refused, never replaced by a file); only a regular file is read, without blocking.
 */
function readSettings(settingsPath: string): SettingsFile {
  let isLink: boolean;
  try {
    isLink = lstatSync(settingsPath).isSymbolicLink();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { exists: false, raw: '', destination: settingsPath, mode: 0 };
    }
    throw new ClaudeHooksSetupError(`cannot read ${settingsPath}: ${messageOf(error)}`);
  }
  let destination = settingsPath;
  try {
    if (isLink) destination = realpathSync(settingsPath);
    const raw = readRegularFile(destination);
    return { exists: true, raw, destination, mode: statSync(destination).mode & 0o7777 };
  } catch (error) {
    if (isLink && (error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ClaudeHooksSetupError(
        `${settingsPath} is a symbolic link to a file that does not exist; it was not changed ` +
          '(create the target, or remove the link, then run setup again)',
      );
    }
    throw new ClaudeHooksSetupError(`cannot read ${settingsPath}: ${messageOf(error)}; left as it is`);
  }
}

/** An empty file counts as no settings, as Claude Code reads it; anything else must be JSON (comments allowed). */
function parseSettings(settingsPath: string, raw: string): unknown {
  const text = raw.replace(/^\uFEFF/, '');
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: false });
  const [first] = errors;
  if (first) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw new ClaudeHooksSetupError(
      `${settingsPath} is not valid JSON (${printParseErrorCode(first.error)} on line ${line}); ` +
        'fix it first, it was not changed',
    );
  }
  return value;
}

/**
 * The old text with the edits applied one after another, formatted as the file is indented and with its
 * line ends. A new or empty file has nothing to keep: it is the settings, two spaces, a final newline.
 */
export function editedText(raw: string, result: HookSettingsResult): string {
  const bom = raw.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = raw.slice(bom.length);
  if (body.trim() === '') return `${bom}${JSON.stringify(result.settings, null, 2)}\n`;
  const indent = /^([ \t]+)["/]/m.exec(body)?.[1] ?? '  ';
  const formatting: FormattingOptions = {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: body.includes('\r\n') ? '\r\n' : '\n',
  };
  return bom + result.edits.reduce((text, edit) => applyOne(text, edit, formatting), body);
}

/**
 * One edit. What is inserted or replaced is formatted alone (with the gaps on either side), not the
 * lines around it: jsonc-parser's own formatting of an edit reformats whole lines, which would unfold a
 * one-line list beside ours.
 */
function applyOne(text: string, edit: SettingsEdit, formatting: FormattingOptions): string {
  if (edit.value === undefined) return removeAt(text, edit.path);
  const [change] = modify(text, edit.path, edit.value, {});
  if (!change) return text;
  const next = applyEdits(text, [change]);
  // The range reaches the tokens on either side, so that the gaps between them and ours are laid out too.
  let start = change.offset;
  while (start > 0 && /\s/.test(next[start - 1]!)) start--;
  let end = change.offset + change.content.length;
  while (end < next.length && /\s/.test(next[end]!)) end++;
  const range = {
    offset: Math.max(0, start - 1),
    length: Math.min(next.length, end + 1) - Math.max(0, start - 1),
  };
  return applyEdits(next, format(next, range, formatting));
}

/**
 * Takes out the property or list item at `path` with the comma that joined it to its neighbour, and
 * nothing else, so that removing what setup added gives back the bytes from before. (jsonc-parser's own
 * removal reformats the lines around it, or, unformatted, takes the wrong comma out of `[1, 2]`.)
 */
function removeAt(text: string, jsonPath: SettingsEdit['path']): string {
  const root = parseTree(text);
  const node = root && findNodeAtLocation(root, jsonPath);
  if (!node) return text;
  const element = node.parent?.type === 'property' ? node.parent : node;
  const container = element.parent;
  if (!container?.children) return text;
  const siblings = container.children;
  const index = siblings.indexOf(element);
  const endOf = (at: JsonNode) => at.offset + at.length;
  const [start, end] =
    index > 0
      ? [endOf(siblings[index - 1]!), endOf(element)]
      : siblings.length > 1
        ? [element.offset, siblings[1]!.offset]
        : [container.offset + 1, endOf(container) - 1];
  return text.slice(0, start) + text.slice(end);
}

/**
 * Keeps a copy of the settings as they were before the day's first change (they may hold API keys: the
 * old file's mode). A later change the same day keeps that copy rather than adding another.
 */
function keepDailyBackup(settingsPath: string, raw: string, mode: number, at: Date): string {
  const backup = `${settingsPath}.difftray-backup-${at.toISOString().slice(0, 10).replace(/-/g, '')}`;
  try {
    writeNewFile(backup, raw, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  pruneBackups(settingsPath);
  return backup;
}

/** How many daily backups are kept: a week of changes to look back on, and no pile. */
export const BACKUP_DAYS = 7;

/**
 * Removes all but the newest BACKUP_DAYS of DiffTray's own backups: only names of exactly its pattern
 * (`<name>.difftray-backup-<8 digits>`) that are regular files, never a link or anything else there.
 */
function pruneBackups(settingsPath: string): void {
  const folder = path.dirname(settingsPath);
  const prefix = `${path.basename(settingsPath)}.difftray-backup-`;
  const ours = readdirSync(folder)
    .filter((name) => name.startsWith(prefix) && /^\d{8}$/.test(name.slice(prefix.length)))
    .sort()
    .reverse();
  for (const name of ours.slice(BACKUP_DAYS)) {
    const file = path.join(folder, name);
    if (lstatSync(file).isFile()) rmSync(file);
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
