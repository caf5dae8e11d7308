import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { HookCall } from '../../../shared/hooks/codec';
import { copilotCodec, decodeCopilot } from '../../../shared/hooks/copilot';

const path = '/work/project/notes.txt';

function preToolUse(toolName: string, toolArgs: unknown): unknown {
  return { sessionId: 's', timestamp: 1, cwd: '/work/project', toolName, toolArgs };
}

function editCallOf(call: HookCall): Extract<HookCall, { kind: 'edit' }> {
  if (call.kind !== 'edit') throw new Error(`not an edit: ${call.kind}`);
  return call;
}

/**
 * Copilot's `edit` as 1.0.102 applied it in offline runs, written out again independently of the codec:
 * old_str literally, else with its line breaks matching either kind; one match only; new_str's line
 * breaks written as the file's more frequent one (LF on a tie).
 */
function copilotAppliesEdit(fileText: string, args: Record<string, unknown>): string {
  const oldStr = String(args.old_str);
  const newStr = typeof args.new_str === 'string' ? args.new_str : '';
  if (oldStr === '') throw new Error('old_str is empty');
  const crlf = fileText.split('\r\n').length - 1;
  const eol = crlf > fileText.split('\n').length - 1 - crlf ? '\r\n' : '\n';
  const written = newStr.replaceAll('\r\n', '\n').replaceAll('\n', eol);
  let at = fileText.indexOf(oldStr);
  let length = oldStr.length;
  if (at !== -1) {
    if (fileText.indexOf(oldStr, at + 1) !== -1) throw new Error('Multiple matches found');
  } else {
    const loose = new RegExp(
      oldStr
        .split(/\r?\n/)
        .map((piece) => piece.replace(/[\\^$.*+?()[\]{}|]/g, (c) => `\\${c}`))
        .join('(?:\r\n|\n)'),
      'y',
    );
    const matches: Array<[number, number]> = [];
    for (let i = 0; i < fileText.length; i++) {
      loose.lastIndex = i;
      const match = loose.exec(fileText);
      if (match) matches.push([i, match[0].length]);
    }
    if (matches.length === 0) throw new Error('No match found');
    if (matches.length > 1) throw new Error('Multiple matches found');
    [at, length] = matches[0]!;
  }
  return fileText.slice(0, at) + written + fileText.slice(at + length);
}

