/**
 * Decisions at line granularity. Every hunk carries one decision per removed base line and one per
 * added proposed line; deciding a whole hunk sets all of them. Composition drops a removed line unless
 * its removal is rejected, and adds an added line unless its addition is rejected: undecided lines
 * count as accepted at submit. This is the one place where decisions become the final text
 * (`composeText`) and where they follow hunks that were computed again (`remapDecisions`).
 */
import type { Hunk, HunkDecision } from './hunks';
import { splitLines } from './hunks';

export type HunkState = HunkDecision | 'mixed';

export interface HunkLineDecisions {
  /** One per base line in [baseStart, baseEnd). */
  removed: HunkDecision[];
  /** One per proposed line in [proposedStart, proposedEnd). */
  added: HunkDecision[];
}

export function uniformLineDecisions(hunk: Hunk, decision: HunkDecision): HunkLineDecisions {
  return {
    removed: new Array<HunkDecision>(hunk.baseEnd - hunk.baseStart).fill(decision),
    added: new Array<HunkDecision>(hunk.proposedEnd - hunk.proposedStart).fill(decision),
  };
}

/** One word for a set of decisions: the shared one, or 'mixed'. */
export function combinedState(decisions: Iterable<HunkState>): HunkState {
  let state: HunkState | undefined;
  for (const decision of decisions) {
    if (state === undefined) state = decision;
    else if (state !== decision) return 'mixed';
  }
  return state ?? 'pending';
}

export function hunkState(lines: HunkLineDecisions): HunkState {
  return combinedState([...lines.removed, ...lines.added]);
}

const takes = (decision: HunkDecision | undefined) => decision !== 'rejected';

/**
 * The final text: the base outside hunks; inside hunk i, the base lines whose removal `decisions[i]`
 * rejects, then the proposed lines whose addition it does not reject. A missing decision is undecided.
 */
export function composeText(
  base: string,
  proposed: string,
  hunks: readonly Hunk[],
  decisions: readonly HunkLineDecisions[],
): string {
  const baseLines = splitLines(base);
  const proposedLines = splitLines(proposed);
  const out: string[] = [];
  let cursor = 0;
  let proposedCursor = 0;
  hunks.forEach((hunk, i) => {
    // Hunks from another text pair would silently write garbage to disk; refuse them instead.
    if (
      hunk.baseStart < cursor ||
      hunk.baseEnd < hunk.baseStart ||
      hunk.baseEnd > baseLines.length ||
      hunk.proposedStart < proposedCursor ||
      hunk.proposedEnd < hunk.proposedStart ||
      hunk.proposedEnd > proposedLines.length
    ) {
      throw new RangeError(`hunk ${i} does not fit the texts or is out of order`);
    }
    const lines = decisions[i];
    for (; cursor < hunk.baseStart; cursor++) out.push(baseLines[cursor]!);
    for (let b = hunk.baseStart; b < hunk.baseEnd; b++) {
      // The removal is what gets decided: a rejected removal keeps the line.
      if (!takes(lines?.removed[b - hunk.baseStart])) out.push(baseLines[b]!);
    }
    for (let p = hunk.proposedStart; p < hunk.proposedEnd; p++) {
      if (takes(lines?.added[p - hunk.proposedStart])) out.push(proposedLines[p]!);
    }
    cursor = hunk.baseEnd;
    proposedCursor = hunk.proposedEnd;
  });
  for (; cursor < baseLines.length; cursor++) out.push(baseLines[cursor]!);
  return out.join('');
}

/**
 * Carries decisions over to the hunks of an edited proposal (same base). A new hunk keeps an old
 * hunk's decisions only when it is the very same change: same base range and same proposed lines.
 * Anything else is text the person just wrote, so all its lines are accepted.
 */
export function remapDecisions(
  oldProposed: string,
  oldHunks: readonly Hunk[],
  oldDecisions: readonly HunkLineDecisions[],
  newProposed: string,
  newHunks: readonly Hunk[],
): HunkLineDecisions[] {
  const oldLines = splitLines(oldProposed);
  const newLines = splitLines(newProposed);
  // Hunks are separated by equal lines, so no two hunks of one diff share a base range.
  const byBaseRange = new Map<string, { text: string; lines: HunkLineDecisions }>();
  oldHunks.forEach((hunk, i) => {
    byBaseRange.set(`${hunk.baseStart}:${hunk.baseEnd}`, {
      text: oldLines.slice(hunk.proposedStart, hunk.proposedEnd).join(''),
      lines: oldDecisions[i] ?? uniformLineDecisions(hunk, 'pending'),
    });
  });
  return newHunks.map((hunk) => {
    const old = byBaseRange.get(`${hunk.baseStart}:${hunk.baseEnd}`);
    const text = newLines.slice(hunk.proposedStart, hunk.proposedEnd).join('');
    if (!old || old.text !== text) return uniformLineDecisions(hunk, 'accepted');
    return { removed: [...old.lines.removed], added: [...old.lines.added] };
  });
}
