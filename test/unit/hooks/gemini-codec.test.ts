import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { HookCall } from '../../../shared/hooks/codec';
import { decodeGemini, geminiCodec } from '../../../shared/hooks/gemini';

const file_path = '/work/project/notes.txt';

function beforeTool(tool_name: string, tool_input: unknown): unknown {
  return { session_id: 's', hook_event_name: 'BeforeTool', cwd: '/work/project', tool_name, tool_input };
}

function editCallOf(call: HookCall): Extract<HookCall, { kind: 'edit' }> {
  if (call.kind !== 'edit') throw new Error(`not an edit: ${call.kind}`);
  return call;
}

/**
 * Gemini CLI 0.61.0 applying a `replace` on its exact path, written out again independently of the codec
 * (edit.ts calculateEdit → calculateExactReplacement → execute): what the file holds afterwards.
 */
function geminiAppliesReplace(fileText: string, input: Record<string, unknown>): string {
  const oldString = String(input.old_string).replace(/\r\n/g, '\n');
  const newString = String(input.new_string).replace(/\r\n/g, '\n');
  const lineEnding = fileText.includes('\r\n') ? '\r\n' : '\n';
  const content = fileText.replace(/\r\n/g, '\n');
  const count = content.split(oldString).length - 1;
  if (oldString === '' || count === 0) throw new Error('not found exactly');
  if (input.allow_multiple !== true && count > 1) throw new Error(`expected 1 occurrence, found ${count}`);
  if (oldString === newString) throw new Error('no change');
  let modified = content.replaceAll(oldString, newString.replaceAll('$', '$$$$'));
  if (content.endsWith('\n') && !modified.endsWith('\n')) modified += '\n';
  else if (!content.endsWith('\n') && modified.endsWith('\n')) modified = modified.replace(/\n$/, '');
  return lineEnding === '\r\n' ? modified.replace(/\r?\n/g, '\r\n') : modified;
}

describe('Gemini codec: parse and decode', () => {
  it('a tool not under review is not ours, a shell command is one; a bad input cannot be reconstructed', () => {
    expect(geminiCodec.parse(beforeTool('read_file', { file_path }))).toEqual({ kind: 'not-ours' });
    expect(geminiCodec.parse(beforeTool('run_shell_command', { command: 'ls' }))).toMatchObject({
      kind: 'command',
      command: 'ls',
    });
    expect(geminiCodec.parse(beforeTool('replace', { file_path, old_string: 1 })).kind).toBe(
      'cannot-reconstruct',
    );
    expect(geminiCodec.parse({ nothing: true }).kind).toBe('cannot-reconstruct');
  });

  it('replace: CRLF file edited in LF form and written back CRLF, BOM kept', () => {
    const call = geminiCodec.parse(
      beforeTool('replace', { file_path, old_string: 'b\n', new_string: 'B\n' }),
    );
    expect(call).toMatchObject({ kind: 'edit', filePath: file_path, cwd: '/work/project' });
    expect(decodeGemini(call, '\uFEFFa\r\nb\r\nc')).toMatchObject({
      kind: 'review',
      base: '\uFEFFa\r\nb\r\nc',
      proposed: '\uFEFFa\r\nB\r\nc',
      isNewFile: false,
    });
  });

  it('replace: an old_string found twice needs allow_multiple, then every occurrence changes', () => {
    const twice = 'x = 1\nx = 1\n';
    const once = geminiCodec.parse(
      beforeTool('replace', { file_path, old_string: 'x = 1', new_string: 'y' }),
    );
    expect(decodeGemini(once, twice)).toMatchObject({
      kind: 'cannot-reconstruct',
      reason: 'old_string is not unique',
    });
    const all = geminiCodec.parse(
      beforeTool('replace', { file_path, old_string: 'x = 1', new_string: '$&', allow_multiple: true }),
    );
    expect(decodeGemini(all, twice)).toMatchObject({ kind: 'review', proposed: '$&\n$&\n' });
  });

  it('replace: the final-newline state of the file wins, and a loose match is not guessed', () => {
    const call = geminiCodec.parse(beforeTool('replace', { file_path, old_string: 'b', new_string: 'c\n' }));
    expect(decodeGemini(call, 'a\nb')).toMatchObject({ kind: 'review', proposed: 'a\nc' });
    const loose = geminiCodec.parse(beforeTool('replace', { file_path, old_string: '  b', new_string: 'c' }));
    expect(decodeGemini(loose, 'a\nb\n').kind).toBe('cannot-reconstruct');
  });

  it('replace with an empty old_string creates a new file, and fails on an existing one', () => {
    const call = geminiCodec.parse(
      beforeTool('replace', { file_path, old_string: '', new_string: 'new\r\n' }),
    );
    expect(decodeGemini(call, null)).toMatchObject({ kind: 'review', proposed: 'new\r\n', isNewFile: true });
    expect(decodeGemini(call, 'old\n').kind).toBe('cannot-reconstruct');
  });

  it('write_file: CRLF when the existing file has it; escapes Gemini may rewrite are not guessed', () => {
    const write = geminiCodec.parse(beforeTool('write_file', { file_path, content: 'a\nb\n' }));
    expect(decodeGemini(write, 'x\r\n')).toMatchObject({ kind: 'review', proposed: 'a\r\nb\r\n' });
    expect(decodeGemini(write, null)).toMatchObject({ kind: 'review', proposed: 'a\nb\n', isNewFile: true });
    const escaped = geminiCodec.parse(beforeTool('write_file', { file_path, content: 'say("\\n")\n' }));
    expect(decodeGemini(escaped, 'x\n').kind).toBe('cannot-reconstruct');
  });
});

