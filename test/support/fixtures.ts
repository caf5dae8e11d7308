/** Texts the tests propose edits with. */

/** The given lines as a text: each ends with a newline. */
export const lines = (...items: string[]): string => items.join('\n') + '\n';

/** Nine numbers; the proposal changes lines 1, 5 and 9: three hunks. */
export const NUMBERS = {
  base: lines('one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'),
  proposed: lines('ONE', 'two', 'three', 'four', 'FIVE', 'six', 'seven', 'eight', 'NINE'),
  /** Hunks 1 and 3 accepted, hunk 2 rejected. */
  composed: lines('ONE', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'NINE'),
} as const;

/** The texts most end-to-end reviews propose: nine Greek letters, and three hunks. */
export const BASE = lines(...'alpha beta gamma delta epsilon zeta eta theta iota'.split(' '));
/** Three hunks: line 1 changed, line 5 changed, a line added after line 9. */
export const PROPOSED = lines(...'ALPHA beta gamma delta EPSILON zeta eta theta iota kappa'.split(' '));
/** Hunks 1 and 3 accepted, hunk 2 rejected. */
export const COMPOSED = lines(...'ALPHA beta gamma delta epsilon zeta eta theta iota kappa'.split(' '));

/** Deterministic large texts for benchmarks and big-file tests: `lineCount` lines with `changes` scattered edits. */
export function largeFilePair(lineCount: number, changes: number): { base: string; proposed: string } {
  const base: string[] = [];
  for (let i = 0; i < lineCount; i++)
    base.push(`  const value${i} = compute(${i}, "${(i * 7919) % 1000}");\n`);
  const proposed = [...base];
  const step = Math.floor(lineCount / changes);
  for (let c = 0; c < changes; c++) proposed[c * step + Math.floor(step / 2)] = `  const changed${c} = 0;\n`;
  return { base: base.join(''), proposed: proposed.join('') };
}
