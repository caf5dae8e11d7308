/**
 * Line-based three-way merge (classic diff3), used when a file under review changed on disk:
 * base = the text the agent's proposal was made against, disk = what is on disk now,
 * proposed = the agent's proposal.
 *
 * Changes of one side that stay clear of the other side's changes are all kept. Where changes of
 * both sides overlap or touch and disagree, both versions are kept between git-style markers, so
 * nothing either side wrote is ever lost silently.
 */
import { computeHunksFromLines, splitLines } from './hunks';
import type { Hunk } from './hunks';

export const CONFLICT_START = '<<<<<<< on disk';
export const CONFLICT_SEPARATOR = '=======';
export const CONFLICT_END = '>>>>>>> proposed';

export interface MergeResult {
  text: string;
  /** Number of conflict blocks in `text`. */
  conflicts: number;
}

export function merge3(base: string, disk: string, proposed: string): MergeResult {
  const baseLines = splitLines(base);
  const diskLines = splitLines(disk);
  const proposedLines = splitLines(proposed);
  const diskHunks = computeHunksFromLines(baseLines, diskLines);
  const proposedHunks = computeHunksFromLines(baseLines, proposedLines);
  // Markers are written to disk, so they follow the disk file's convention (the base's if disk has none).
  const eol = dominantEol(diskLines) ?? dominantEol(baseLines) ?? '\n';

  const out: string[] = [];
  let conflicts = 0;
  let cursor = 0; // first base line not yet emitted
  let i = 0; // next disk hunk
  let j = 0; // next proposed hunk
  while (i < diskHunks.length || j < proposedHunks.length) {
    // A group is a base range [lo, hi) that starts at the earliest pending change of either side...
    const lo = Math.min(
      diskHunks[i]?.baseStart ?? Number.POSITIVE_INFINITY,
      proposedHunks[j]?.baseStart ?? Number.POSITIVE_INFINITY,
    );
    let hi = lo;
    const firstDisk = i;
    const firstProposed = j;
    // ...and takes in every change of either side that overlaps or touches it, until none does.
    // Touching counts (as in git): edits on adjacent lines are rarely independent of each other.
    for (;;) {
      const d = diskHunks[i];
      const p = proposedHunks[j];
      if (d && d.baseStart <= hi) {
        hi = Math.max(hi, d.baseEnd);
        i++;
      } else if (p && p.baseStart <= hi) {
        hi = Math.max(hi, p.baseEnd);
        j++;
      } else break;
    }

    const baseText = baseLines.slice(lo, hi).join('');
    const diskText = sideText(baseLines, diskLines, diskHunks.slice(firstDisk, i), lo, hi);
    const proposedText = sideText(baseLines, proposedLines, proposedHunks.slice(firstProposed, j), lo, hi);

    out.push(baseLines.slice(cursor, lo).join(''));
    if (diskText === proposedText || proposedText === baseText) {
      out.push(diskText); // same change on both sides, or only disk changed this range
    } else if (diskText === baseText) {
      out.push(proposedText); // only the proposal changed this range
    } else {
      conflicts++;
      out.push(
        CONFLICT_START + eol,
        endLine(diskText, eol),
        CONFLICT_SEPARATOR + eol,
        endLine(proposedText, eol),
        CONFLICT_END + eol,
      );
    }
    cursor = hi;
  }
  out.push(baseLines.slice(cursor).join(''));
  return { text: out.join(''), conflicts };
}

/**
 * A side's text for base range [lo, hi), given that side's hunks inside it. Lines of the range
 * outside the hunks are equal lines, which pair up one to one, so the side's range is the hunks'
 * range widened by the same number of lines as the base range.
 */
function sideText(
  baseLines: readonly string[],
  sideLines: readonly string[],
  hunks: readonly Hunk[],
  lo: number,
  hi: number,
): string {
  const first = hunks[0];
  const last = hunks[hunks.length - 1];
  if (!first || !last) return baseLines.slice(lo, hi).join('');
  return sideLines
    .slice(first.proposedStart - (first.baseStart - lo), last.proposedEnd + (hi - last.baseEnd))
    .join('');
}

/** A side whose last line has no terminator (end of file) gets one, so the next marker starts its own line. */
function endLine(text: string, eol: string): string {
  return text === '' || text.endsWith('\n') || text.endsWith('\r') ? text : text + eol;
}

/** "\r\n" or "\n", whichever terminates more lines; undefined when no line has either. */
function dominantEol(lines: readonly string[]): string | undefined {
  let crlf = 0;
  let lf = 0;
  for (const line of lines) {
    if (line.endsWith('\r\n')) crlf++;
    else if (line.endsWith('\n')) lf++;
  }
  if (crlf + lf === 0) return undefined;
  return crlf > lf ? '\r\n' : '\n';
}

const stripEol = (line: string): string => line.replace(/(\r\n|\r|\n)$/, '');

/**
 * Complete conflict blocks in a text: a start line, then a separator line, then an end line, each
 * exactly a marker apart from its terminator. A start line inside an open block restarts it, so a
 * stray or half-deleted block is never counted.
 */
export function countConflicts(text: string): number {
  // Every block opens with a line that is exactly CONFLICT_START: without it, no line need be looked at.
  if (!text.includes(CONFLICT_START)) return 0;
  let count = 0;
  let state: 'outside' | 'disk' | 'proposed' = 'outside';
  for (const line of splitLines(text)) {
    const bare = stripEol(line);
    if (bare === CONFLICT_START) state = 'disk';
    else if (bare === CONFLICT_SEPARATOR && state === 'disk') state = 'proposed';
    else if (bare === CONFLICT_END && state === 'proposed') {
      count++;
      state = 'outside';
    }
  }
  return count;
}
