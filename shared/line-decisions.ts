/**
 * Decisions at line granularity. Every hunk carries one decision per removed base line and one per
 * added proposed line; deciding a whole hunk sets all of them. Composition keeps a removed line unless
 * its removal is accepted, and adds an added line when its addition is accepted. Undecided lines
 * count as accepted at submit, so a hunk decided as a whole composes exactly as in hunks.ts.
 */
import type { Hunk, HunkDecision } from './hunks';

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

/** The final text; hunks must be sorted and fit the line arrays. */
export function composeWithLineDecisions(
  baseLines: readonly string[],
  proposedLines: readonly string[],
  hunks: readonly Hunk[],
  decisions: readonly HunkLineDecisions[],
): string {
  const out: string[] = [];
  let base = 0;
  hunks.forEach((hunk, i) => {
    const lines = decisions[i];
    for (; base < hunk.baseStart; base++) out.push(baseLines[base]!);
    for (let b = hunk.baseStart; b < hunk.baseEnd; b++) {
      // The removal is what gets decided: a rejected removal keeps the line.
      if (!takes(lines?.removed[b - hunk.baseStart])) out.push(baseLines[b]!);
    }
    for (let p = hunk.proposedStart; p < hunk.proposedEnd; p++) {
      if (takes(lines?.added[p - hunk.proposedStart])) out.push(proposedLines[p]!);
    }
    base = hunk.baseEnd;
  });
  for (; base < baseLines.length; base++) out.push(baseLines[base]!);
  return out.join('');
}
