import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { computeHunks, splitLines } from '../../shared/hunks';
import type { Hunk } from '../../shared/hunks';
import {
  CONFLICT_END,
  CONFLICT_SEPARATOR,
  CONFLICT_START,
  countConflicts,
  merge3,
} from '../../shared/merge3';
import { spliceLines } from '../support/hunk-oracles';

// ---------------------------------------------------------------------------------------------
// Generators: few distinct lines, so that the two sides' changes collide often.

const contentArb = fc.constantFrom('a', 'b', 'c', '');
const eolArb = fc.constantFrom('\n', '\n', '\r\n');
const lineArb = fc.tuple(contentArb, eolArb).map(([c, e]) => c + e);
// Optional last line without terminator.
const tailArb = fc.option(fc.constantFrom('a', 'z'), { nil: undefined });

const textArb = fc
  .tuple(fc.array(lineArb, { maxLength: 20 }), tailArb)
  .map(([lines, tail]) => lines.join('') + (tail ?? ''));

type Edit = { kind: 'ins' | 'rep' | 'del'; pos: number; line: string } | { kind: 'tail'; tail?: string };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('ins' as const, 'rep' as const, 'del' as const),
    pos: fc.nat(),
    line: lineArb,
  }),
  fc.record({ kind: fc.constant('tail' as const), tail: tailArb }),
);

/** A side derived from the base by a few line edits, so that most of it still matches the base. */
function applyEdits(text: string, edits: readonly Edit[]): string {
  const lines = splitLines(text);
  for (const e of edits) {
    if (e.kind === 'tail') {
      // Drops the final newline (or, with a tail, appends an unterminated last line).
      const last = lines.pop() ?? '';
      lines.push(last.replace(/(\r\n|\n)$/, '') + (e.tail === undefined ? '' : '\n' + e.tail));
      continue;
    }
    const at = e.pos % (lines.length + 1);
    if (e.kind === 'ins') lines.splice(at, 0, e.line);
    else if (at < lines.length) lines.splice(at, 1, ...(e.kind === 'rep' ? [e.line] : []));
  }
  return lines.join('');
}

const sideArb = (base: string, maxEdits: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.array(editArb, { maxLength: maxEdits }).map((e) => applyEdits(base, e)) },
    { weight: 1, arbitrary: textArb }, // an unrelated rewrite
  );

const tripleArb = (maxEdits: number) =>
  textArb.chain((base) =>
    fc.record({ base: fc.constant(base), disk: sideArb(base, maxEdits), proposed: sideArb(base, maxEdits) }),
  );

// ---------------------------------------------------------------------------------------------
// Independent reference for the conflict-free case.

const touches = (x: Hunk, y: Hunk): boolean => x.baseStart <= y.baseEnd && y.baseStart <= x.baseEnd;

/** Splices every hunk of both sides into the base. */
function spliceBoth(base: string, disk: string, proposed: string): string {
  const splices = [disk, proposed].flatMap((side) => {
    const lines = splitLines(side);
    return computeHunks(base, side).map((h) => ({
      ...h,
      lines: lines.slice(h.proposedStart, h.proposedEnd),
    }));
  });
  return spliceLines(base, splices);
}

/** Builds the expected conflict block, markers on their own lines. */
const block = (disk: string, proposed: string, eol = '\n'): string =>
  `${CONFLICT_START}${eol}${disk}${CONFLICT_SEPARATOR}${eol}${proposed}${CONFLICT_END}${eol}`;

// ---------------------------------------------------------------------------------------------

describe('merge3 properties', () => {
  it('takes the proposal when disk did not change', () => {
    fc.assert(
      fc.property(tripleArb(6), ({ base, proposed }) => {
        expect(merge3(base, base, proposed)).toEqual({ text: proposed, conflicts: 0 });
      }),
    );
  });

  it('keeps disk when the proposal changes nothing', () => {
    fc.assert(
      fc.property(tripleArb(6), ({ base, disk }) => {
        expect(merge3(base, disk, base)).toEqual({ text: disk, conflicts: 0 });
      }),
    );
  });

  it('takes an identical change on both sides once', () => {
    fc.assert(
      fc.property(tripleArb(6), ({ base, disk }) => {
        expect(merge3(base, disk, disk)).toEqual({ text: disk, conflicts: 0 });
      }),
    );
  });

  it('keeps both sides’ changes when they do not touch', () => {
    // Few edits on a longer base, so that a fair share of cases stays clear of each other.
    const arb = fc
      .tuple(fc.array(lineArb, { minLength: 8, maxLength: 30 }), tailArb)
      .map(([lines, tail]) => lines.join('') + (tail ?? ''))
      .chain((base) =>
        fc.record({
          base: fc.constant(base),
          disk: fc.array(editArb, { minLength: 1, maxLength: 3 }).map((e) => applyEdits(base, e)),
          proposed: fc.array(editArb, { minLength: 1, maxLength: 3 }).map((e) => applyEdits(base, e)),
        }),
      );
    fc.assert(
      fc.property(arb, ({ base, disk, proposed }) => {
        const dh = computeHunks(base, disk);
        const ph = computeHunks(base, proposed);
        fc.pre(!dh.some((d) => ph.some((p) => touches(d, p))));
        expect(merge3(base, disk, proposed)).toEqual({
          text: spliceBoth(base, disk, proposed),
          conflicts: 0,
        });
      }),
      { numRuns: 300 },
    );
  });

  it('reports exactly the conflict blocks it wrote', () => {
    fc.assert(
      fc.property(tripleArb(10), ({ base, disk, proposed }) => {
        const result = merge3(base, disk, proposed);
        expect(countConflicts(result.text)).toBe(result.conflicts);
      }),
      { numRuns: 500 },
    );
  });
});

