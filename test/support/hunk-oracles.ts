/**
 * Slow, obviously right references for the hunk model's property tests: each says what a result must
 * be by the plainest means (splicing arrays, a quadratic LCS table, a linear search), never by the
 * code under test.
 */
import { expect } from 'vitest';
import type { Hunk } from '../../shared/hunks';
import { splitLines } from '../../shared/hunks';
import type { HunkLineDecisions } from '../../shared/line-decisions';
import { uniformLineDecisions } from '../../shared/line-decisions';

/** A base line range and the lines that replace it. */
export interface LineSplice {
  baseStart: number;
  baseEnd: number;
  lines: readonly string[];
}

/** Replaces non-overlapping base line ranges, last first so earlier indices stay valid. */
export function spliceLines(base: string, splices: readonly LineSplice[]): string {
  const out = splitLines(base);
  const lastFirst = [...splices].sort((x, y) => y.baseStart - x.baseStart);
  for (const { baseStart, baseEnd, lines } of lastFirst) out.splice(baseStart, baseEnd - baseStart, ...lines);
  return out.join('');
}

/** The base with the proposed lines of just the chosen hunks spliced in. */
export function spliceChosenHunks(
  base: string,
  proposed: string,
  hunks: readonly Hunk[],
  chosen: readonly boolean[],
): string {
  const proposedLines = splitLines(proposed);
  return spliceLines(
    base,
    hunks
      .filter((_, k) => chosen[k] === true)
      .map((h) => ({ ...h, lines: proposedLines.slice(h.proposedStart, h.proposedEnd) })),
  );
}

/** Per hunk: the base lines whose removal was rejected, then the added lines not rejected. */
export function spliceLineDecisions(
  base: string,
  proposed: string,
  hunks: readonly Hunk[],
  decisions: readonly HunkLineDecisions[],
): string {
  const baseLines = splitLines(base);
  const proposedLines = splitLines(proposed);
  return spliceLines(
    base,
    hunks.map((h, k) => {
      const kept = baseLines
        .slice(h.baseStart, h.baseEnd)
        .filter((_, i) => decisions[k]!.removed[i] === 'rejected');
      const added = proposedLines
        .slice(h.proposedStart, h.proposedEnd)
        .filter((_, i) => decisions[k]!.added[i] !== 'rejected');
      return { ...h, lines: [...kept, ...added] };
    }),
  );
}

/** What remapping must give: an old hunk's decisions where a new hunk is the very same change, else accepted. */
export function remapReference(
  oldProposed: string,
  oldHunks: readonly Hunk[],
  oldDecisions: readonly HunkLineDecisions[],
  newProposed: string,
  newHunks: readonly Hunk[],
): HunkLineDecisions[] {
  const oldLines = splitLines(oldProposed);
  const newLines = splitLines(newProposed);
  return newHunks.map((nh) => {
    const k = oldHunks.findIndex(
      (oh) =>
        oh.baseStart === nh.baseStart &&
        oh.baseEnd === nh.baseEnd &&
        oldLines.slice(oh.proposedStart, oh.proposedEnd).join('') ===
          newLines.slice(nh.proposedStart, nh.proposedEnd).join(''),
    );
    return k >= 0 ? oldDecisions[k]! : uniformLineDecisions(nh, 'accepted');
  });
}

export function lcsLength(a: readonly string[], b: readonly string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

export const changedBaseLines = (hunks: readonly Hunk[]): number =>
  hunks.reduce((sum, h) => sum + h.baseEnd - h.baseStart, 0);

/** Sorted, in range, non-empty, separated by ≥1 line, and the lines between hunks really are equal. */
export function expectWellFormed(base: string, proposed: string, hunks: readonly Hunk[]): void {
  const bl = splitLines(base);
  const pl = splitLines(proposed);
  let baseCursor = 0;
  let proposedCursor = 0;
  hunks.forEach((h, k) => {
    expect(h.index).toBe(k);
    expect(h.baseEnd - h.baseStart + (h.proposedEnd - h.proposedStart)).toBeGreaterThan(0);
    expect(h.baseStart).toBeLessThanOrEqual(h.baseEnd);
    expect(h.proposedStart).toBeLessThanOrEqual(h.proposedEnd);
    const gap = h.baseStart - baseCursor;
    expect(h.proposedStart - proposedCursor).toBe(gap);
    if (k > 0) expect(gap).toBeGreaterThanOrEqual(1);
    expect(bl.slice(baseCursor, h.baseStart)).toEqual(pl.slice(proposedCursor, h.proposedStart));
    baseCursor = h.baseEnd;
    proposedCursor = h.proposedEnd;
  });
  expect(bl.length - baseCursor).toBe(pl.length - proposedCursor);
  expect(bl.slice(baseCursor)).toEqual(pl.slice(proposedCursor));
}
