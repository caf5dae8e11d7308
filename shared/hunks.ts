/**
 * The hunk model: one definition of a hunk, used by core (to compose what reaches disk) and by the
 * renderer (to show and decide). What a person sees as a hunk is exactly what a decision applies to.
 * Decisions on hunks, and the final text they compose to, are in line-decisions.ts; the diff that
 * finds the hunks is in diff.ts.
 *
 * Lines keep their terminators, so line-ending, final-newline and BOM changes are ordinary changes
 * and composing any set of decisions reproduces the chosen text byte for byte.
 */
import type { LineChange } from './diff';
import { diffLineIds, diffLines } from './diff';
import { commonEnds, countLines } from './common-ends';
import { textLineIds } from './line-ids';

export type HunkDecision = 'pending' | 'accepted' | 'rejected';

/** A maximal run of changed lines, and its position in its file's hunk list. */
export interface Hunk extends LineChange {
  index: number;
}

export interface HunkStats {
  accepted: number;
  rejected: number;
  pending: number;
}

/**
 * Splits after each "\n", "\r\n" or lone "\r", keeping the terminator, so `splitLines(t).join('') === t`.
 * Only the last line can lack a terminator; a BOM stays part of the first line.
 */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  const n = text.length;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      lines.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < n) lines.push(text.slice(start));
  return lines;
}

/**
 * The hunks between two texts. The lines both share at their start and end are set aside first
 * (common-ends.ts); the lines between are compared where they lie, never split out (line-ids.ts).
 */
export function computeHunks(base: string, proposed: string): Hunk[] {
  const ends = commonEnds(base, proposed);
  const { prefix, suffix } = ends;
  if (prefix === base.length && prefix === proposed.length) return [];
  const ids = textLineIds(base, proposed, ends);
  const changes = diffLineIds(ids.base, ids.proposed, ids.idCount);
  const last = changes[changes.length - 1];
  // A last insertion or deletion that ends where the shared end begins might slide down into it
  // (diff.ts slideDown), which needs those lines: then the texts are diffed whole.
  if (
    suffix > 0 &&
    last &&
    ((last.baseStart === last.baseEnd && last.proposedEnd === ids.proposed.length) ||
      (last.proposedStart === last.proposedEnd && last.baseEnd === ids.base.length))
  ) {
    return computeHunksFromLines(splitLines(base), splitLines(proposed));
  }
  const offset = prefix === 0 ? 0 : countLines(base, prefix);
  return changes.map((change, index) => ({
    index,
    baseStart: change.baseStart + offset,
    baseEnd: change.baseEnd + offset,
    proposedStart: change.proposedStart + offset,
    proposedEnd: change.proposedEnd + offset,
  }));
}

/** `computeHunks` for callers that already hold the `splitLines` arrays. */
export function computeHunksFromLines(
  baseLines: readonly string[],
  proposedLines: readonly string[],
): Hunk[] {
  return toHunks(diffLines(baseLines, proposedLines));
}

function toHunks(changes: readonly LineChange[]): Hunk[] {
  return changes.map((change, index) => ({ index, ...change }));
}