describe('merge3 cases', () => {
  it('conflicts when both sides fill an empty base differently', () => {
    expect(merge3('', 'a\n', 'b\n')).toEqual({ text: block('a\n', 'b\n'), conflicts: 1 });
    // Only one side adds: no conflict.
    expect(merge3('', '', 'b\n')).toEqual({ text: 'b\n', conflicts: 0 });
  });

  it('takes a deletion made on both sides once, next to a change of one side', () => {
    expect(merge3('a\nb\nc\n', 'a\nc\n', 'a\nc\nd\n')).toEqual({ text: 'a\nc\nd\n', conflicts: 0 });
  });

  it('conflicts when one side deletes a line the other edits', () => {
    expect(merge3('a\nb\nc\n', 'a\nc\n', 'a\nB\nc\n')).toEqual({
      text: 'a\n' + block('', 'B\n') + 'c\n',
      conflicts: 1,
    });
  });

  it('conflicts on edits to adjacent lines, but not with one line between them', () => {
    // Touching regions form one group, so each side shows the whole group (as git does).
    expect(merge3('a\nb\nc\nd\n', 'a\nB\nc\nd\n', 'a\nb\nC\nd\n')).toEqual({
      text: 'a\n' + block('B\nc\n', 'b\nC\n') + 'd\n',
      conflicts: 1,
    });
    expect(merge3('a\nb\nc\nd\n', 'a\nB\nc\nd\n', 'a\nb\nc\nD\n')).toEqual({
      text: 'a\nB\nc\nD\n',
      conflicts: 0,
    });
  });

  it('grows a group while changes keep overlapping, on either side', () => {
    // A disk edit nested inside a wider proposed rewrite: the group spans the whole rewrite.
    expect(merge3('a\nb\nc\nd\ne\n', 'a\nb\nX\nd\ne\n', 'a\nP\nQ\nR\ne\n')).toEqual({
      text: 'a\n' + block('b\nX\nd\n', 'P\nQ\nR\n') + 'e\n',
      conflicts: 1,
    });
    // And the mirror image: a proposed edit nested inside a wider disk rewrite.
    expect(merge3('a\nb\nc\nd\ne\n', 'a\nP\nQ\nR\ne\n', 'a\nb\nX\nd\ne\n')).toEqual({
      text: 'a\n' + block('P\nQ\nR\n', 'b\nX\nd\n') + 'e\n',
      conflicts: 1,
    });
    // disk b, proposed c, disk d: each touches the next, so they chain into one group.
    expect(merge3('a\nb\nc\nd\ne\n', 'a\nB\nc\nD\ne\n', 'a\nb\nC\nd\ne\n')).toEqual({
      text: 'a\n' + block('B\nc\nD\n', 'b\nC\nd\n') + 'e\n',
      conflicts: 1,
    });
  });

  it('merges and conflicts at the start and end of the file', () => {
    expect(merge3('a\nb\nc\n', 'A\nb\nc\n', 'a\nb\nC\n')).toEqual({ text: 'A\nb\nC\n', conflicts: 0 });
    expect(merge3('a\nb\nc\n', 'X\nb\nY\n', 'P\nb\nQ\n')).toEqual({
      text: block('X\n', 'P\n') + 'b\n' + block('Y\n', 'Q\n'),
      conflicts: 2,
    });
  });

  it('handles a missing final newline on one side', () => {
    expect(merge3('a\nb\nc\n', 'a\nb\nc', 'A\nb\nc\n')).toEqual({ text: 'A\nb\nc', conflicts: 0 });
    // The marker after an unterminated last line still starts its own line.
    const conflicted = merge3('a\nb\n', 'a\nx', 'a\ny\n');
    expect(conflicted).toEqual({ text: 'a\n' + block('x\n', 'y\n'), conflicts: 1 });
    expect(countConflicts(conflicted.text)).toBe(1);
  });

  it('writes CRLF markers into CRLF files', () => {
    expect(merge3('a\r\nb\r\n', 'a\r\nX\r\n', 'a\r\nY')).toEqual({
      text: 'a\r\n' + block('X\r\n', 'Y\r\n', '\r\n'),
      conflicts: 1,
    });
  });
});

describe('countConflicts', () => {
  it('counts only complete blocks with markers in order', () => {
    expect(countConflicts(block('a\n', 'b\n') + 'c\n' + block('', ''))).toBe(2);
    expect(countConflicts(block('a\r\n', 'b\r\n', '\r\n'))).toBe(1);
    expect(countConflicts(`${CONFLICT_START}\na\n${CONFLICT_SEPARATOR}\nb\n`)).toBe(0);
    expect(countConflicts(`${CONFLICT_SEPARATOR}\n${CONFLICT_START}\n${CONFLICT_END}\n`)).toBe(0);
    // Markers must be whole lines; the final one may lack a terminator.
    expect(countConflicts(`x${CONFLICT_START}\n${CONFLICT_SEPARATOR}\n${CONFLICT_END}\n`)).toBe(0);
    expect(countConflicts(`${CONFLICT_START}\n${CONFLICT_SEPARATOR}\n${CONFLICT_END}`)).toBe(1);
  });
});
