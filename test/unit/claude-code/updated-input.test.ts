import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EditToolName } from '../../../shared/claude-code/edit-replay';
import { BOM, leadingBom, replayEdit } from '../../../shared/claude-code/edit-replay';
import { updatedInputFor } from '../../../shared/claude-code/updated-input';
import { computeHunks } from '../../../shared/hunks';
import { composeText } from '../../../shared/line-decisions';
import type { HunkDecision } from '../../../shared/hunks';
import {
  applyEdits,
  decisionArb,
  editArb,
  lineDecisionsFrom,
  wholeHunkDecisions,
} from '../../support/hunk-generators';

const file_path = '/work/project/notes.txt';

/** What Claude Code writes when the hook answers with `updatedInput` (the file still holds `base`). */
function replayUpdated(tool: EditToolName, base: string, composed: string, isNewFile = false): string {
  const input = updatedInputFor(tool, { file_path, old_string: 'x', new_string: 'y' }, base, composed);
  if (input === null) throw new Error('no input');
  const replay = replayEdit(tool, input, isNewFile ? null : base);
  if (!replay.applies) throw new Error(`does not apply: ${replay.reason}`);
  return replay.proposed;
}

describe('updatedInputFor', () => {
  it('an Edit replaces the changed lines only, same file, replace_all off', () => {
    const base = 'one\ntwo\nthree\nfour\n';
    expect(
      updatedInputFor(
        'Edit',
        { file_path, old_string: 'x', new_string: 'y' },
        base,
        'one\nTWO\nthree\nfour\n',
      ),
    ).toEqual({
      file_path,
      old_string: 'two\n',
      new_string: 'TWO\n',
      replace_all: false,
    });
  });

  it('widens old_string by lines until it is unique', () => {
    const base = 'a\nx\nb\nx\nc\n';
    const input = updatedInputFor('Edit', { file_path }, base, 'a\nx\nb\nX\nc\n');
    expect(input).toMatchObject({ old_string: 'b\nx\nc\n', new_string: 'b\nX\nc\n' });
    // Unique also among overlapping occurrences: "x\nx\n" occurs twice in "x\nx\nx\n".
    expect(replayUpdated('Edit', 'x\nx\nx\n', 'x\nx\ny\nx\n')).toBe('x\nx\ny\nx\n');
  });

  it('an insertion, a deletion, a new last line and a dropped final newline', () => {
    expect(replayUpdated('Edit', 'a\nb\n', 'a\nnew\nb\n')).toBe('a\nnew\nb\n');
    expect(replayUpdated('Edit', 'a\nb\nc\n', 'a\nc\n')).toBe('a\nc\n');
    expect(replayUpdated('Edit', 'a\nb\n', 'a\nb\nc\n')).toBe('a\nb\nc\n');
    expect(replayUpdated('Edit', 'a\nb\n', 'a\nb')).toBe('a\nb');
    expect(replayUpdated('Edit', 'a\nb', 'a\nb\n')).toBe('a\nb\n');
    expect(replayUpdated('Edit', 'a\nb\n', '')).toBe('');
  });

  it('never gives an empty new_string that would take a line break with it', () => {
    const input = updatedInputFor('Edit', { file_path }, 'a\nb\nc', 'a\nc');
    expect(input).not.toBeNull();
    expect(replayEdit('Edit', input, 'a\nb\nc')).toMatchObject({ applies: true, proposed: 'a\nc' });
  });

  it('a CRLF file: computed on "\\n", written back as CRLF', () => {
    const base = 'a\r\nb\r\nc\r\n';
    const input = updatedInputFor('Edit', { file_path }, base, 'a\r\nB\r\nc\r\n');
    expect(input).toMatchObject({ old_string: 'b\n', new_string: 'B\n' });
    expect(replayUpdated('Edit', base, 'a\r\nB\r\nc\r\n')).toBe('a\r\nB\r\nc\r\n');
  });

  it('a new or empty file: created from an empty old_string, exactly as composed', () => {
    expect(updatedInputFor('Edit', { file_path }, '', 'x\r\ny')).toEqual({
      file_path,
      old_string: '',
      new_string: 'x\r\ny',
      replace_all: false,
    });
    expect(replayUpdated('Edit', '', 'x\r\ny', true)).toBe('x\r\ny');
    expect(replayUpdated('MultiEdit', '', 'x\r\ny', true)).toBe('x\r\ny');
  });

  it('MultiEdit gets that one edit; Write gets the whole text', () => {
    expect(updatedInputFor('MultiEdit', { file_path, edits: [] }, 'a\nb\n', 'a\nB\n')).toEqual({
      file_path,
      edits: [{ old_string: 'b\n', new_string: 'B\n', replace_all: false }],
    });
    expect(updatedInputFor('Write', { file_path, content: 'old' }, 'a\n', 'a\r\nb')).toEqual({
      file_path,
      content: 'a\r\nb',
    });
  });

  it('a text that differs from the file only in line endings cannot be an Edit: null', () => {
    expect(updatedInputFor('Edit', { file_path }, 'a\nb\r\n', 'a\nb\n')).toBeNull();
    expect(updatedInputFor('Write', { file_path }, 'a\nb\r\n', 'a\nb\n')).toEqual({
      file_path,
      content: 'a\nb\n',
    });
  });

  it('a file with a byte-order mark: the Edit replaces text after the mark, which Claude keeps', () => {
    const base = `${BOM}alpha\nbeta\ngamma`;
    const composed = `${BOM}ALPHA\nbeta\ngamma`;
    const input = updatedInputFor('Edit', { file_path }, base, composed);
    // 2.1.332 does not find an old_string holding the mark.
    expect(input).toEqual({ file_path, old_string: 'alpha\n', new_string: 'ALPHA\n', replace_all: false });
    expect(replayUpdated('Edit', base, composed)).toBe(composed);
    expect(replayUpdated('Edit', `${BOM}a\r\nb\r\n`, `${BOM}A\r\nb\r\n`)).toBe(`${BOM}A\r\nb\r\n`);
    expect(replayUpdated('Write', base, composed)).toBe(composed);
    expect(replayUpdated('Edit', BOM, `${BOM}new\n`)).toBe(`${BOM}new\n`);
  });

  it('a composed text that drops the file’s byte-order mark cannot be written by any tool: null', () => {
    for (const tool of ['Edit', 'MultiEdit', 'Write'] as const) {
      expect(updatedInputFor(tool, { file_path }, `${BOM}a\nb\n`, 'a\nB\n')).toBeNull();
    }
  });

  it('mixed line endings (the known inexactness): Claude writes its own line endings throughout', () => {
    // Mostly CRLF: the lone "\n" comes back as "\r\n", as Claude writes any Edit to this file.
    expect(replayUpdated('Edit', 'a\r\nb\nc\r\n', 'a\r\nB\nc\r\n')).toBe('a\r\nB\r\nc\r\n');
  });

  it('a lone "\\r" before a CRLF line break survives Claude reading "\\r\\n" as "\\n" (found by fast-check)', () => {
    // Claude writes "a\r\r\na" back to a CRLF file as it stands, so an Edit can leave exactly that.
    expect(replayUpdated('Edit', 'a\r\na\r\r\na', 'a\r\r\na')).toBe('a\r\r\na');
  });

  it('stays quick on a long file of identical lines', () => {
    const base = 'same\n'.repeat(50_000);
    const composed = 'same\n'.repeat(25_000) + 'changed\n' + 'same\n'.repeat(24_999);
    expect(replayUpdated('Edit', base, composed)).toBe(composed);
  });
});

