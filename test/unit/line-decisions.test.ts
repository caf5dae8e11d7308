import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { Hunk, HunkDecision } from '../../shared/hunks';
import { computeHunks, splitLines } from '../../shared/hunks';
import type { HunkLineDecisions } from '../../shared/line-decisions';
import { composeText, hunkState, remapDecisions, uniformLineDecisions } from '../../shared/line-decisions';
import {
  applyEdits,
  decisionArb,
  editArb,
  lineDecisionsFrom,
  pairArb,
  wholeHunkDecisions,
} from '../support/hunk-generators';
import { remapReference, spliceChosenHunks, spliceLineDecisions } from '../support/hunk-oracles';

const uniform = (hunks: readonly Hunk[], decision: HunkDecision): HunkLineDecisions[] =>
  hunks.map((hunk) => uniformLineDecisions(hunk, decision));

describe('composeText', () => {
  it('accepting or leaving everything undecided gives the proposal; rejecting everything, the base', () => {
    fc.assert(
      fc.property(pairArb, ({ base, proposed }) => {
        const hunks = computeHunks(base, proposed);
        expect(composeText(base, proposed, hunks, uniform(hunks, 'accepted'))).toBe(proposed);
        expect(composeText(base, proposed, hunks, uniform(hunks, 'pending'))).toBe(proposed);
        // A missing decision is an undecided one.
        expect(composeText(base, proposed, hunks, [])).toBe(proposed);
        expect(composeText(base, proposed, hunks, uniform(hunks, 'rejected'))).toBe(base);
      }),
      { numRuns: 500 },
    );
  });

  it('whole-hunk decisions splice exactly the taken hunks into the base', () => {
    fc.assert(
      fc.property(pairArb, fc.array(fc.boolean(), { maxLength: 60 }), ({ base, proposed }, chosen) => {
        const hunks = computeHunks(base, proposed);
        expect(composeText(base, proposed, hunks, wholeHunkDecisions(hunks, chosen))).toBe(
          spliceChosenHunks(base, proposed, hunks, chosen),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('per-line decisions keep the base lines whose removal is rejected, then the added lines not rejected', () => {
    fc.assert(
      fc.property(
        pairArb,
        fc.array(decisionArb, { minLength: 1, maxLength: 30 }),
        ({ base, proposed }, pool) => {
          const hunks = computeHunks(base, proposed);
          const decisions = lineDecisionsFrom(hunks, pool);
          expect(composeText(base, proposed, hunks, decisions)).toBe(
            spliceLineDecisions(base, proposed, hunks, decisions),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses hunks that do not fit the texts or are out of order', () => {
    const h = (
      baseStart: number,
      baseEnd: number,
      proposedStart: number,
      proposedEnd: number,
      index = 0,
    ) => ({
      index,
      baseStart,
      baseEnd,
      proposedStart,
      proposedEnd,
    });
    expect(() => composeText('a\n', 'b\n', [h(0, 2, 0, 1)], [])).toThrow(RangeError);
    expect(() => composeText('a\n', 'b\n', [h(0, 1, 0, 2)], [])).toThrow(RangeError);
    expect(() => composeText('a\nb\n', 'a\nb\n', [h(1, 2, 1, 2, 0), h(0, 1, 0, 1, 1)], [])).toThrow(
      RangeError,
    );
  });
});

describe('remapDecisions', () => {
  const base = Array.from({ length: 30 }, (_, i) => `line ${i}\n`).join('');
  const change = (text: string, at: number, replacement: string): string => {
    const lines = splitLines(text);
    lines[at] = replacement;
    return lines.join('');
  };
  const words = (decisions: readonly HunkLineDecisions[]) => decisions.map(hunkState);

  it('an edit inside one hunk keeps the other hunks’ decisions, line decisions included', () => {
    let proposed = base;
    for (const at of [3, 10, 17, 25]) proposed = change(proposed, at, `new ${at}\n`);
    const hunks = computeHunks(base, proposed);
    expect(hunks).toHaveLength(4);
    const decisions: HunkLineDecisions[] = [
      uniformLineDecisions(hunks[0]!, 'accepted'),
      { removed: ['rejected'], added: ['accepted'] },
      uniformLineDecisions(hunks[2]!, 'pending'),
      uniformLineDecisions(hunks[3]!, 'rejected'),
    ];

    const edited = change(proposed, 17, 'new 17, edited by hand\n');
    const newHunks = computeHunks(base, edited);
    expect(newHunks).toHaveLength(4);
    const remapped = remapDecisions(proposed, hunks, decisions, edited, newHunks);
    expect(words(remapped)).toEqual(['accepted', 'mixed', 'accepted', 'rejected']);
    expect(remapped[1]).toEqual({ removed: ['rejected'], added: ['accepted'] });
  });

  it('a hunk the person created, or merged, is accepted', () => {
    let proposed = change(base, 3, 'new 3\n');
    proposed = change(proposed, 5, 'new 5\n');
    const hunks = computeHunks(base, proposed);
    const decisions = [
      uniformLineDecisions(hunks[0]!, 'rejected'),
      uniformLineDecisions(hunks[1]!, 'pending'),
    ];

    const added = change(proposed, 20, 'typed\n');
    const addedHunks = computeHunks(base, added);
    expect(words(remapDecisions(proposed, hunks, decisions, added, addedHunks))).toEqual([
      'rejected',
      'pending',
      'accepted',
    ]);

    const merged = change(proposed, 4, 'bridge\n');
    const mergedHunks = computeHunks(base, merged);
    expect(mergedHunks).toHaveLength(1);
    expect(words(remapDecisions(proposed, hunks, decisions, merged, mergedHunks))).toEqual(['accepted']);
  });

  it('reverting a hunk to the base makes it disappear without disturbing the rest', () => {
    let proposed = change(base, 3, 'new 3\n');
    proposed = change(proposed, 9, 'new 9\n');
    const hunks = computeHunks(base, proposed);
    const reverted = change(proposed, 3, 'line 3\n');
    const newHunks = computeHunks(base, reverted);
    const decisions = [
      uniformLineDecisions(hunks[0]!, 'accepted'),
      uniformLineDecisions(hunks[1]!, 'rejected'),
    ];
    expect(words(remapDecisions(proposed, hunks, decisions, reverted, newHunks))).toEqual(['rejected']);
  });

  it('is the identity when nothing changed', () => {
    fc.assert(
      fc.property(
        pairArb,
        fc.array(decisionArb, { minLength: 1, maxLength: 30 }),
        ({ base, proposed }, pool) => {
          const hunks = computeHunks(base, proposed);
          const decisions = lineDecisionsFrom(hunks, pool);
          expect(remapDecisions(proposed, hunks, decisions, proposed, hunks)).toEqual(decisions);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a hunk’s decisions exactly when the same change is still there, else accepts it', () => {
    fc.assert(
      fc.property(
        pairArb,
        fc.array(editArb, { maxLength: 4 }),
        fc.array(decisionArb, { minLength: 1, maxLength: 30 }),
        ({ base, proposed }, edits, pool) => {
          const hunks = computeHunks(base, proposed);
          const decisions = lineDecisionsFrom(hunks, pool);
          const edited = applyEdits(proposed, edits);
          const newHunks = computeHunks(base, edited);
          expect(remapDecisions(proposed, hunks, decisions, edited, newHunks)).toEqual(
            remapReference(proposed, hunks, decisions, edited, newHunks),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('returns decisions of its own: changing them leaves the old ones alone', () => {
    const proposed = change(base, 3, 'new 3\n');
    const hunks = computeHunks(base, proposed);
    const decisions = [uniformLineDecisions(hunks[0]!, 'rejected')];
    const remapped = remapDecisions(proposed, hunks, decisions, proposed, hunks);
    remapped[0]!.added[0] = 'accepted';
    expect(decisions[0]!.added).toEqual(['rejected']);
  });
});
