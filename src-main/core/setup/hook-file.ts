/**
 * `difftray setup <agent>` on disk, the same for every agent: reads the agent's hook file, plans the change
 * (a planner from shared/hook-setup) and writes it safely.
 * - The file is edited as text (settings-text.ts): what the change does not touch keeps its bytes.
 * - A file that is not valid JSON (comments allowed), a FIFO or device, a read-only file, and a symlink
 *   whose target does not exist are reported and never written over.
 * - Before a change the old file is copied to `<name>.difftray-backup-<UTC day>` beside it, with its mode:
 *   one a day, the first, so the file from before the day's first change is never written over, and
 *   repeated runs do not pile up copies; the newest BACKUP_DAYS are kept, older ones removed.
 * - The new file is written to a temp file in the same folder and renamed over the old one, keeping the
 *   old file's mode (0600 for a new file, in a folder made 0700). A file that is a symlink (to a dotfiles
 *   repository, say) stays one: its target, checked to be a regular file, is replaced.
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
import path from 'node:path';
import { HookSettingsError, type HookSettingsResult } from '../../../shared/hook-setup/hook-entries';
import { messageOf } from '../../../shared/error-message';
import { readRegularFile } from '../disk/regular-file';
import { editedText, HooksSetupError, parseSettings } from './settings-text';

export interface HookFileTarget {
  /** The agent's hook file: settings.json, hooks.json... */
  file: string;
  /** The change to make, given the settings as they are. */
  plan: (settings: unknown) => HookSettingsResult;
  /**
   * Set for a file that is DiffTray's own (Copilot's hooks/difftray.json): what the file needs besides
   * hooks. A removal that leaves nothing else deletes the file rather than leave one with no hooks.
   */
  ownFile?: Record<string, unknown>;
}

export interface HookFilePlan {
  settingsPath: string;
  upToDate: boolean;
  changes: string[];
}

export interface HookFileOutcome extends HookFilePlan {
  /** Where the old file was copied before the change; none when there was no file or no change. */
  backupPath?: string;
}

/** What setup (or removal) would change; reads only. */
export function planHookFile(target: HookFileTarget): HookFilePlan {
  return prepare(target).plan;
}

/** Makes the change planned; the outcome says what changed and where the backup is. */
export function applyHookFile(target: HookFileTarget, now: () => Date = () => new Date()): HookFileOutcome {
  const { plan, file, result, deletes } = prepare(target);
  if (plan.upToDate) return plan;
  mkdirSync(path.dirname(target.file), { recursive: true, mode: 0o700 });
  const mode = file.exists ? file.mode : 0o600;
  const backupPath = file.exists ? keepDailyBackup(target.file, file.raw, mode, now()) : undefined;
  const outcome = backupPath === undefined ? plan : { ...plan, backupPath };
  if (deletes) {
    checkUnchanged(target.file, file);
    rmSync(target.file);
    return outcome;
  }
  // Written beside the real file, so that a symlinked file keeps pointing at it.
  const temp = path.join(
    path.dirname(file.destination),
    `.${path.basename(file.destination)}.difftray-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    writeNewFile(temp, editedText(file.raw, result), mode);
    checkUnchanged(target.file, file);
    renameSync(temp, file.destination);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return outcome;
}

/** The settings in `file` as parsed, {} when there is none; reads only, refusing what setup refuses. */
export function readHookSettings(file: string): unknown {
  return parseSettings(file, readSettings(file).raw);
}

/** The agent may have written the file meanwhile (a permission rule, say): theirs wins, we stop. */
function checkUnchanged(settingsPath: string, before: SettingsFile): void {
  const current = readSettings(settingsPath);
  if (
    current.exists !== before.exists ||
    current.raw !== before.raw ||
    current.destination !== before.destination
  ) {
    throw new HooksSetupError(`${settingsPath} changed while setting up; run setup again`);
  }
}

interface SettingsFile {
  exists: boolean;
  isLink: boolean;
  raw: string;
  /** The file a change replaces: the file, or the target of the link it is. */
  destination: string;
  /** The destination's permission bits (0 when there is none). */
  mode: number;
}

function prepare(target: HookFileTarget): {
  plan: HookFilePlan;
  file: SettingsFile;
  result: HookSettingsResult;
  deletes: boolean;
} {
  const settingsPath = target.file;
  const file = readSettings(settingsPath);
  let result: HookSettingsResult;
  try {
    result = target.plan(parseSettings(settingsPath, file.raw));
  } catch (error) {
    if (error instanceof HookSettingsError) {
      throw new HooksSetupError(`${settingsPath}: ${error.message}; left as it is`);
    }
    throw error;
  }
  // Renaming over a read-only file would work (the folder is writable), but the person made it read-only.
  if (!result.unchanged && file.exists && (file.mode & 0o200) === 0) {
    throw new HooksSetupError(
      `${settingsPath} is read-only; it was not changed (make it writable, e.g. chmod u+w, to set up)`,
    );
  }
  // Our own file left empty by a removal goes, unless it is a link (whose target is the person's).
  const required = target.ownFile;
  const deletes =
    required !== undefined &&
    !result.unchanged &&
    file.exists &&
    !file.isLink &&
    Object.entries(result.settings).every(([key, value]) => required[key] === value);
  const changes = [
    ...(!file.exists && !result.unchanged ? [`Create ${settingsPath}`] : []),
    ...result.changes,
    ...(deletes ? [`Remove ${settingsPath} (nothing else is in it)`] : []),
  ];
  return { plan: { settingsPath, upToDate: result.unchanged, changes }, file, result, deletes };
}

/**
 * The file as it is: its text, and what a change would replace. A link is followed to a regular file
 * (a dangling link is refused, never replaced by a file); only a regular file is read, without blocking.
 */
function readSettings(settingsPath: string): SettingsFile {
  let isLink: boolean;
  try {
    isLink = lstatSync(settingsPath).isSymbolicLink();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { exists: false, isLink: false, raw: '', destination: settingsPath, mode: 0 };
    }
    throw new HooksSetupError(`cannot read ${settingsPath}: ${messageOf(error)}`);
  }
  let destination = settingsPath;
  try {
    if (isLink) destination = realpathSync(settingsPath);
    const raw = readRegularFile(destination);
    return { exists: true, isLink, raw, destination, mode: statSync(destination).mode & 0o7777 };
  } catch (error) {
    if (isLink && (error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new HooksSetupError(
        `${settingsPath} is a symbolic link to a file that does not exist; it was not changed ` +
          '(create the target, or remove the link, then run setup again)',
      );
    }
    throw new HooksSetupError(`cannot read ${settingsPath}: ${messageOf(error)}; left as it is`);
  }
}

/**
 * Keeps a copy of the file as it was before the day's first change (settings may hold API keys: the old
 * file's mode). A later change the same day keeps that copy rather than adding another.
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
