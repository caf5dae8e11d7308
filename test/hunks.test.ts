import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  composeLines,
  composeText,
  computeHunks,
  computeHunksFromLines,
  hunkStats,
  remapDecisions,
  splitLines,
} from '../shared/hunks';
import type { Hunk, HunkDecision } from '../shared/hunks';

// ---------------------------------------------------------------------------------------------
// Generators: a tiny line alphabet so that random texts share many lines and diffs have many hunks.

const contentArb = fc.constantFrom('a', 'b', 'c', '', ' ', 'a ', '\t}', 'x');
const eolArb = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
const lineArb = fc.tuple(contentArb, eolArb).map(([c, e]) => c + e);

const textArb = fc
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

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constantFrom('ins' as const, 'rep' as const), pos: fc.nat(), line: lineArb }),
  fc.record({ kind: fc.constant('del' as const), pos: fc.nat() }),
  fc.record({ kind: fc.constant('eol' as const), pos: fc.nat(), eol: eolArb }),
  fc.record({ kind: fc.constantFrom('bom' as const, 'dropFinalEol' as const), pos: fc.nat() }),
);

const stripEol = (line: string): string => line.replace(/(\r\n|\r|\n)$/, '');

/** Derives a proposal from a text by line edits, so that base and proposal stay mostly alike. */
function applyEdits(text: string, edits: readonly Edit[]): string {
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

const pairArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(textArb, fc.array(editArb, { maxLength: 12 }))
      .map(([base, edits]) => ({ base, proposed: applyEdits(base, edits) })),
  },
  { weight: 1, arbitrary: fc.record({ base: textArb, proposed: textArb }) },
);

// ---------------------------------------------------------------------------------------------
// Independent references.

/** Splices the chosen hunks into the base, last first so earlier indices stay valid. */
function spliceReference(base: string, proposed: string, hunks: readonly Hunk[], chosen: readonly boolean[]) {
  const out = splitLines(base);
  const pl = splitLines(proposed);
  for (let k = hunks.length - 1; k >= 0; k--) {
    const h = hunks[k]!;
    if (chosen[k] === true) {
      out.splice(h.baseStart, h.baseEnd - h.baseStart, ...pl.slice(h.proposedStart, h.proposedEnd));
    }
  }
  return out.join('');
}

