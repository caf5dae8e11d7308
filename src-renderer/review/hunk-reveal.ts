/**
 * Keeping main's hunks on screen while Monaco hides unchanged lines.
 *
 * Monaco decides what to fold ("Hide unchanged lines") from its own diff. That diff is only the
 * display: with "Ignore whitespace" it no longer sees an indentation-only change, and its alignment
 * can differ from main's, so it can fold lines that belong to one of main's hunks, which are what the
 * person decides. The person must never decide a hunk they cannot see, so every hunk, with a few lines
 * of context, is unfolded again, whatever the options and whatever order they were set in.
 *
 * Monaco offers no public way to ask which lines are folded, nor to unfold a given line, except by
 * placing the cursor there (its diff editor unfolds around the cursor). This module finds the folded
 * lines from line geometry (`LineProbe`) and says where to put cursors; diff-editor/unfold-hunks.ts does the rest.
 * Pure, so it is tested without a DOM.
 */

/** Lines kept around each hunk: the context Monaco keeps around its own changes. */
export const HUNK_CONTEXT_LINES = 3;

/** A 1-based inclusive line range. */
export type LineRange = readonly [start: number, end: number];

/** The part of a hunk this needs: its 0-based [proposedStart, proposedEnd) range in the proposed text. */
export interface ProposedSpan {
  proposedStart: number;
  proposedEnd: number;
}

/**
 * The proposed lines that must stay visible: every hunk's lines with `context` lines either side (a
 * pure deletion: the lines around where it was), clipped to the text and merged, in order.
 */
export function hunkViewRanges(
  hunks: readonly ProposedSpan[],
  lineCount: number,
  context = HUNK_CONTEXT_LINES,
): LineRange[] {
  if (lineCount < 1) return [];
  const ranges = hunks
    .map((hunk): [number, number] => [
      Math.max(1, hunk.proposedStart + 1 - context),
      Math.min(lineCount, Math.max(hunk.proposedEnd, hunk.proposedStart) + context),
    ])
    .filter(([start, end]) => start <= end)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/**
 * Vertical geometry of the proposed editor's lines (ICodeEditor.getTopForLineNumber and
 * getBottomForLineNumber). A folded line has no place of its own: Monaco puts it on the last visual
 * line of the nearest visible line above (or on the first visual line when none is above), so it
 * starts above where the line before it ends, which a visible line never does.
 */
export interface LineProbe {
  lineCount: number;
  top(line: number): number;
  bottom(line: number): number;
}

function looksFolded(probe: LineProbe, line: number): boolean {
  if (line >= 2) return probe.top(line) < probe.bottom(line - 1);
  // Line 1 has no line before it; it can only be folded together with line 2.
  return probe.lineCount >= 2 && looksFolded(probe, 2);
}

/**
 * Runs of lines within `ranges` that look folded. Every folded line is in a run; a run can include
 * one visible line next to it (the first visible line after a folded start of the text looks the
 * same), which costs nothing but a cursor placed on a visible line. Lines of one folded run share one
 * position, and positions only grow, so a run's end is found by bisection: a long folded run costs
 * O(log n) probes (each of which Monaco answers by walking back over the folded lines).
 */
export function foldedRuns(ranges: readonly LineRange[], probe: LineProbe): LineRange[] {
  const runs: LineRange[] = [];
  for (const [start, end] of ranges) {
    let line = start;
    while (line <= end) {
      if (!looksFolded(probe, line)) {
        line += 1;
        continue;
      }
      const top = probe.top(line);
      let low = line;
      let high = end;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (probe.top(mid) === top) low = mid;
        else high = mid - 1;
      }
      runs.push([line, low]);
      line = low + 1;
    }
  }
  return runs;
}

/**
 * Where to put cursors to unfold `runs`: each run's first, middle and last line. Monaco unfolds from a
 * cursor to the nearer edge of the folded region, so one round unfolds a run that touches the region's
 * edge entirely, and any run at least halfway; rounds repeat until nothing in the ranges is folded.
 */
export function unfoldTargets(runs: readonly LineRange[]): number[] {
  const lines: number[] = [];
  for (const [start, end] of runs) {
    const mid = (start + end) >> 1;
    for (const line of [start, mid, end]) if (lines[lines.length - 1] !== line) lines.push(line);
  }
  return lines;
}

export const sameRuns = (a: readonly LineRange[], b: readonly LineRange[]): boolean =>
  a.length === b.length && a.every((run, i) => run[0] === b[i]![0] && run[1] === b[i]![1]);
