import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeHunks, computeHunksFromLines, splitLines } from '../../shared/hunks';
import { textLineIds } from '../../shared/line-ids';
import { pairArb } from '../support/hunk-generators';

/** What the ids must be: one per line of splitLines, equal exactly when the lines are. */
function expectIdsOf(base: string, proposed: string): void {
  const ids = textLineIds(base, proposed);
  const lines = [...splitLines(base), ...splitLines(proposed)];
  const all = [...ids.base, ...ids.proposed];
  expect(ids.base.length).toBe(splitLines(base).length);
  expect(ids.proposed.length).toBe(splitLines(proposed).length);
  expect(new Set(all).size).toBe(ids.idCount);
  expect(new Set(lines).size).toBe(ids.idCount);
  // One id per distinct line and one line per id: equal ids exactly for equal lines.
  const idOfLine = new Map<string, number>();
  const lineOfId = new Map<number, string>();
  lines.forEach((line, i) => {
    expect(idOfLine.get(line) ?? all[i]).toBe(all[i]);
    expect(lineOfId.get(all[i]!) ?? line).toBe(line);
    idOfLine.set(line, all[i]!);
    lineOfId.set(all[i]!, line);
  });
}

describe('textLineIds', () => {
  it('numbers the lines of splitLines, every terminator kind, equal ids for equal lines only', () => {
    expectIdsOf('', '');
    expectIdsOf('a', 'a\n');
    expectIdsOf('a\r\nb\rc\n', 'a\rb\r\nc');
    expectIdsOf('\r\r\n\n\r', '\n\r\r\n');
    expectIdsOf('\uFEFFa\n', 'a\n\uFEFFa\n');
  });

  it('holds for any pair of texts, however many lines share a slot of its table', () => {
    fc.assert(
      fc.property(pairArb, ({ base, proposed }) => expectIdsOf(base, proposed)),
      { numRuns: 500 },
    );
    // Lines too long to hash whole, equal or differing in one character the hash's sample may miss.
    const long = 'x'.repeat(20_000);
    const longer = `${long}\n${long.slice(0, 9_999)}y${long.slice(10_000)}\n${long}\r${long}`;
    expectIdsOf(longer, `${long}\r\n${long}\n${longer}`);
    // Hundreds of distinct lines that differ in one character: neighbours in the table, compared in full.
    const many = Array.from({ length: 600 }, (_, i) => `line ${i % 300}\n`).join('');
    expectIdsOf(many, many.replace('line 7\n', 'line 7 \n'));
  });
});

describe('computeHunks with shared ends set aside', () => {
  it('gives what the diff of the whole line arrays gives, whatever ends and terminators the texts share', () => {
    const raw = fc.string({ unit: fc.constantFrom('a', 'b', '\r', '\n', 'a\n', 'b\n') });
    fc.assert(
      fc.property(fc.oneof(pairArb, fc.record({ base: raw, proposed: raw })), ({ base, proposed }) => {
        expect(computeHunks(base, proposed)).toEqual(
          computeHunksFromLines(splitLines(base), splitLines(proposed)),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('an insertion that slides down into the shared end lands where the whole diff puts it', () => {
    // "b\n" inserted before the shared "b\nc\n": placed as low as possible, after the first "b".
    expect(computeHunks('a\nb\nc\n', 'a\nb\nb\nc\n')).toEqual([
      { index: 0, baseStart: 2, baseEnd: 2, proposedStart: 2, proposedEnd: 3 },
    ]);
    expect(computeHunks('x\na\n\r\nb\n', 'x\nA\n\r\nb\n')).toEqual([
      { index: 0, baseStart: 1, baseEnd: 2, proposedStart: 1, proposedEnd: 2 },
    ]);
  });
});
