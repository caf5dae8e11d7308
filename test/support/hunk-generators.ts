/**
 * fast-check generators for the hunk model's property tests, and builders that turn generated choices
 * into decisions. A tiny line alphabet makes random texts share many lines, so diffs have many hunks.
 */
import fc from 'fast-check';
import type { Hunk, HunkDecision } from '../../shared/hunks';
import { splitLines } from '../../shared/hunks';
import type { HunkLineDecisions } from '../../shared/line-decisions';
import { uniformLineDecisions } from '../../shared/line-decisions';

const contentArb = fc.constantFrom('a', 'b', 'c', '', ' ', 'a ', '\t}', 'x');
const eolArb = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
const lineArb = fc.tuple(contentArb, eolArb).map(([c, e]) => c + e);

export const textArb = fc
  .record({
    bom: fc.boolean(),
    lines: fc.array(lineArb, { maxLength: 40 }),
    // A last line without terminator.
    tail: fc.option(fc.constantFrom('a', 'b', 'z', ' '), { nil: undefined }),
  })
  .map(({ bom, lines, tail }) => (bom ? '\uFEFF' : '') + lines.join('') + (tail ?? ''));

type Edit =
  | { kind: 'ins' | 'rep'; pos: number; line: string }
  | { kind: 'del' | 'bom' | 'dropFinalEol'; pos: number }
  | { kind: 'eol'; pos: number; eol: string };

export const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constantFrom('ins' as const, 'rep' as const), pos: fc.nat(), line: lineArb }),
  fc.record({ kind: fc.constant('del' as const), pos: fc.nat() }),
  fc.record({ kind: fc.constant('eol' as const), pos: fc.nat(), eol: eolArb }),
  fc.record({ kind: fc.constantFrom('bom' as const, 'dropFinalEol' as const), pos: fc.nat() }),
);

export const stripEol = (line: string): string => line.replace(/(\r\n|\r|\n)$/, '');

/** Derives a proposal from a text by line edits, so that base and proposal stay mostly alike. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const lines = splitLines(text);
  for (const e of edits) {
    const at = e.pos % (lines.length + 1);
    switch (e.kind) {
      case 'ins':
        lines.splice(at, 0, e.line);
        break;
      case 'rep':
        if (at < lines.length) lines[at] = e.line;
        break;
      case 'del':
        if (at < lines.length) lines.splice(at, 1);
        break;
      case 'eol':
        if (at < lines.length) lines[at] = stripEol(lines[at]!) + e.eol;
        break;
      case 'bom': {
        const first = lines[0] ?? '';
        const toggled = first.startsWith('\uFEFF') ? first.slice(1) : '\uFEFF' + first;
        if (lines.length === 0) lines.push(toggled);
        else lines[0] = toggled;
        break;
      }
      case 'dropFinalEol':
        if (lines.length > 0) lines[lines.length - 1] = stripEol(lines[lines.length - 1]!);
        break;
    }
  }
  return lines.join('');
}

/** Mostly a base and a few edits of it; sometimes two unrelated texts. */
export const pairArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(textArb, fc.array(editArb, { maxLength: 12 }))
      .map(([base, edits]) => ({ base, proposed: applyEdits(base, edits) })),
  },
  { weight: 1, arbitrary: fc.record({ base: textArb, proposed: textArb }) },
);

export const decisionArb = fc.constantFrom<HunkDecision>('pending', 'accepted', 'rejected');

/** Whole-hunk decisions: hunk k accepted when `chosen[k]`, else (a missing entry too) rejected. */
export function wholeHunkDecisions(hunks: readonly Hunk[], chosen: readonly boolean[]): HunkLineDecisions[] {
  return hunks.map((hunk, k) => uniformLineDecisions(hunk, chosen[k] === true ? 'accepted' : 'rejected'));
}

/** Per-line decisions drawn in reading order from `pool`, round and round (removed lines first). */
export function lineDecisionsFrom(
  hunks: readonly Hunk[],
  pool: readonly HunkDecision[],
): HunkLineDecisions[] {
  let k = 0;
  const next = (): HunkDecision => pool[k++ % pool.length]!;
  return hunks.map((hunk) => ({
    removed: Array.from({ length: hunk.baseEnd - hunk.baseStart }, next),
    added: Array.from({ length: hunk.proposedEnd - hunk.proposedStart }, next),
  }));
}
