import { describe, expect, it } from 'vitest';
import type { HunkView } from '../../../shared/app-api';
import {
  changedDecisions,
  GeometryVersion,
  sameDecision,
} from '../../../src-renderer/review/diff-editor/hunk-geometry';
import { decisionDecorations, hunkDecisionDecorations } from '../../../src-renderer/review/hunk-decorations';

const hunk = (
  at: number,
  decision: HunkView['decision'] = 'pending',
  lines?: HunkView['lines'],
): HunkView => ({
  index: at,
  baseStart: at * 10,
  baseEnd: at * 10 + 2,
  proposedStart: at * 10,
  proposedEnd: at * 10 + 3,
  decision,
  ...(lines && { lines }),
});
/** The same hunks as new objects, as a whole snapshot from main makes them. */
const copies = (hunks: HunkView[]): HunkView[] => hunks.map((h) => structuredClone(h));

describe('GeometryVersion', () => {
  it('stays the same for the same array, for copies, and when only decisions change', () => {
    const hunks = [hunk(0), hunk(1), hunk(2)];
    const geometry = new GeometryVersion();
    const first = geometry.of(hunks);
    expect(geometry.of(hunks)).toBe(first);
    expect(geometry.of(copies(hunks))).toBe(first);
    expect(geometry.of([hunks[0]!, hunk(1, 'accepted'), hunks[2]!])).toBe(first);
  });

  it('changes when a line range, or the number of hunks, changes', () => {
    const hunks = [hunk(0), hunk(1)];
    const geometry = new GeometryVersion();
    const first = geometry.of(hunks);
    const moved = geometry.of([hunks[0]!, { ...hunks[1]!, proposedEnd: 99 }]);
    expect(moved).not.toBe(first);
    const fewer = geometry.of([hunks[0]!]);
    expect(fewer).not.toBe(moved);
    // Back to an earlier geometry is still a change from the one shown.
    expect(geometry.of(hunks)).not.toBe(fewer);
  });
});

describe('changedDecisions', () => {
  it('finds only the hunks whose decisions differ, whether identities are kept or not', () => {
    const before = [hunk(0), hunk(1), hunk(2), hunk(3)];
    expect(changedDecisions(before, before)).toEqual([]);
    expect(changedDecisions(before, copies(before))).toEqual([]);
    const kept = [before[0]!, hunk(1, 'accepted'), before[2]!, before[3]!];
    expect(changedDecisions(before, kept)).toEqual([1]);
    const fresh = copies(before);
    fresh[3] = hunk(3, 'rejected');
    expect(changedDecisions(before, fresh)).toEqual([3]);
  });

  it('sees a change in the per-line decisions of a mixed hunk', () => {
    const mixed = hunk(0, 'mixed', {
      removed: ['accepted', 'rejected'],
      added: ['rejected', 'accepted', 'pending'],
    });
    expect(sameDecision(mixed, structuredClone(mixed))).toBe(true);
    const other = structuredClone(mixed);
    other.lines!.added[2] = 'accepted';
    expect(sameDecision(mixed, other)).toBe(false);
    expect(changedDecisions([mixed], [other])).toEqual([0]);
  });
});

describe('hunkDecisionDecorations', () => {
  it('is, hunk by hunk, what decisionDecorations gives for the whole list', () => {
    const hunks = [
      hunk(0, 'accepted'),
      hunk(1),
      hunk(2, 'rejected'),
      hunk(3, 'mixed', { removed: ['accepted', 'accepted'], added: ['rejected', 'pending', 'accepted'] }),
    ];
    for (const side of ['original', 'modified'] as const) {
      expect(hunks.flatMap((h) => hunkDecisionDecorations(h, side))).toEqual(
        decisionDecorations(hunks, side),
      );
    }
    expect(hunkDecisionDecorations(hunks[1]!, 'modified')).toEqual([]);
  });
});
