/**
 * What a watched folder's review says (its title and description) and what its outcome writes for each
 * file: accepted, the composed text (or no file); rejected, the baseline back.
 */
import path from 'node:path';
import type { DiskSnapshot } from '../disk-snapshot';
import type { FinalFile, ProposedFile } from '../review-queue';

/** A file as put up for review: base = its baseline, onDisk = the snapshot read. */
export type Reviewed = ProposedFile & { onDisk: DiskSnapshot };

/** Paths named in a review's title; the rest are counted. */
const TITLE_PATHS = 5;

const ABSENT: DiskSnapshot = { exists: false };

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
 * What must be on disk for the decision on `file` to be written, and what is written: `final` when it
 * was accepted (its composed text; no file for a deletion kept), else (rejected) the baseline.
 */
export function decided(
  file: Reviewed,
  final: FinalFile | undefined,
): { expected: DiskSnapshot; target: DiskSnapshot } {
  if (!final) return { expected: file.onDisk, target: file.base };
  const target: DiskSnapshot = !final.changed
    ? file.base
    : !file.onDisk.exists && final.finalText === ''
      ? ABSENT
      : { exists: true, kind: 'text', text: final.finalText };
  return { expected: final.expectedOnDisk, target };
}