describe('Gemini codec: encode', () => {
  const call = editCallOf(
    geminiCodec.parse(
      beforeTool('replace', { file_path, instruction: 'rename', old_string: 'a\nb\n', new_string: 'A\nB\n' }),
    ),
  );
  const base = 'a\nb\nc\n';

  it('a rewrite is the whole tool_input, with only the composed change', () => {
    expect(geminiCodec.encode(call, base, true, { kind: 'rewrite', composed: 'A\nb\nc\n' })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'BeforeTool',
        tool_input: { file_path, instruction: 'rename', old_string: 'a\n', new_string: 'A\n' },
      },
    });
  });

  it('deny carries the reason; allow prints nothing; the note comes from AfterTool', () => {
    expect(geminiCodec.encode(call, base, true, { kind: 'deny', reason: 'no' })).toEqual({
      decision: 'deny',
      reason: 'no',
    });
    expect(geminiCodec.encode(call, base, true, { kind: 'allow', note: 'ok' })).toBeNull();
    expect(geminiCodec.encodeNote('keep it short')).toEqual({
      hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'keep it short' },
    });
  });

  it('a composed text replace cannot write (final newline dropped) is a deny, not a wrong write', () => {
    expect(geminiCodec.encode(call, base, true, { kind: 'rewrite', composed: 'A\nb\nc' })).toMatchObject({
      decision: 'deny',
    });
  });

  it('write_file: a composed text holding escapes Gemini may rewrite is a deny', () => {
    const write = editCallOf(geminiCodec.parse(beforeTool('write_file', { file_path, content: 'x\n' })));
    expect(
      geminiCodec.encode(write, 'x\n', true, { kind: 'rewrite', composed: 'a = "\\n"\n' }),
    ).toMatchObject({
      decision: 'deny',
    });
  });

  it('write_file is rewritten to the composed content', () => {
    const write = editCallOf(geminiCodec.parse(beforeTool('write_file', { file_path, content: 'x\n' })));
    expect(geminiCodec.encode(write, '', false, { kind: 'rewrite', composed: 'y\n' })).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { file_path, content: 'y\n' } },
    });
  });
});

/** Lines from a small alphabet, so the same line often occurs more than once. */
const lineArb = fc.constantFrom('a', 'b', 'a', '', 'x = 1', '  a', '$&');
const linesArb = fc.array(lineArb, { minLength: 1, maxLength: 8 });

describe('Gemini codec: a rewritten replace, applied as Gemini applies it, writes exactly the composed text', () => {
  it('holds for LF and CRLF, a BOM, with or without a final newline, repeated lines', () => {
    fc.assert(
      fc.property(
        linesArb,
        linesArb,
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.boolean(),
        (baseLines, composedLines, eol, finalNewline, bom) => {
          const text = (lines: string[]) =>
            (bom ? '\uFEFF' : '') + lines.join(eol) + (finalNewline ? eol : '');
          const base = text(baseLines);
          const composed = text(composedLines);
          fc.pre(base !== composed && base.replace(/\r\n/g, '\n') !== '');
          // The composed text keeps the file's final-newline state (Gemini restores it on every replace).
          fc.pre(composed.endsWith('\n') === base.endsWith('\n'));
          // A file with no "\r\n" is LF to Gemini: it writes no "\r\n" into it.
          fc.pre(!composed.includes('\r\n') || base.includes('\r\n'));
          const call = editCallOf(
            geminiCodec.parse(beforeTool('replace', { file_path, old_string: 'zzz', new_string: 'q' })),
          );
          const answer = geminiCodec.encode(call, base, true, { kind: 'rewrite', composed });
          if (answer === null || !('hookSpecificOutput' in answer)) throw new Error('no rewrite');
          expect(geminiAppliesReplace(base, answer.hookSpecificOutput.tool_input)).toBe(composed);
        },
      ),
      { numRuns: 400 },
    );
  });
});
