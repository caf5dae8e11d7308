/**
 * What the Settings view shows and the changes it asks main for, as plain functions: the clients it
 * lists, the auto-apply list after a switch, a folder list after Add, the bad-file notice. Main owns the
 * settings (AppSnapshot.settings) and validates every change; these only shape what is asked.
 */
import { DEFAULT_APP_SETTINGS } from '../../shared/app-settings';
import { clientPauseKey } from '../../shared/client-protocols';
import type { AppSettings, AppSnapshot, ClientProtocol, SettingsFileState } from '../../shared/app-api';
import { describeProtocol } from '../../shared/protocols';
import type { ThemePref } from '../state/theme';
import { canPause } from '../views/client-pause';

/** The settings main sent, or the defaults while it sends none (an older main, or before the first). */
export function settingsOrDefaults(snapshot: AppSnapshot | null): AppSettings {
  return snapshot?.settings ?? DEFAULT_APP_SETTINGS;
}

/** The theme to use: the settings' once main sends them, else the one remembered in this window. */
export function themeChoice(settings: AppSettings | undefined, localPref: ThemePref): ThemePref {
  return settings?.theme ?? localPref;
}

/** One client the Clients section lists, with its two switches. */
export interface KnownClientRow {
  /** Unique per row: the pause key when the protocol is known, else the name. */
  key: string;
  name: string;
  /** Unknown for a name found only in the auto-apply list (it has not connected in this run). */
  protocol?: ClientProtocol;
  connected: boolean;
  autoApply: boolean;
  paused: boolean;
  /** Present when its reviews can be paused (client-pause.ts canPause). */
  pauseKey?: string;
}

/** How a row says its client connects: "IDE connection", "hooks" (the protocol's short label). */
function shortLabel(protocol: ClientProtocol | undefined): string {
  return protocol ? describeProtocol(protocol).shortLabel : '';
}

/** Whether the person can set anything for clients of `protocol`: auto-apply or a pause. */
function hasClientSettings(protocol: ClientProtocol): boolean {
  const { autoApply, pause } = describeProtocol(protocol).capabilities;
  return autoApply || pause !== null;
}

export const AUTO_APPLY_LABEL = 'Apply without review';
export const PAUSE_LABEL = 'Pause reviews';
export const AUTO_APPLY_HINT =
  'Its proposals are accepted whole as they arrive and written at once; History keeps them, to undo.';
export const PAUSE_HINT =
  'Its proposals go ahead without review in DiffTray (Claude Code asks in its own terminal instead).';
export const NO_PAUSE_HINT = 'Its reviews cannot be paused: this agent waits for DiffTray’s answer.';

/** Whether `name` is in the auto-apply list; main compares names trimmed and without regard to case. */
export function isAutoApplied(list: readonly string[], name: string): boolean {
  const wanted = name.trim().toLowerCase();
  return list.some((entry) => entry.trim().toLowerCase() === wanted);
}

/** The auto-apply list with `name` in or out (every spelling of it out). */
export function withAutoApply(list: readonly string[], name: string, on: boolean): string[] {
  const wanted = name.trim().toLowerCase();
  const others = list.filter((entry) => entry.trim().toLowerCase() !== wanted);
  return on ? [...others, name.trim()] : others;
}

/**
 * Every client the person may want to set something for: those connected now, those paused, and the
 * names in the auto-apply list; one row per program (name and protocol), sorted by name. A protocol
 * with nothing to set (DiffTray's own merge reviews) has no row.
 */
export function knownClients(snapshot: AppSnapshot | null): KnownClientRow[] {
  const autoApply = settingsOrDefaults(snapshot).autoApply;
  const pausedKeys = new Set((snapshot?.pausedClients ?? []).map((entry) => entry.key));
  const rows = new Map<string, KnownClientRow>();
  const add = (name: string, protocol: ClientProtocol, connected: boolean): void => {
    if (!hasClientSettings(protocol)) return;
    const key = clientPauseKey({ name, protocol });
    const known = rows.get(key);
    if (known) {
      known.connected ||= connected;
      return;
    }
    rows.set(key, {
      key,
      name,
      protocol,
      connected,
      autoApply: isAutoApplied(autoApply, name),
      paused: pausedKeys.has(key),
      ...(canPause(protocol) && { pauseKey: key }),
    });
  };
  for (const client of snapshot?.clients ?? []) if (client.connected) add(client.name, client.protocol, true);
  for (const entry of snapshot?.pausedClients ?? []) add(entry.name, entry.protocol, false);
  for (const name of autoApply) {
    if (name.trim() === '' || [...rows.values()].some((row) => isAutoApplied([row.name], name))) continue;
    rows.set(`name:${name.trim().toLowerCase()}`, {
      key: `name:${name.trim().toLowerCase()}`,
      name: name.trim(),
      connected: false,
      autoApply: true,
      paused: false,
    });
  }
  return [...rows.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || shortLabel(a.protocol).localeCompare(shortLabel(b.protocol)),
  );
}

/** A row's second line: how it connects, and whether it is connected now. */
export function clientRowDetail(row: KnownClientRow): string {
  const how = row.protocol ? shortLabel(row.protocol) : 'not connected in this run';
  if (!row.protocol) return how;
  return row.connected ? `${how}, connected` : `${how}, not connected`;
}

export const EMPTY_PATH_PROBLEM = 'Type the folder’s path first.';

/** A list of folders with `raw` added, or why it is not added (empty, or listed already). */
export function withFolderAdded(
  list: readonly string[],
  raw: string,
): { list: string[] } | { problem: string } {
  const folder = raw.trim();
  if (folder === '') return { problem: EMPTY_PATH_PROBLEM };
  const bare = (entry: string): string => entry.replace(/[\\/]+$/, '');
  if (list.some((entry) => bare(entry) === bare(folder))) return { problem: `${folder} is listed already.` };
  return { list: [...list, folder] };
}

export function withFolderRemoved(list: readonly string[], folder: string): string[] {
  return list.filter((entry) => entry !== folder);
}

/**
 * The bad-settings-file notice, or undefined when the file is fine (or main says nothing of it). Main's
 * problem names the file when the whole file is unusable; a problem with one key is given the path here.
 * True of both: the defaults stand in for what cannot be read, and what the person wrote stays.
 */
export function settingsFileNotice(file: SettingsFileState | undefined): string | undefined {
  if (!file?.problem) return undefined;
  const problem = file.problem.includes(file.path) ? file.problem : `${file.path}: ${file.problem}`;
  return (
    `${problem}. DiffTray is using the default settings for what it cannot read, and will not change ` +
    'what you wrote there until it is fixed.'
  );
}

export const WORKSPACE_HELP =
  'Agents’ folders must be inside one of these. Lock files are updated at once when you add or remove one.';

export const FIRST_RUN_TEXT =
  'DiffTray reviews edits only inside folders you choose; it was started without one, and it does not ' +
  'take / or your home folder by itself.';
