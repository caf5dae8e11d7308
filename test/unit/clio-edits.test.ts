/** Clio's range edits applied to a text: LSP positions, strict bounds, overlaps, oldText checks. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyRangeEdits, lineTable, RangeEditError, type RangeEdit } from '../../src-main/bridge/clio/edits';
import { messageOf } from '../../shared/error-message';

const at = (line: number, character: number) => ({ line, character });
const edit = (
  start: [number, number],
  end: [number, number],
  newText: string,
  oldText?: string,
): RangeEdit => ({
  range: { start: at(...start), end: at(...end) },
  newText,
  ...(oldText !== undefined && { oldText }),
});

const PY = 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return a - b\n';

function refused(text: string, edits: RangeEdit[]): string {
  try {
    applyRangeEdits(text, edits);
  } catch (error) {
    expect(error).toBeInstanceOf(RangeEditError);
    return messageOf(error);
  }
  throw new Error('expected a RangeEditError');
}

describe('lineTable', () => {
  it('splits on \\n, \\r\\n and \\r, with an empty last line after a final terminator', () => {
    expect(lineTable('a\nbc\r\nd\re')).toEqual({ starts: [0, 2, 6, 8], ends: [1, 4, 7, 9] });
    expect(lineTable('a\n')).toEqual({ starts: [0, 2], ends: [1, 2] });
    expect(lineTable('')).toEqual({ starts: [0], ends: [0] });
  });
});

describe('applyRangeEdits', () => {
  it('replaces text within one line (the seed example)', () => {
    expect(applyRangeEdits(PY, [edit([1, 11], [1, 16], 'a + b', 'a * b')])).toBe(
      PY.replace('a * b', 'a + b'),
    );
  });

  it('applies several edits given in any order: multi-line replace, line insert, in-line change', () => {
    const edits = [
      // Replace the whole body of sub() (two lines) with one line.
      edit([3, 0], [4, 16], 'def sub(a, b): return a - b', 'def sub(a, b):\n    return a - b'),
      // Insert a line before line 0.
      edit([0, 0], [0, 0], 'import math\n'),
      // Change an operator.
      edit([1, 13], [1, 14], '+', '*'),
    ];
    expect(applyRangeEdits(PY, edits)).toBe(
      'import math\ndef add(a, b):\n    return a + b\n\ndef sub(a, b): return a - b\n',
    );
  });

  it('deletes whole lines, and appends at the end of the file', () => {
    expect(applyRangeEdits('a\nb\nc\n', [edit([1, 0], [2, 0], '')])).toBe('a\nc\n');
    expect(applyRangeEdits('a\nb\n', [edit([2, 0], [2, 0], 'c\n')])).toBe('a\nb\nc\n');
    expect(applyRangeEdits('a\nb', [edit([1, 1], [1, 1], '\n')])).toBe('a\nb\n');
  });

  it('works on an empty file', () => {
    expect(applyRangeEdits('', [edit([0, 0], [0, 0], 'hello\n')])).toBe('hello\n');
  });

  it('keeps \\r\\n line endings; a line ends before its terminator', () => {
    const text = 'one\r\ntwo\r\nthree\r\n';
    expect(applyRangeEdits(text, [edit([1, 0], [1, 3], 'TWO', 'two')])).toBe('one\r\nTWO\r\nthree\r\n');
    expect(refused(text, [edit([1, 4], [1, 4], 'x')])).toMatch(
      /character 4 is past the end of line 1 \(length 3\)/,
    );
    // Old Mac line endings count as line breaks too.
    expect(applyRangeEdits('a\rb', [edit([1, 0], [1, 1], 'B')])).toBe('a\rB');
  });

  it('counts characters in UTF-16 code units, as LSP does', () => {
    const text = 'x = "😀é"\ny\n';
    // 😀 is two code units: the closing quote is at character 8.
    expect(applyRangeEdits(text, [edit([0, 8], [0, 9], "'", '"')])).toBe('x = "😀é\'\ny\n');
    expect(applyRangeEdits(text, [edit([0, 5], [0, 7], ':)', '😀')])).toBe('x = ":)é"\ny\n');
  });

  it('refuses a position inside a surrogate pair', () => {
    expect(refused('😀\n', [edit([0, 1], [0, 2], '')])).toMatch(
      /edits\[0\]: start 0:1 splits a surrogate pair/,
    );
  });

  it('keeps insertions at one point in array order, before a replacement starting there', () => {
    expect(
      applyRangeEdits('abc', [
        edit([0, 1], [0, 2], 'B'),
        edit([0, 1], [0, 1], '1'),
        edit([0, 1], [0, 1], '2'),
      ]),
    ).toBe('a12Bc');
  });

  it('allows edits that touch without overlapping', () => {
    expect(applyRangeEdits('abcdef', [edit([0, 3], [0, 6], 'DEF'), edit([0, 0], [0, 3], 'ABC')])).toBe(
      'ABCDEF',
    );
  });

  it('refuses overlapping edits, naming both', () => {
    expect(refused('abcdef', [edit([0, 0], [0, 3], 'x'), edit([0, 2], [0, 4], 'y')])).toBe(
      'edits[0] and edits[1] overlap',
    );
    expect(refused('abcdef', [edit([0, 4], [0, 4], 'x'), edit([0, 1], [0, 5], 'y')])).toBe(
      'edits[0] and edits[1] overlap',
    );
    expect(refused('abc', [edit([0, 0], [0, 2], 'x'), edit([0, 0], [0, 2], 'y')])).toBe(
      'edits[0] and edits[1] overlap',
    );
  });

  it('refuses positions past the end of the file or of a line, and reversed ranges', () => {
    expect(refused('a\nb\n', [edit([3, 0], [3, 0], 'x')])).toBe(
      'edits[0]: start line 3 is past the end of the file (lines 0–2)',
    );
    expect(refused('a\nb\n', [edit([0, 0], [9, 0], 'x')])).toMatch(/edits\[0\]: end line 9/);
    expect(refused('ab\n', [edit([0, 3], [0, 3], 'x')])).toBe(
      'edits[0]: start character 3 is past the end of line 0 (length 2)',
    );
    expect(refused('ab\ncd', [edit([1, 1], [0, 1], 'x')])).toBe('edits[0]: the range ends before it starts');
  });

  it('checks oldText when given, and says what it found', () => {
    expect(refused(PY, [edit([1, 11], [1, 16], 'a + b', 'a ** b')])).toBe(
      'edits[0]: oldText does not match the file: expected "a ** b", found "a * b"',
    );
    // An empty oldText asserts an empty range.
    expect(applyRangeEdits('ab', [edit([0, 1], [0, 1], 'X', '')])).toBe('aXb');
  });

  it('applies nothing when one edit is refused (the text is returned whole or not at all)', () => {
    const message = refused('abc', [edit([0, 0], [0, 1], 'A'), edit([0, 9], [0, 9], 'x')]);
    expect(message).toMatch(/^edits\[1\]/);
  });

  it('matches applying the edits one at a time from the end (property)', () => {
    const textArb = fc
      .array(fc.constantFrom('a', 'b', '\n', '\r\n', 'é', '😀'), { maxLength: 30 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        textArb,
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.string({ maxLength: 3 })), { maxLength: 4 }),
        (text, raw) => {
          // Cut points: offsets that are valid positions (not inside a \r\n or a surrogate pair).
          const cuts: number[] = [];
          for (let i = 0; i <= text.length; i++) {
            const splitsCrlf = text[i - 1] === '\r' && text[i] === '\n';
            const code = text.charCodeAt(i);
            if (!splitsCrlf && !(code >= 0xdc00 && code <= 0xdfff)) cuts.push(i);
          }
          // Disjoint ranges, built from sorted distinct cut points.
          const points = [
            ...new Set(raw.flatMap(([a, b]) => [cuts[a % cuts.length]!, cuts[b % cuts.length]!])),
          ].sort((a, b) => a - b);
          const ranges: Array<[number, number, string]> = [];
          for (let i = 0; i + 1 < points.length && ranges.length < raw.length; i += 2) {
            ranges.push([points[i]!, points[i + 1]!, raw[ranges.length]![2]]);
          }
          const toPosition = (offset: number) => {
            const before = text.slice(0, offset);
            const breaks = before.match(/\r\n|\r|\n/g) ?? [];
            const lastBreak = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
            return { line: breaks.length, character: offset - (lastBreak + 1) };
          };
          const edits: RangeEdit[] = ranges.map(([s, e, newText]) => ({
            range: { start: toPosition(s), end: toPosition(e) },
            oldText: text.slice(s, e),
            newText,
          }));
          let expected = text;
          for (const [s, e, newText] of [...ranges].reverse())
            expected = expected.slice(0, s) + newText + expected.slice(e);
          // Shuffled order gives the same result: the ranges are disjoint.
          expect(applyRangeEdits(text, [...edits].reverse())).toBe(expected);
        },
      ),
    );
  });
});
