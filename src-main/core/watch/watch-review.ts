/**
 * What a watched folder's review says (its title and description), and each file and its decision as
 * the disk policy (disk-policy.ts) takes them: accepted, the composed text (or no file); rejected, the
 * baseline back.
 */
import path from 'node:path';
import type { DiskFile, FileDecision } from '../disk/disk-policy';
import type { DiskSnapshot } from '../disk/disk-snapshot';
import type { FinalFile, ProposedFile } from '../review/review-queue';

/** A file as put up for review: base = its baseline, onDisk = the snapshot read. */
export type Reviewed = ProposedFile & { onDisk: DiskSnapshot };

/** Paths named in a review's title; the rest are counted. */
const TITLE_PATHS = 5;

/** `file` relative to the watched folder, with forward slashes. */
export function shownPath(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

export function reviewTitle(root: string, files: Iterable<string>): string {
  const names: string[] = [];
  let count = 0;
  for (const file of files) {
    if (count++ < TITLE_PATHS) names.push(shownPath(root, file));
  }
  const more = count > TITLE_PATHS ? ` and ${count - TITLE_PATHS} more` : '';
  return `Changes on disk: ${names.join(', ')}${more}`;
}

export function reviewDescription(root: string, notes: readonly string[]): string {
  return [
    `Written on disk in ${root} by something other than DiffTray. Accept keeps it; reject puts the ` +
      'rejected lines back as they were. Files changed again while it waits are added to it.',
    ...(notes.length > 0 ? ['', 'Left out:', ...notes.map((note) => `- ${note}`)] : []),
  ].join('\n');
}

/**
 * A watched file as the disk policy sees it: the change is on disk already (the snapshot read), and its
 * proposal is no file when the file was deleted; written only inside the watched folder.
 */
export function diskFileOf(file: Reviewed, root: string): DiskFile {
  return {
    path: file.path,
    base: file.base,
    written: file.onDisk,
    deletes: !file.onDisk.exists,
    within: [root],
  };
}

/**
 * The decision on `file`: accepted with its composed text when the review was accepted, else rejected
 * (its baseline is put back). A cancelled review is not settled at all.
 */
export function decided(finals: ReadonlyMap<string, FinalFile> | undefined, file: Reviewed): FileDecision {
  const composed = finals?.get(file.path);
  return composed ? { kind: 'accepted', composed } : { kind: 'rejected' };
}
