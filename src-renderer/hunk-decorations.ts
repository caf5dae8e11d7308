/**
 * Line decorations for main's hunks. Monaco draws its own insert/delete colours; ours say what the
 * person decided: accepted hunks get a green bar, rejected ones a red bar, and the proposed lines of a
 * rejected hunk are struck through and dimmed, since they will not reach the file.
 */
import type { HunkView } from '../shared/app-api';

export interface LineDecoration {
  /** 1-based inclusive line range in one editor. */
  startLine: number;
  endLine: number;
  className: string;
  gutterClassName: string;
  inlineClassName?: string;
}

function classesFor(
  hunk: HunkView,
  current: boolean,
  side: 'original' | 'modified',
): Omit<LineDecoration, 'startLine' | 'endLine'> | null {
  const parts: string[] = [];
  if (hunk.decision !== 'pending') parts.push(`dt-line-${hunk.decision}`);
  if (current) parts.push('dt-line-current');
  if (parts.length === 0) return null;
  return {
    className: parts.join(' '),
    gutterClassName: parts.map((part) => `${part}-gutter`).join(' '),
    // Only proposed text is dropped by a rejection; the base lines it would have replaced stay.
    ...(hunk.decision === 'rejected' && side === 'modified' ? { inlineClassName: 'dt-text-rejected' } : {}),
  };
}

/** Decorations for one side: 'modified' covers proposed lines, 'original' the base lines a hunk replaces. */
export function hunkLineDecorations(
  hunks: readonly HunkView[],
  side: 'original' | 'modified',
  currentHunk: number | null,
): LineDecoration[] {
  const result: LineDecoration[] = [];
  hunks.forEach((hunk, position) => {
    const classes = classesFor(hunk, position === currentHunk, side);
    if (!classes) return;
    const start = side === 'modified' ? hunk.proposedStart : hunk.baseStart;
    const end = side === 'modified' ? hunk.proposedEnd : hunk.baseEnd;
    // A pure insertion has no base lines and a pure deletion no proposed lines: nothing to mark there.
    if (end <= start) return;
    result.push({ startLine: start + 1, endLine: end, ...classes });
  });
  return result;
}

/** Changes when the hunks' line ranges change, not when only their decisions do. */
export function hunkGeometryKey(hunks: readonly HunkView[]): string {
  return hunks.map((h) => `${h.baseStart}:${h.baseEnd}:${h.proposedStart}:${h.proposedEnd}`).join(',');
}
