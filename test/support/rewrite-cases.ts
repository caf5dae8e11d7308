/**
 * Shared parts of the rewrite-replay properties (test/unit/hooks/*rewrite-replay.property.test.ts):
 * texts plain and odd, the person's decisions, the composed text DiffTray hands back, and a tally that
 * keeps a property from passing on nothing but skipped or unwritable cases.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { computeHunks, type Hunk } from '../../shared/hunks';
import { composeText, type HunkLineDecisions } from '../../shared/line-decisions';
import { applyEdits, lineDecisionsFrom, pairArb, wholeHunkDecisions } from './hunk-generators';

/** Few distinct lines, so a base and its proposal share many and diffs have several hunks. */
const plainLine = fc.constantFrom('a', 'b', 'c', '', ' ', 'a ', '\t}', 'x').map((text) => `${text}\n`);

/** LF line breaks, a final newline, no BOM, no backslash: what every tool must be able to write. */
export const plainTextArb = fc.array(plainLine, { maxLength: 30 }).map((lines) => lines.join(''));

const plainEditArb = fc.oneof(
  fc.record({ kind: fc.constantFrom('ins' as const, 'rep' as const), pos: fc.nat(), line: plainLine }),
  fc.record({ kind: fc.constant('del' as const), pos: fc.nat() }),
);

/** A text and another derived from it (what a tool call will carry), both plain or both anything. */
export interface TextPair {
  base: string;
  other: string;
}

const plainPairArb: fc.Arbitrary<TextPair> = fc
  .tuple(plainTextArb, fc.array(plainEditArb, { maxLength: 10 }))
  .map(([base, edits]) => ({ base, other: applyEdits(base, edits) }));

/** CR, CRLF, BOMs, no final newline (hunk-generators' pairs), and now and then a backslash escape. */
const oddPairArb: fc.Arbitrary<TextPair> = fc
  .tuple(pairArb, fc.constantFrom('', '', '', 'say\\n\n'))
  .map(([{ base, proposed }, escape]) => ({ base, other: escape + proposed }));

export const textPairArb = fc.oneof(plainPairArb, oddPairArb);

/** Plain: LF only, ends with a newline (so not empty), no BOM, no backslash. */
export const isPlain = (text: string): boolean => !/[\r\uFEFF\\]/.test(text) && text.endsWith('\n');

/** A plain case: the file empty or plain, and the composed text plain; every tool must write it. */
export const isPlainCase = (base: string, composed: string): boolean =>
  (base === '' || isPlain(base)) && isPlain(composed);

/** The person's decisions: whole hunks taken or left, or line by line. */
export type DecisionChoice = { whole: boolean[] } | { lines: ('accepted' | 'rejected')[] };

export const decisionChoiceArb: fc.Arbitrary<DecisionChoice> = fc.oneof(
  fc.record({ whole: fc.array(fc.boolean(), { maxLength: 30 }) }),
  fc.record({
    lines: fc.array(fc.constantFrom('accepted' as const, 'rejected' as const), {
      minLength: 1,
      maxLength: 7,
    }),
  }),
);

function decisionsFor(hunks: readonly Hunk[], choice: DecisionChoice): HunkLineDecisions[] {
  return 'whole' in choice ? wholeHunkDecisions(hunks, choice.whole) : lineDecisionsFrom(hunks, choice.lines);
}

/** The text DiffTray hands back for `proposed` over `base` with the person's decisions. */
export function composedFor(base: string, proposed: string, choice: DecisionChoice): string {
  const hunks = computeHunks(base, proposed);
  return composeText(base, proposed, hunks, decisionsFor(hunks, choice));
}

/** How many cases a property really checked, so that it cannot pass vacuously. */
export class RewriteTally {
  /** Composed texts that differ from the base (an unchanged file is a deny, not a rewrite). */
  cases = 0;
  /** …that the rewrite wrote exactly. */
  rewritten = 0;
  /** …that kept some of the proposal and left some. */
  partial = 0;
  /** …whose base and composed text are plain (each of those must be rewritten). */
  plain = 0;

  count(base: string, proposed: string, composed: string, rewritten: boolean): void {
    this.cases++;
    if (rewritten) this.rewritten++;
    if (composed !== proposed) this.partial++;
    if (isPlainCase(base, composed)) this.plain++;
  }

  /** At least `share` of the cases rewritten, and enough partial and plain ones among them. */
  expectEnough(runs: number, share: number): void {
    expect(this.cases).toBeGreaterThan(runs / 3);
    expect(this.rewritten / this.cases).toBeGreaterThanOrEqual(share);
    expect(this.partial).toBeGreaterThan(runs / 6);
    expect(this.plain).toBeGreaterThan(runs / 8);
  }
}

/** A slice of `text` between two positions drawn as naturals. */
export function sliceOf(text: string, from: number, to: number): string {
  const a = from % (text.length + 1);
  const b = to % (text.length + 1);
  return text.slice(Math.min(a, b), Math.max(a, b));
}

/** `wanted` if it occurs once in `text` and is not empty, else the whole of `text` (unique by itself). */
export function uniqueOr(text: string, wanted: string): string {
  const first = text.indexOf(wanted);
  return wanted !== '' && first !== -1 && text.indexOf(wanted, first + 1) === -1 ? wanted : text;
}