describe('Copilot codec: parse and decode', () => {
  it('a tool not under review is not ours, a shell command is one; args come as an object or as JSON text', () => {
    expect(copilotCodec.parse(preToolUse('view', { path }))).toEqual({ kind: 'not-ours' });
    expect(copilotCodec.parse(preToolUse('bash', { command: 'ls', description: 'List' }))).toMatchObject({
      kind: 'command',
      toolName: 'bash',
      command: 'ls',
      description: 'List',
    });
    expect(copilotCodec.parse(preToolUse('bash', { description: 'no command' })).kind).toBe(
      'cannot-reconstruct',
    );
    const asText = copilotCodec.parse(
      preToolUse('edit', JSON.stringify({ path, old_str: 'a', new_str: 'b' })),
    );
    expect(asText).toMatchObject({ kind: 'edit', filePath: path, toolInput: { old_str: 'a', new_str: 'b' } });
    expect(copilotCodec.parse(preToolUse('edit', '{not json')).kind).toBe('cannot-reconstruct');
    expect(copilotCodec.parse({ toolArgs: {} }).kind).toBe('cannot-reconstruct');
  });

  it("edit replaces the one occurrence, writes new_str's line breaks as the file's, keeps the BOM and the missing final newline", () => {
    const call = copilotCodec.parse(preToolUse('edit', { path, old_str: 'b\r\n', new_str: 'B\n' }));
    // Copilot 1.0.102 wrote "B\r\n" here: new_str's break takes the file's CRLF.
    expect(decodeCopilot(call, '\uFEFFa\r\nb\r\nc')).toMatchObject({
      kind: 'review',
      proposed: '\uFEFFa\r\nB\r\nc',
    });
  });

  /** [file, old_str, new_str, what Copilot 1.0.102 wrote] from the offline runs. */
  const observed: Array<[string, string, string, string]> = [
    // An LF old_str found in a CRLF file; the new lines written CRLF.
    ['one\r\ntwo\r\nthree\r\n', 'one\ntwo', 'ONE\nTWO', 'ONE\r\nTWO\r\nthree\r\n'],
    ['x\r\ny\r\n', 'x', 'X1\nX2', 'X1\r\nX2\r\ny\r\n'],
    ['m\r\nn', 'n', 'N\n', 'm\r\nN\r\n'],
    // A CRLF old_str found in an LF file; the new lines written LF.
    ['p\nq\n', 'p\r\nq', 'P\r\nQ', 'P\nQ\n'],
    // Mixed files: the other lines keep their breaks; new_str takes the more frequent one, LF on a tie.
    ['a\r\nb\nc\r\n', 'b', 'B', 'a\r\nB\nc\r\n'],
    ['a\r\nb\nc\nd\n', 'c', 'Q1\nQ2', 'a\r\nb\nQ1\nQ2\nd\n'],
    ['a\nb\r\nc\r\nd\r\n', 'c', 'Q1\nQ2', 'a\nb\r\nQ1\r\nQ2\r\nd\r\n'],
    ['a\r\nb\nc', 'c', 'Q1\nQ2', 'a\r\nb\nQ1\nQ2'],
    ['solo', 'solo', 'S1\nS2\r\nS3', 'S1\nS2\nS3'],
    ['a\r\nb\nc\r\n', 'a\nb\nc', 'A\nB\nC', 'A\r\nB\r\nC\r\n'],
    ['a\r\nb\nc\r\nd\ne\r\nf\r\n', 'e\nf', 'E\nF', 'a\r\nb\nc\r\nd\nE\r\nF\r\n'],
    // A literal match comes first, even where it splits a CRLF.
    ['a\r\nb\r\nc\r\n', '\nb', '\nB', 'a\r\r\nB\r\nc\r\n'],
    ['a\r\nb\r\n', 'a\r', 'A\r', 'A\r\nb\r\n'],
    // Replacement text taken literally.
    ['a\nb\n', 'a\n', '$&$1A\n', '$&$1A\nb\n'],
  ];
  it.each(observed)('edit of %j: %j → %j writes what Copilot wrote', (file, oldStr, newStr, written) => {
    const call = copilotCodec.parse(preToolUse('edit', { path, old_str: oldStr, new_str: newStr }));
    expect(decodeCopilot(call, file)).toMatchObject({ kind: 'review', proposed: written });
    expect(copilotAppliesEdit(file, { old_str: oldStr, new_str: newStr })).toBe(written);
  });

  it('edit: a match Copilot finds only by ignoring trailing spaces, or an overlapping second one, gets no decision', () => {
    const spaced = copilotCodec.parse(preToolUse('edit', { path, old_str: 'k \nl', new_str: 'K\nL' }));
    expect(decodeCopilot(spaced, 'k\nl\n')).toMatchObject({
      kind: 'cannot-reconstruct',
      reason: 'old_str not found',
    });
    const overlapping = copilotCodec.parse(preToolUse('edit', { path, old_str: 'aa', new_str: 'b' }));
    expect(decodeCopilot(overlapping, 'aaa')).toMatchObject({
      kind: 'cannot-reconstruct',
      reason: 'old_str is not unique',
    });
    const looseTwice = copilotCodec.parse(preToolUse('edit', { path, old_str: 'a\nb', new_str: 'c' }));
    expect(decodeCopilot(looseTwice, 'a\r\nb\na\r\nb\n')).toMatchObject({
      kind: 'cannot-reconstruct',
      reason: 'old_str is not unique',
    });
  });

  it('edit: an old_str found twice, or not at all, or a missing file gets no decision', () => {
    const call = copilotCodec.parse(preToolUse('edit', { path, old_str: 'x', new_str: 'y' }));
    expect(decodeCopilot(call, 'x\nx\n')).toMatchObject({
      kind: 'cannot-reconstruct',
      reason: 'old_str is not unique',
    });
    expect(decodeCopilot(call, 'a\n').kind).toBe('cannot-reconstruct');
    expect(decodeCopilot(call, null).kind).toBe('cannot-reconstruct');
  });

  it('create writes file_text to a new file only', () => {
    const call = copilotCodec.parse(preToolUse('create', { path, file_text: 'new' }));
    expect(decodeCopilot(call, null)).toMatchObject({
      kind: 'review',
      base: '',
      proposed: 'new',
      isNewFile: true,
    });
    expect(decodeCopilot(call, 'old').kind).toBe('cannot-reconstruct');
  });
});

