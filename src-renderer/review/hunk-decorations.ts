/**
 * Line decorations for main's hunks. Monaco draws its own insert/delete colours; ours say what the
 * person decided: accepted lines get a green bar, rejected ones a red bar, and rejected proposed lines
 * are struck through and dimmed, since they will not reach the file. A 'mixed' hunk is decorated line
 * by line from its per-line decisions.
 *
 * Decisions and the current-hunk marker are separate lists, so moving through hunks (j/k) only
 * replaces one small decoration and deciding does not depend on where the cursor is.
 */
import type { HunkView } from '../../shared/app-api';
import type { HunkDecision } from '../../shared/hunks';

export interface LineDecoration {
  /** 1-based inclusive line range in one editor. */
  startLine: number;
  endLine: number;
  className: string;
  gutterClassName: string;
  inlineClassName?: string;
}

type Side = 'original' | 'modified';

function decisionClasses(
  decision: HunkDecision,
  side: Side,
): Omit<LineDecoration, 'startLine' | 'endLine'> | null {
  if (decision === 'pending') return null;
  return {
    className: `dt-line-${decision}`,
    gutterClassName: `dt-line-${decision}-gutter`,
    // Only proposed text is dropped by a rejection; the base lines it would have replaced stay.
    ...(decision === 'rejected' && side === 'modified' ? { inlineClassName: 'dt-text-rejected' } : {}),
  };
}

/** 0-based [start, end) of a hunk on one side. */
function span(hunk: HunkView, side: Side): [number, number] {
  return side === 'modified' ? [hunk.proposedStart, hunk.proposedEnd] : [hunk.baseStart, hunk.baseEnd];
}

/** Runs of equal per-line decisions, so a mixed hunk costs one decoration per run, not per line. */
function pushRuns(
  out: LineDecoration[],
  start: number,
  decisions: readonly HunkDecision[],
  side: Side,
): void {
  let runStart = 0;
  for (let i = 1; i <= decisions.length; i++) {
    if (i < decisions.length && decisions[i] === decisions[runStart]) continue;
    const classes = decisionClasses(decisions[runStart]!, side);
    if (classes) out.push({ startLine: start + runStart + 1, endLine: start + i, ...classes });
    runStart = i;
  }
}

/** One hunk's decision decorations on one side (a pending hunk has none). */
export function hunkDecisionDecorations(hunk: HunkView, side: Side): LineDecoration[] {
  const result: LineDecoration[] = [];
  const [start, end] = span(hunk, side);
  // A pure insertion has no base lines and a pure deletion no proposed lines: nothing to mark there.
  if (end <= start) return result;
  if (hunk.decision === 'mixed') {
    const lines = side === 'modified' ? hunk.lines?.added : hunk.lines?.removed;
    if (lines) pushRuns(result, start, lines.slice(0, end - start), side);
    return result;
  }
  const classes = decisionClasses(hunk.decision, side);
  if (classes) result.push({ startLine: start + 1, endLine: end, ...classes });
  return result;
}

/** Decision decorations for one side: 'modified' covers proposed lines, 'original' the base lines a hunk replaces. */
export function decisionDecorations(hunks: readonly HunkView[], side: Side): LineDecoration[] {
  return hunks.flatMap((hunk) => hunkDecisionDecorations(hunk, side));
}

/** The marker for the current hunk on one side (none when the hunk has no lines there). */
export function currentHunkDecorations(hunk: HunkView | undefined, side: Side): LineDecoration[] {
  if (!hunk) return [];
  const [start, end] = span(hunk, side);
  if (end <= start) return [];
  return [
    {
      startLine: start + 1,
      endLine: end,
      className: 'dt-line-current',
      gutterClassName: 'dt-line-current-gutter',
    },
  ];
}

/** Both lists for one side, decisions first. */
export function hunkLineDecorations(
  hunks: readonly HunkView[],
  side: Side,
  currentHunk: number | null,
): LineDecoration[] {
  return [
    ...decisionDecorations(hunks, side),
    ...currentHunkDecorations(currentHunk === null ? undefined : hunks[currentHunk], side),
  ];
}
