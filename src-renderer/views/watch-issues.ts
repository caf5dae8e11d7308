/**
 * What Connections and the sidebar say about a watched folder whose changes are not all reviewed now
 * (AppSnapshot.watchIssues): paused at a limit, with the changes held, or with folders the system would
 * not watch, with the fix. Pure: the texts, so tests and components say the same.
 */
import type { WatchFolderIssue } from '../../shared/app-api';
import { isInsideFolder } from './watch-folders';

const trimmed = (folder: string): string => folder.replace(/[\\/]+$/, '');

/** The issue of `folder` itself (not of a folder around it). */
export function issueOf(folder: string, issues: readonly WatchFolderIssue[]): WatchFolderIssue | undefined {
  return issues.find((issue) => trimmed(issue.folder) === trimmed(folder));
}

/** The issues of the watched folders in the workspace (or any, when the workspace is not known). */
export function issuesIn(
  workspaceFolders: readonly string[],
  issues: readonly WatchFolderIssue[],
): WatchFolderIssue[] {
  if (workspaceFolders.length === 0) return [...issues];
  return issues.filter((issue) => workspaceFolders.some((folder) => isInsideFolder(folder, issue.folder)));
}

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

export function pausedText(paused: NonNullable<WatchFolderIssue['paused']>): string {
  const held = plural(paused.heldChanges, 'change is', 'changes are');
  return (
    `Paused: ${paused.reason}. ${held} held since, not reviewed yet and not taken as reviewed; ` +
    'resuming reviews everything that changed since your last decision.'
  );
}

export function unwatchedText(unwatched: NonNullable<WatchFolderIssue['unwatched']>): string {
  const folders = plural(unwatched.count, 'folder here', 'folders here');
  return (
    `Not all watched: ${folders} cannot be watched, so changes in them are not seen ` +
    `(first: ${unwatched.first}: ${unwatched.reason}).`
  );
}

/** The Resume button's accessible name: it says which folder. */
export function resumeLabel(folder: string): string {
  return `Resume reviewing changes on disk in ${folder}`;
}

/** The sidebar's line for one issue. */
export function noticeText(issue: WatchFolderIssue): string {
  if (issue.paused) return `Reviewing changes on disk is paused in ${issue.folder}: ${issue.paused.reason}.`;
  const count = issue.unwatched?.count ?? 0;
  return `${plural(count, 'folder', 'folders')} in ${issue.folder} cannot be watched: their changes are not seen.`;
}