describe('Copilot codec: encode', () => {
  const call = editCallOf(
    copilotCodec.parse(preToolUse('edit', { path, old_str: 'a\nb\n', new_str: 'A\nB\n' })),
  );
  const base = 'a\nb\nc\n';

  it('a rewrite is the whole modifiedArgs with allow and the note as additionalContext', () => {
    expect(
      copilotCodec.encode(call, base, true, { kind: 'rewrite', composed: 'A\nb\nc\n', note: 'only A' }),
    ).toEqual({
      permissionDecision: 'allow',
      modifiedArgs: { path, old_str: 'a\n', new_str: 'A\n' },
      additionalContext: 'only A',
    });
  });

  it('allow and deny', () => {
    expect(copilotCodec.encode(call, base, true, { kind: 'allow' })).toEqual({ permissionDecision: 'allow' });
    expect(copilotCodec.encode(call, base, true, { kind: 'deny', reason: 'no' })).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: 'no',
    });
    expect(copilotCodec.encodeNote('n')).toEqual({ additionalContext: 'n' });
  });

  it('create is rewritten to the composed file_text', () => {
    const create = editCallOf(copilotCodec.parse(preToolUse('create', { path, file_text: 'x' })));
    expect(copilotCodec.encode(create, '', false, { kind: 'rewrite', composed: 'y' })).toEqual({
      permissionDecision: 'allow',
      modifiedArgs: { path, file_text: 'y' },
    });
  });
});

const lineArb = fc.constantFrom('a', 'b', 'a', '', 'x = 1', '\uFEFFa', '$&');

const text = (lines: Array<[string, string]>, final: boolean) =>
  lines.map(([line, eol], i) => line + (i < lines.length - 1 || final ? eol : '')).join('');

/** The rewrite of `base` to `composed`, or the deny saying it cannot be written. */
function rewriteTo(base: string, composed: string) {
  const call = editCallOf(copilotCodec.parse(preToolUse('edit', { path, old_str: 'zzz', new_str: 'q' })));
  return copilotCodec.encode(call, base, true, { kind: 'rewrite', composed });
}

describe('Copilot codec: rewritten edit args, applied as Copilot applies them, write exactly the composed text', () => {
  it('holds for LF, CRLF and mixed line breaks, a BOM, with or without a final newline, repeated lines (or it denies)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(lineArb, fc.constantFrom('\n', '\r\n')), { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(lineArb, fc.constantFrom('\n', '\r\n')), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        (baseLines, composedLines, baseFinal, composedFinal) => {
          const base = text(baseLines, baseFinal);
          const composed = text(composedLines, composedFinal);
          fc.pre(base !== composed && base !== '');
          const answer = rewriteTo(base, composed);
          // Copilot writes new_str's line breaks as the file's: some composed texts no edit can write.
          if (answer?.modifiedArgs === undefined) {
            expect(answer?.permissionDecision).toBe('deny');
            return;
          }
          expect(copilotAppliesEdit(base, answer.modifiedArgs)).toBe(composed);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('always finds a rewrite when base and composed use one and the same line break', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 8 }),
        fc.array(lineArb, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.boolean(),
        (baseLines, composedLines, eol, baseFinal, composedFinal) => {
          const base = text(
            baseLines.map((line): [string, string] => [line, eol]),
            baseFinal,
          );
          const composed = text(
            composedLines.map((line): [string, string] => [line, eol]),
            composedFinal,
          );
          // One line break or none: no break says which kind the file uses, and Copilot picks LF.
          fc.pre(base !== composed && base !== '' && (eol === '\n' || base.includes('\r\n')));
          const answer = rewriteTo(base, composed);
          if (answer?.modifiedArgs === undefined) throw new Error(`no rewrite: ${JSON.stringify(answer)}`);
          expect(copilotAppliesEdit(base, answer.modifiedArgs)).toBe(composed);
        },
      ),
      { numRuns: 400 },
    );
  });
});
