/**
 * From what the person selected in one editor of the diff to the lines of one hunk that a line
 * decision applies to. Pure, so it is tested without Monaco.
 *
 * The original (left) editor shows the base text and the modified (right) editor the proposed text,
 * line for line: editor line n is text line n - 1 (LineSelection indices are 0-based).
 */
import type { HunkView, LineSelection } from '../../shared/app-api';
import type { Hunk } from '../../shared/hunks';

export type DiffSide = 'original' | 'modified';

/** A Monaco selection: 1-based lines and columns; the end column is exclusive. */
export interface SelectionRange {
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

/** 1-based inclusive line range in one editor. */
export type LineRange = readonly [first: number, last: number];

/** What is selected in one editor, as whole lines. */
export interface EditorLineSelection {
  side: DiffSide;
  ranges: LineRange[];
}

/**
 * The lines the selections touch. A selection that ends at column 1 leaves that last line out (it is
 * what dragging over whole lines produces); an empty selection (a caret) stands for its own line.
 * Overlapping ranges are merged; the result is sorted.
 */
export function selectedLineRanges(selections: readonly SelectionRange[]): LineRange[] {
  const ranges: Array<[number, number]> = selections
    .map((s): [number, number] => {
      const first = Math.min(s.startLineNumber, s.endLineNumber);
      let last = Math.max(s.startLineNumber, s.endLineNumber);
      const endColumn = s.endLineNumber >= s.startLineNumber ? s.endColumn : s.startColumn;
      if (last > first && endColumn === 1) last -= 1;
      return [first, last];
    })
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const previous = merged[merged.length - 1];
    if (previous && range[0] <= previous[1] + 1) previous[1] = Math.max(previous[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/** The 0-based [start, end) lines a hunk covers in one editor. */
export function hunkSpan(hunk: Hunk, side: DiffSide): [start: number, end: number] {
  return side === 'original' ? [hunk.baseStart, hunk.baseEnd] : [hunk.proposedStart, hunk.proposedEnd];
}

export type ResolvedLineSelection =
  | {
      ok: true;
      /** Position of the hunk in the file's hunk list ("Hunk N" is position + 1). */
      hunkPosition: number;
      side: DiffSide;
      lines: LineSelection;
      count: number;
    }
  | { ok: false; reason: string };

export const NO_SELECTION_REASON = 'Select lines of one hunk in the diff first';

/** First hunk whose span on `side` ends after `line` (0-based); hunks are sorted by position. */
function firstEndingAfter(hunks: readonly Hunk[], side: DiffSide, line: number): number {
  let lo = 0;
  let hi = hunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (hunkSpan(hunks[mid]!, side)[1] <= line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The lines of the one hunk the selection falls in, restricted to that hunk: base lines in
 * [baseStart, baseEnd) for the original editor, proposed lines in [proposedStart, proposedEnd) for
 * the modified one. Lines outside every hunk are ignored; a selection touching two hunks is refused.
 * O(ranges × log hunks + selected lines).
 */
export function resolveLineSelection(
  hunks: readonly HunkView[],
  selection: EditorLineSelection | null,
): ResolvedLineSelection {
  if (!selection || selection.ranges.length === 0) return { ok: false, reason: NO_SELECTION_REASON };
  const { side } = selection;
  let hunkPosition = -1;
  for (const [first, last] of selection.ranges) {
    // 0-based, end exclusive.
    const start = first - 1;
    const end = last;
    for (let h = firstEndingAfter(hunks, side, start); h < hunks.length; h++) {
      const [spanStart, spanEnd] = hunkSpan(hunks[h]!, side);
      if (spanStart >= end) break;
      if (spanEnd <= spanStart) continue; // nothing of this hunk on this side
      if (hunkPosition >= 0 && hunkPosition !== h) {
        return { ok: false, reason: 'The selection spans several hunks: select lines of one hunk' };
      }
      hunkPosition = h;
    }
  }
  const hunk = hunks[hunkPosition];
  if (!hunk) {
    return {
      ok: false,
      reason:
        side === 'original'
          ? 'No removed lines selected: select changed lines'
          : 'No added lines selected: select changed lines',
    };
  }
  const [spanStart, spanEnd] = hunkSpan(hunk, side);
  const picked: number[] = [];
  for (const [first, last] of selection.ranges) {
    for (let line = Math.max(first - 1, spanStart); line < Math.min(last, spanEnd); line++) picked.push(line);
  }
  const lines: LineSelection =
    side === 'original' ? { base: picked, proposed: [] } : { base: [], proposed: picked };
  return { ok: true, hunkPosition, side, lines, count: picked.length };
}

/** "Hunk 2: 3 lines accepted", what a line decision announces. */
export function lineDecisionAnnouncement(
  hunkPosition: number,
  count: number,
  decision: 'accepted' | 'rejected',
): string {
  return `Hunk ${hunkPosition + 1}: ${count} ${count === 1 ? 'line' : 'lines'} ${decision}`;
}

/** "3 lines selected in hunk 2", what the toolbar shows next to the line buttons. */
export function selectionSummary(resolved: ResolvedLineSelection): string {
  if (!resolved.ok) return '';
  const kind = resolved.side === 'original' ? 'removed' : 'added';
  const noun = resolved.count === 1 ? 'line' : 'lines';
  return `${resolved.count} ${kind} ${noun} selected in hunk ${resolved.hunkPosition + 1}`;
}
