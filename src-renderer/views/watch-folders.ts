/**
 * Which folders Connections → Workspace folders lists with a "Review changes on disk" switch (watch
 * mode), and what each switch shows. Pure: the paths are main's real paths (AppSnapshot), compared as
 * text, with either separator.
 */

/** What one folder's switch shows. */
export type WatchSwitchState =
  | { kind: 'off' }
  | { kind: 'on' }
  /** Inside a watched folder: on, and turned off only through that folder. */
  | { kind: 'covered'; by: string };

export interface WatchFolderRow {
  folder: string;
  state: WatchSwitchState;
}

/** A workspace folder, and the watched folders inside it that are not workspace folders themselves. */
export interface WatchFolderGroup {
  workspace: WatchFolderRow;
  subfolders: WatchFolderRow[];
}

export const WATCH_SWITCH_LABEL = 'Review changes on disk';

export const WATCH_HELP =
  'Edits any agent writes here directly are reviewed after the fact; rejecting puts the old lines back.';

const trimmed = (folder: string): string => folder.replace(/[\\/]+$/, '');

/** Whether `inner` is `outer` or lies inside it (by path text, either separator). */
export function isInsideFolder(outer: string, inner: string): boolean {
  const a = trimmed(outer);
  const b = trimmed(inner);
  if (a === b) return true;
  return b.startsWith(a) && (b[a.length] === '/' || b[a.length] === '\\');
}

/** The watched folder `folder` is part of, other than itself: the outermost one. */
export function coveredBy(folder: string, watched: readonly string[]): string | undefined {
  return watched
    .filter((outer) => trimmed(outer) !== trimmed(folder) && isInsideFolder(outer, folder))
    .sort((a, b) => a.length - b.length)[0];
}

export function switchState(folder: string, watched: readonly string[]): WatchSwitchState {
  const by = coveredBy(folder, watched);
  if (by !== undefined) return { kind: 'covered', by };
  return watched.some((entry) => trimmed(entry) === trimmed(folder)) ? { kind: 'on' } : { kind: 'off' };
}

/**
 * Every workspace folder, in the order main gives them, each with the watched folders listed under it
 * that are inside it but not workspace folders themselves (a subfolder from the settings) — under the
 * innermost workspace folder holding it. A watched folder inside no workspace folder (the workspace
 * changed since) gets a group of its own, so it can still be turned off.
 */
export function watchFolderGroups(
  workspaceFolders: readonly string[],
  watched: readonly string[],
): WatchFolderGroup[] {
  const isWorkspace = (folder: string) => workspaceFolders.some((w) => trimmed(w) === trimmed(folder));
  const row = (folder: string): WatchFolderRow => ({ folder, state: switchState(folder, watched) });
  const home = (folder: string): string | undefined =>
    workspaceFolders.filter((w) => isInsideFolder(w, folder)).sort((a, b) => b.length - a.length)[0];
  const others = [...watched].filter((folder) => !isWorkspace(folder)).sort();
  const groups = workspaceFolders.map((workspace) => ({
    workspace: row(workspace),
    subfolders: others.filter((folder) => home(folder) === workspace).map(row),
  }));
  const homeless = others.filter((folder) => home(folder) === undefined);
  return [...groups, ...homeless.map((folder) => ({ workspace: row(folder), subfolders: [] }))];
}

/** A subfolder as shown under its workspace folder: the part after it. */
export function shownSubfolder(workspace: string, folder: string): string {
  const base = trimmed(workspace);
  return isInsideFolder(base, folder) ? trimmed(folder).slice(base.length + 1) : folder;
}

/** The switch's accessible name: it says which folder. */
export function watchSwitchLabel(folder: string): string {
  return `${WATCH_SWITCH_LABEL} in ${folder}`;
}

/** What the status line says once the switch went through, or why not. */
export function watchOutcome(folder: string, watched: boolean, error?: string): string {
  if (error !== undefined) {
    return `Could not turn ${watched ? 'on' : 'off'} reviewing changes on disk in ${folder}: ${error}`;
  }
  return watched
    ? `Reviewing changes on disk in ${folder}`
    : `No longer reviewing changes on disk in ${folder}`;
}

/** For the empty state: the folders watched now that lie in the workspace, outermost first. */
export function watchedInWorkspace(
  workspaceFolders: readonly string[],
  watched: readonly string[],
): string[] {
  return watched.filter((folder) => workspaceFolders.some((w) => isInsideFolder(w, folder)));
}