function lcsLength(a: readonly string[], b: readonly string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Sorted, in range, non-empty, separated by ≥1 line, and the lines between hunks really are equal. */
function expectWellFormed(base: string, proposed: string, hunks: readonly Hunk[]): void {
  const bl = splitLines(base);
  const pl = splitLines(proposed);
  let baseCursor = 0;
  let proposedCursor = 0;
  hunks.forEach((h, k) => {
    expect(h.index).toBe(k);
    expect(h.baseEnd - h.baseStart + (h.proposedEnd - h.proposedStart)).toBeGreaterThan(0);
    expect(h.baseStart).toBeLessThanOrEqual(h.baseEnd);
    expect(h.proposedStart).toBeLessThanOrEqual(h.proposedEnd);
    const gap = h.baseStart - baseCursor;
    expect(h.proposedStart - proposedCursor).toBe(gap);
    if (k > 0) expect(gap).toBeGreaterThanOrEqual(1);
    expect(bl.slice(baseCursor, h.baseStart)).toEqual(pl.slice(proposedCursor, h.proposedStart));
    baseCursor = h.baseEnd;
    proposedCursor = h.proposedEnd;
  });
  expect(bl.length - baseCursor).toBe(pl.length - proposedCursor);
  expect(bl.slice(baseCursor)).toEqual(pl.slice(proposedCursor));
}

const changedBaseLines = (hunks: readonly Hunk[]): number =>
  hunks.reduce((sum, h) => sum + h.baseEnd - h.baseStart, 0);

const all = (hunks: readonly Hunk[], value: boolean): boolean[] => hunks.map(() => value);

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

describe('computeHunks / composeText properties', () => {
  it('accept-all gives the proposal, reject-all gives the base', () => {
    fc.assert(
      fc.property(pairArb, ({ base, proposed }) => {
        const hunks = computeHunks(base, proposed);
        expect(composeText(base, proposed, hunks, all(hunks, true))).toBe(proposed);
        expect(composeText(base, proposed, hunks, all(hunks, false))).toBe(base);
        expect(composeText(base, proposed, hunks, [])).toBe(base);
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
        const composed = composeText(base, proposed, hunks, chosen);
        expect(composed).toBe(spliceReference(base, proposed, hunks, chosen));
        expect(composeLines(splitLines(base), splitLines(proposed), hunks, chosen)).toBe(composed);

        // Re-diffing the result needs no more changed lines than the chosen hunks hold. (Not "the same
        // hunks": among repeated lines an equally cheap alignment can cut them differently.)
        const chosenHunks = hunks.filter((_, k) => chosen[k] === true);
        const rediff = computeHunks(base, composed);
        expect(changedBaseLines(rediff)).toBeLessThanOrEqual(changedBaseLines(chosenHunks));
        expect(composeText(base, composed, rediff, all(rediff, true))).toBe(composed);
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
    expect(composeText(base, proposed, hunks, all(hunks, true))).toBe(proposed);
    expect(composeText(base, proposed, hunks, all(hunks, false))).toBe(base);
    expectWellFormed(base, proposed, hunks);
    return hunks;
  }

  it('both empty', () => {
    expect(roundTrip('', '')).toEqual([]);
    expect(composeText('', '', [], [])).toBe('');
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
    expect(composeText('b\nc\n', 'a\nb\nc\nd\n', both, [false, true])).toBe('b\nc\nd\n');
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
    expect(composeText('a\nb', 'x\na\nb', computeHunks('a\nb', 'x\na\nb'), [true])).toBe('x\na\nb');
    expect(roundTrip('a\nb', 'a\nb\n')).toEqual([h(1, 2, 1, 2)]);
    expect(roundTrip('a\nb\n', 'a\nb')).toEqual([h(1, 2, 1, 2)]);
  });

  it('a BOM is preserved, and removing it is a hunk', () => {
    const base = '\uFEFFa\nb\nc\n';
    const hunks = roundTrip(base, '\uFEFFa\nb\nC\n');
    expect(hunks).toEqual([h(2, 3, 2, 3)]);
    expect(composeText(base, '\uFEFFa\nb\nC\n', hunks, [true]).startsWith('\uFEFF')).toBe(true);
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

  it('rejects hunks that do not fit the texts', () => {
    expect(() => composeText('a\n', 'b\n', [h(0, 2, 0, 1)], [true])).toThrow(RangeError);
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

  it('an edit inside one hunk keeps the other hunks’ decisions', () => {
    let proposed = base;
    for (const at of [3, 10, 17, 25]) proposed = change(proposed, at, `new ${at}\n`);
    const hunks = computeHunks(base, proposed);
    expect(hunks).toHaveLength(4);
    const decisions: HunkDecision[] = ['accepted', 'rejected', 'pending', 'rejected'];

    const edited = change(proposed, 17, 'new 17, edited by hand\n');
    const newHunks = computeHunks(base, edited);
    expect(newHunks).toHaveLength(4);
    expect(remapDecisions(proposed, hunks, decisions, edited, newHunks)).toEqual([
      'accepted',
      'rejected',
      'accepted',
      'rejected',
    ]);
  });

  it('a hunk the person created, or merged, is accepted', () => {
    let proposed = change(base, 3, 'new 3\n');
    proposed = change(proposed, 5, 'new 5\n');
    const hunks = computeHunks(base, proposed);
    const decisions: HunkDecision[] = ['rejected', 'pending'];

    const added = change(proposed, 20, 'typed\n');
    const addedHunks = computeHunks(base, added);
    expect(remapDecisions(proposed, hunks, decisions, added, addedHunks)).toEqual([
      'rejected',
      'pending',
      'accepted',
    ]);

    const merged = change(proposed, 4, 'bridge\n');
    const mergedHunks = computeHunks(base, merged);
    expect(mergedHunks).toHaveLength(1);
    expect(remapDecisions(proposed, hunks, decisions, merged, mergedHunks)).toEqual(['accepted']);
  });

  it('reverting a hunk to the base makes it disappear without disturbing the rest', () => {
    let proposed = change(base, 3, 'new 3\n');
    proposed = change(proposed, 9, 'new 9\n');
    const hunks = computeHunks(base, proposed);
    const reverted = change(proposed, 3, 'line 3\n');
    const newHunks = computeHunks(base, reverted);
    expect(remapDecisions(proposed, hunks, ['accepted', 'rejected'], reverted, newHunks)).toEqual([
      'rejected',
    ]);
  });

  const decisionArb = fc.constantFrom<HunkDecision>('pending', 'accepted', 'rejected');

  it('is the identity when nothing changed', () => {
    fc.assert(
      fc.property(
        pairArb,
        fc.array(decisionArb, { minLength: 60, maxLength: 60 }),
        ({ base, proposed }, d) => {
          const hunks = computeHunks(base, proposed);
          const decisions = d.slice(0, hunks.length);
          expect(remapDecisions(proposed, hunks, decisions, proposed, hunks)).toEqual(decisions);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a decision exactly when the same change is still there, else accepts', () => {
    fc.assert(
      fc.property(
        pairArb,
        fc.array(editArb, { maxLength: 4 }),
        fc.array(decisionArb, { minLength: 60, maxLength: 60 }),
        ({ base, proposed }, edits, d) => {
          const hunks = computeHunks(base, proposed);
          const decisions = d.slice(0, hunks.length);
          const edited = applyEdits(proposed, edits);
          const newHunks = computeHunks(base, edited);
          const remapped = remapDecisions(proposed, hunks, decisions, edited, newHunks);

          const pl = splitLines(proposed);
          const el = splitLines(edited);
          const expected = newHunks.map((nh) => {
            const k = hunks.findIndex(
              (oh) =>
                oh.baseStart === nh.baseStart &&
                oh.baseEnd === nh.baseEnd &&
                pl.slice(oh.proposedStart, oh.proposedEnd).join('') ===
                  el.slice(nh.proposedStart, nh.proposedEnd).join(''),
            );
            return k >= 0 ? decisions[k]! : 'accepted';
          });
          expect(remapped).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('hunkStats', () => {
  it('counts decisions, a missing one as pending', () => {
    const hunks = computeHunks('a\nb\nc\nd\ne\nf\ng\n', 'A\nb\nC\nd\nE\nf\nG\n');
    expect(hunks).toHaveLength(4);
    expect(hunkStats(hunks, ['accepted', 'rejected', 'accepted'])).toEqual({
      accepted: 2,
      rejected: 1,
      pending: 1,
    });
    expect(hunkStats([], [])).toEqual({ accepted: 0, rejected: 0, pending: 0 });
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
    expect(composeText(base, proposed, hunks, all(hunks, true))).toBe(proposed);
    expect(composeText(base, proposed, hunks, all(hunks, false))).toBe(base);
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
    expect(composeText(x, y, hunks, all(hunks, true))).toBe(y);
    expect(composeText(x, y, hunks, all(hunks, false))).toBe(x);
  });
});
