import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { diffLines } from '../../shared/diff';
import { computeHunks, computeHunksFromLines, splitLines } from '../../shared/hunks';
import type { Hunk } from '../../shared/hunks';
import { composeText } from '../../shared/line-decisions';
import { pairArb, stripEol, textArb, wholeHunkDecisions } from '../support/hunk-generators';
import { changedBaseLines, expectWellFormed, lcsLength, spliceChosenHunks } from '../support/hunk-oracles';

const all = (hunks: readonly Hunk[], value: boolean): boolean[] => hunks.map(() => value);

/** The final text with whole hunks taken (`chosen[k]`) or left out. */
const composeChosen = (base: string, proposed: string, hunks: readonly Hunk[], chosen: readonly boolean[]) =>
  composeText(base, proposed, hunks, wholeHunkDecisions(hunks, chosen));

// ---------------------------------------------------------------------------------------------

describe('splitLines', () => {
  it('keeps every terminator kind and round-trips', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a')).toEqual(['a']);
    expect(splitLines('a\n')).toEqual(['a\n']);
    expect(splitLines('a\nb')).toEqual(['a\n', 'b']);
    expect(splitLines('a\r\nb\r\n')).toEqual(['a\r\n', 'b\r\n']);
    expect(splitLines('a\rb\r\nc\n')).toEqual(['a\r', 'b\r\n', 'c\n']);
    expect(splitLines('\r\r\n\n\r')).toEqual(['\r', '\r\n', '\n', '\r']);
    expect(splitLines('\n\n')).toEqual(['\n', '\n']);
  });

  it('keeps a BOM in the first line', () => {
    expect(splitLines('\uFEFF')).toEqual(['\uFEFF']);
    expect(splitLines('\uFEFFa\nb\n')).toEqual(['\uFEFFa\n', 'b\n']);
  });

  it('round-trips any text; only the last line may lack a terminator', () => {
    fc.assert(
      fc.property(
        fc.oneof(textArb, fc.string({ unit: fc.constantFrom('a', '\r', '\n', '\uFEFF', ' ') })),
        (t) => {
          const lines = splitLines(t);
          expect(lines.join('')).toBe(t);
          lines.forEach((line, i) => {
            expect(line.length).toBeGreaterThan(0);
            const body = stripEol(line);
            expect(body).not.toMatch(/[\r\n]/);
            if (i < lines.length - 1) expect(body).not.toBe(line);
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('computeHunks properties', () => {
  it('accept-all gives the proposal, reject-all gives the base', () => {
    fc.assert(
      fc.property(pairArb, ({ base, proposed }) => {
        const hunks = computeHunks(base, proposed);
        expect(composeChosen(base, proposed, hunks, all(hunks, true))).toBe(proposed);
        expect(composeChosen(base, proposed, hunks, all(hunks, false))).toBe(base);
        expect(composeChosen(base, proposed, hunks, [])).toBe(base);
      }),
      { numRuns: 1000 },
    );
  });

  it('hunks are well-formed: sorted, non-empty, separated by equal lines that really match', () => {
    fc.assert(
      fc.property(pairArb, ({ base, proposed }) => {
        expectWellFormed(base, proposed, computeHunks(base, proposed));
      }),
      { numRuns: 1000 },
    );
  });

  it('the diff is minimal: the equal lines form a longest common subsequence', () => {
    fc.assert(
      fc.property(pairArb, ({ base, proposed }) => {
        const bl = splitLines(base);
        const hunks = computeHunks(base, proposed);
        expect(bl.length - changedBaseLines(hunks)).toBe(lcsLength(bl, splitLines(proposed)));
      }),
      { numRuns: 1000 },
    );
  });

  it('any subset of accepted hunks gives exactly the text with just those hunks spliced in', () => {
    fc.assert(
      fc.property(pairArb, fc.array(fc.boolean(), { maxLength: 60 }), ({ base, proposed }, chosen) => {
        const hunks = computeHunks(base, proposed);
        const composed = composeChosen(base, proposed, hunks, chosen);
        expect(composed).toBe(spliceChosenHunks(base, proposed, hunks, chosen));

        // Re-diffing the result needs no more changed lines than the chosen hunks hold. (Not "the same
        // hunks": among repeated lines an equally cheap alignment can cut them differently.)
        const chosenHunks = hunks.filter((_, k) => chosen[k] === true);
        const rediff = computeHunks(base, composed);
        expect(changedBaseLines(rediff)).toBeLessThanOrEqual(changedBaseLines(chosenHunks));
        expect(composeChosen(base, composed, rediff, all(rediff, true))).toBe(composed);
      }),
      { numRuns: 1000 },
    );
  });

  it('identical texts have no hunks, and the result is deterministic', () => {
    fc.assert(
      fc.property(pairArb, ({ base, proposed }) => {
        expect(computeHunks(base, base)).toEqual([]);
        expect(computeHunks(base, proposed)).toEqual(computeHunks(base, proposed));
        expect(computeHunksFromLines(splitLines(base), splitLines(proposed))).toEqual(
          computeHunks(base, proposed),
        );
        // A hunk is the diff's change run and its position, nothing more.
        expect(diffLines(splitLines(base), splitLines(proposed))).toEqual(
          computeHunks(base, proposed).map(({ index: _index, ...change }) => change),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('computeHunks edge cases', () => {
  const h = (
    baseStart: number,
    baseEnd: number,
    proposedStart: number,
    proposedEnd: number,
    index = 0,
  ): Hunk => ({
    index,
    baseStart,
    baseEnd,
    proposedStart,
    proposedEnd,
  });

  function roundTrip(base: string, proposed: string): Hunk[] {
    const hunks = computeHunks(base, proposed);
    expect(composeChosen(base, proposed, hunks, all(hunks, true))).toBe(proposed);
    expect(composeChosen(base, proposed, hunks, all(hunks, false))).toBe(base);
    expectWellFormed(base, proposed, hunks);
    return hunks;
  }

  it('both empty', () => {
    expect(roundTrip('', '')).toEqual([]);
    expect(composeChosen('', '', [], [])).toBe('');
  });

  it('new file (base empty)', () => {
    expect(roundTrip('', 'a\nb\n')).toEqual([h(0, 0, 0, 2)]);
  });

  it('file emptied (proposal empty)', () => {
    expect(roundTrip('a\nb\n', '')).toEqual([h(0, 2, 0, 0)]);
  });

  it('deleted content only', () => {
    expect(roundTrip('a\nb\nc\nd\n', 'a\nd\n')).toEqual([h(1, 3, 1, 1)]);
  });

  it('insertion at start and at end', () => {
    expect(roundTrip('b\nc\n', 'a\nb\nc\n')).toEqual([h(0, 0, 0, 1)]);
    expect(roundTrip('b\nc\n', 'b\nc\nd\n')).toEqual([h(2, 2, 2, 3)]);
    const both = roundTrip('b\nc\n', 'a\nb\nc\nd\n');
    expect(both).toEqual([h(0, 0, 0, 1, 0), h(2, 2, 3, 4, 1)]);
    expect(composeChosen('b\nc\n', 'a\nb\nc\nd\n', both, [false, true])).toBe('b\nc\nd\n');
  });

  it('a removal next to an addition is one hunk; one equal line separates hunks', () => {
    expect(roundTrip('a\nb\nc\n', 'a\nB\nX\nc\n')).toEqual([h(1, 2, 1, 3)]);
    // Deleting one line and changing the next: still adjacent, still one hunk.
    expect(roundTrip('a\nb\nc\nd\n', 'a\nC\nd\n')).toEqual([h(1, 3, 1, 2)]);
    expect(roundTrip('a\nb\nc\nd\ne\n', 'a\nB\nc\nD\ne\n')).toEqual([h(1, 2, 1, 2, 0), h(3, 4, 3, 4, 1)]);
  });

  it('whitespace-only changes are hunks', () => {
    expect(roundTrip('a\nb\n', 'a \nb\n')).toEqual([h(0, 1, 0, 1)]);
    expect(roundTrip('x\n\tb\n', 'x\n  b\n')).toEqual([h(1, 2, 1, 2)]);
    expect(roundTrip('a\n\nb\n', 'a\nb\n')).toEqual([h(1, 2, 1, 1)]);
  });

  it('CRLF is preserved in untouched lines and an EOL change is a hunk', () => {
    const base = 'a\r\nb\r\nc\r\n';
    const proposed = 'a\r\nB\r\nc\r\n';
    const hunks = roundTrip(base, proposed);
    expect(hunks).toEqual([h(1, 2, 1, 2)]);
    expect(roundTrip(base, 'a\r\nb\nc\r\n')).toEqual([h(1, 2, 1, 2)]);
    expect(roundTrip(base, 'a\nb\nc\n')).toEqual([h(0, 3, 0, 3)]);
  });

  it('a missing final newline is preserved, and adding one is a hunk', () => {
    const hunks = roundTrip('a\nb', 'a\nc');
    expect(hunks).toEqual([h(1, 2, 1, 2)]);
    expect(roundTrip('a\nb', 'x\na\nb')).toEqual([h(0, 0, 0, 1)]);
    expect(composeChosen('a\nb', 'x\na\nb', computeHunks('a\nb', 'x\na\nb'), [true])).toBe('x\na\nb');
    expect(roundTrip('a\nb', 'a\nb\n')).toEqual([h(1, 2, 1, 2)]);
    expect(roundTrip('a\nb\n', 'a\nb')).toEqual([h(1, 2, 1, 2)]);
  });

  it('a BOM is preserved, and removing it is a hunk', () => {
    const base = '\uFEFFa\nb\nc\n';
    const hunks = roundTrip(base, '\uFEFFa\nb\nC\n');
    expect(hunks).toEqual([h(2, 3, 2, 3)]);
    expect(composeChosen(base, '\uFEFFa\nb\nC\n', hunks, [true]).startsWith('\uFEFF')).toBe(true);
    expect(roundTrip(base, 'a\nb\nc\n')).toEqual([h(0, 1, 0, 1)]);
  });

  it('a lone CR is a line terminator of its own', () => {
    expect(roundTrip('a\rb\rc\r', 'a\rB\rc\r')).toEqual([h(1, 2, 1, 2)]);
    expect(roundTrip('a\rb\r', 'a\r\nb\r')).toEqual([h(0, 1, 0, 1)]);
  });

  it('places an ambiguous insertion or deletion as low as possible', () => {
    expect(roundTrip('a\nb\n', 'a\na\nb\n')).toEqual([h(1, 1, 1, 2)]);
    expect(roundTrip('a\na\nb\n', 'a\nb\n')).toEqual([h(1, 2, 1, 1)]);
    expect(roundTrip('a\nb\nb\nb\nc\n', 'a\nb\nb\nc\n')).toEqual([h(3, 4, 3, 3)]);
    // That it never slides into contact with the next hunk is covered by the well-formedness property.
  });
});

describe('computeHunks on large files (sanity, not a timing assertion)', () => {
  it('finds 500 hunks in a 20,000-line file with 500 changed places', () => {
    const baseLines = Array.from(
      { length: 20_000 },
      (_, i) => `const v${i} = compute(${(i * 7919) % 1000});\n`,
    );
    const proposedLines = baseLines.slice();
    // Back to front so earlier positions stay put: replacements, insertions and deletions, 40 lines apart.
    for (let c = 499; c >= 0; c--) {
      const at = c * 40 + 5;
      if (c % 3 === 0) proposedLines[at] = `const v${at} = changed(${c});\n`;
      else if (c % 3 === 1) proposedLines.splice(at, 0, `// inserted ${c}\n`, `log(${c});\n`);
      else proposedLines.splice(at, 2);
    }
    const base = baseLines.join('');
    const proposed = proposedLines.join('');

    const started = performance.now();
    const hunks = computeHunks(base, proposed);
    const elapsed = performance.now() - started;
    console.info(`computeHunks 20k lines / 500 changes: ${elapsed.toFixed(1)} ms`);

    expect(hunks).toHaveLength(500);
    expect(composeChosen(base, proposed, hunks, all(hunks, true))).toBe(proposed);
    expect(composeChosen(base, proposed, hunks, all(hunks, false))).toBe(base);
  });

  it('handles a wholesale rewrite and a shuffle of few distinct lines', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `old ${i}\n`).join('');
    const b = Array.from({ length: 20_000 }, (_, i) => `new ${i}\n`).join('');
    expect(computeHunks(a, b)).toEqual([
      { index: 0, baseStart: 0, baseEnd: 20_000, proposedStart: 0, proposedEnd: 20_000 },
    ]);

    // mulberry32: a seeded generator whose low bits are not periodic (an LCG's are).
    let seed = 42;
    const rand = (): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % 4;
    };
    const x = Array.from({ length: 10_000 }, () => `${'abcd'[rand()]}\n`).join('');
    const y = Array.from({ length: 10_000 }, () => `${'abcd'[rand()]}\n`).join('');
    const hunks = computeHunks(x, y);
    expectWellFormed(x, y, hunks);
    expect(composeChosen(x, y, hunks, all(hunks, true))).toBe(y);
    expect(composeChosen(x, y, hunks, all(hunks, false))).toBe(x);
  });
});
