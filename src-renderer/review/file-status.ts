/**
 * Words for the state of the files in a change set: the file list, the disk and conflict banners,
 * the binary panel and why Submit waits. Pure, so it is tested without a DOM.
 */
import { AGENT_CONTROL_LABEL, agentControlReason } from '../../shared/agent-control-files';
import type { DiskState, ReviewFileInfo, ReviewFileSummary, ReviewItem } from '../../shared/app-api';
import type { HunkState } from '../../shared/line-decisions';
import { decisionLabel } from './review-model';
import { formatAge } from '../state/time';

/** A file's decision, in the words a hunk's decision uses ("Undecided", never "Pending"). */
export const stateLabel: Record<HunkState, string> = decisionLabel;

/** The last part of a path, either separator. */
export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

/** 512 B, 12.3 KB, 4.0 MB (1 KB = 1024 B). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return 'unknown size';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

export function binaryPanelText(size: number | undefined): string {
  return size === undefined
    ? 'Binary file — not shown as a diff'
    : `Binary file (${formatBytes(size)}) — not shown as a diff`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** "3 hunks: 1 accepted, 1 rejected, 1 undecided", "no changes", or a binary file's size. */
export function fileCounts(file: ReviewFileSummary): string {
  if (file.binary) return file.binarySize === undefined ? '' : formatBytes(file.binarySize);
  if (file.hunks.length === 0) return 'no changes';
  const by: Record<HunkState, number> = { pending: 0, accepted: 0, rejected: 0, mixed: 0 };
  for (const hunk of file.hunks) by[hunk.decision] += 1;
  const parts = (['accepted', 'rejected', 'mixed', 'pending'] as const)
    .filter((state) => by[state] > 0)
    .map((state) => `${by[state]} ${decisionLabel[state].toLowerCase()}`);
  return `${plural(file.hunks.length, 'hunk')}: ${parts.join(', ')}`;
}

const diskWords: Record<Exclude<DiskState, 'unchanged'>, string> = {
  modified: 'changed on disk',
  deleted: 'deleted on disk',
  created: 'created on disk',
};

export interface FileBadge {
  key: 'high-risk' | 'new' | 'binary' | 'disk' | 'conflicts';
  label: string;
  /** Said on hover: why the flag is there. */
  title?: string;
}

/** The short flags shown next to a file's name. */
export function fileBadges(file: ReviewFileInfo): FileBadge[] {
  const badges: FileBadge[] = [];
  const highRisk = highRiskBadge(file.path);
  if (highRisk) badges.push(highRisk);
  if (file.isNewFile) badges.push({ key: 'new', label: 'new' });
  if (file.binary) badges.push({ key: 'binary', label: 'binary' });
  if (file.disk.state !== 'unchanged') badges.push({ key: 'disk', label: diskWords[file.disk.state] });
  if (file.conflicts > 0) badges.push({ key: 'conflicts', label: plural(file.conflicts, 'conflict') });
  return badges;
}

/** "High-risk: agent control file", for a file that configures an agent or git (never auto-applied). */
export function highRiskBadge(path: string): FileBadge | undefined {
  const reason = agentControlReason(path);
  if (reason === undefined) return undefined;
  return {
    key: 'high-risk',
    label: AGENT_CONTROL_LABEL,
    title: `This file is ${reason}: a change to it can widen what an agent may do or run code later. Read every line; auto-apply never applies it.`,
  };
}

/** "first.txt changed on disk 2m ago" (or "deleted", "created"; "just now"). */
export function diskChangeText(name: string, file: ReviewFileInfo, now: number): string {
  if (file.disk.state === 'unchanged') return '';
  const when = file.disk.detectedAt === undefined ? '' : ` ${formatAge(file.disk.detectedAt, now)}`;
  return `${name} ${diskWords[file.disk.state]}${when}`;
}

/** "disk.txt changed on disk" (or deleted, created): what the status line says as it happens. */
export function diskChangeAnnouncement(name: string, file: ReviewFileInfo): string {
  return file.disk.state === 'unchanged' ? '' : `${name} ${diskWords[file.disk.state]}`;
}

/**
 * Files of a review that changed on disk since the previous snapshot of it: their disk state left
 * 'unchanged' just now. Nothing for a review the previous snapshot did not have.
 */
export function newlyChangedOnDisk(before: ReviewItem | undefined, after: ReviewItem): number[] {
  if (!before) return [];
  const changed: number[] = [];
  after.files.forEach((file, index) => {
    const old = before.files[index];
    if (old?.path === file.path && old.disk.state === 'unchanged' && file.disk.state !== 'unchanged')
      changed.push(index);
  });
  return changed;
}

/** Files changed on disk since the proposal was made, in file order. */
export function filesChangedOnDisk(review: ReviewItem): number[] {
  const changed: number[] = [];
  review.files.forEach((file, index) => {
    if (file.disk.state !== 'unchanged') changed.push(index);
  });
  return changed;
}

export function conflictBannerText(conflicts: number): string {
  return `${plural(conflicts, 'conflict')} to resolve: edit the proposal`;
}

/** Why Submit is disabled, or null when it is not. Conflict markers left by a rebase must go first. */
export function submitBlocker(review: ReviewItem, name: (path: string) => string = baseName): string | null {
  const withConflicts = review.files.filter((file) => file.conflicts > 0);
  if (withConflicts.length === 0) return null;
  const total = withConflicts.reduce((sum, file) => sum + file.conflicts, 0);
  const where = withConflicts.map((file) => name(file.path)).join(', ');
  return `Resolve ${plural(total, 'conflict')} in ${where} before submitting`;
}

/** Announced after a whole-file decision: "File logo.png accepted". */
export function fileDecisionAnnouncement(
  name: string,
  decision: 'accepted' | 'rejected' | 'pending',
): string {
  return `File ${name} ${decision === 'pending' ? 'reset to undecided' : decision}`;
}