// Texts in one line-ending style, as Claude writes an Edit's result: no lone "\r".
const lineArb = fc.constantFrom('a', 'b', 'c', '', ' ', 'x = 1', '}', '“q”', 'é');
const styledPair = fc
  .record({
    lines: fc.array(lineArb, { maxLength: 30 }),
    finalNewline: fc.boolean(),
    crlf: fc.boolean(),
    // Claude keeps a file's byte-order mark, so a proposal has it when the file has.
    bom: fc.boolean(),
    edits: fc.array(editArb, { maxLength: 10 }),
  })
  .map(({ lines, finalNewline, crlf, bom, edits }) => {
    const eol = crlf ? '\r\n' : '\n';
    const join = (ls: readonly string[]) => (ls.length === 0 ? '' : ls.join(eol) + (finalNewline ? eol : ''));
    const base = join(lines);
    // editArb's lines carry their own line endings: take only their content, then restyle.
    const proposedLines = applyEdits(lines.map((l) => l + '\n').join(''), edits)
      .split(/\r\n|\r|\n/)
      .map((l) => l.replace(/^\uFEFF/, ''));
    if (proposedLines.at(-1) === '') proposedLines.pop();
    const mark = bom ? BOM : '';
    return { base: mark + base, proposed: mark + join(proposedLines) };
  });

describe('updatedInputFor, replayed as Claude Code applies it', () => {
  const tools: EditToolName[] = ['Edit', 'MultiEdit', 'Write'];

  it('yields exactly the text composed from any decisions on any proposal', () => {
    fc.assert(
      fc.property(
        styledPair,
        fc.oneof(fc.array(fc.boolean()), fc.array(decisionArb, { minLength: 1 })),
        fc.constantFrom(...tools),
        ({ base, proposed }, choices, tool) => {
          const hunks = computeHunks(base, proposed);
          const decisions = choices.every((c) => typeof c === 'boolean')
            ? wholeHunkDecisions(hunks, choices as boolean[])
            : lineDecisionsFrom(hunks, choices as HunkDecision[]);
          const composed = composeText(base, proposed, hunks, decisions);
          // An unchanged file is a deny, not an input. A base without line breaks reads as LF, so CRLF
          // lines composed onto it are the mixed case (tested above).
          fc.pre(composed !== base);
          fc.pre(base === '' || base.includes('\n') || !composed.includes('\r'));
          // Decisions that leave the file's byte-order mark off the front cannot be written (tested above).
          fc.pre(composed.startsWith(leadingBom(base)));
          expect(replayUpdated(tool, base, composed, base === '')).toBe(composed);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('yields exactly a text the reviewer wrote over the proposal', () => {
    fc.assert(
      fc.property(
        styledPair,
        styledPair,
        fc.constantFrom(...tools),
        ({ base }, { proposed: edited }, tool) => {
          const crlf = base.includes('\r\n');
          const text = edited.slice(leadingBom(edited).length);
          const composed =
            leadingBom(base) +
            (crlf ? text.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n') : text.replaceAll('\r\n', '\n'));
          fc.pre(composed !== base);
          fc.pre(base === '' || base.includes('\n') || !composed.includes('\r'));
          expect(replayUpdated(tool, base, composed, base === '')).toBe(composed);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
