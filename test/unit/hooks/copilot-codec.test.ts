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

/** Copilot's `edit`, written out again independently of the codec: one exact, unique, literal replacement. */
function copilotAppliesEdit(fileText: string, args: Record<string, unknown>): string {
  const oldStr = String(args.old_str);
  const newStr = typeof args.new_str === 'string' ? args.new_str : '';
  const at = fileText.indexOf(oldStr);
  if (oldStr === '' || at === -1) throw new Error('No match found');
  if (fileText.indexOf(oldStr, at + 1) !== -1) throw new Error('Multiple matches found');
  return fileText.slice(0, at) + newStr + fileText.slice(at + oldStr.length);
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

  it('edit replaces the one occurrence and leaves CRLF, BOM and the missing final newline as they were', () => {
    const call = copilotCodec.parse(preToolUse('edit', { path, old_str: 'b\r\n', new_str: 'B\n' }));
    expect(decodeCopilot(call, '\uFEFFa\r\nb\r\nc')).toMatchObject({
      kind: 'review',
      proposed: '\uFEFFa\r\nB\nc',
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

describe('Copilot codec: rewritten edit args, applied as Copilot applies them, write exactly the composed text', () => {
  it('holds for LF, CRLF and mixed line breaks, a BOM, with or without a final newline, repeated lines', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(lineArb, fc.constantFrom('\n', '\r\n')), { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(lineArb, fc.constantFrom('\n', '\r\n')), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        (baseLines, composedLines, baseFinal, composedFinal) => {
          const text = (lines: Array<[string, string]>, final: boolean) =>
            lines.map(([line, eol], i) => line + (i < lines.length - 1 || final ? eol : '')).join('');
          const base = text(baseLines, baseFinal);
          const composed = text(composedLines, composedFinal);
          fc.pre(base !== composed && base !== '');
          const call = editCallOf(
            copilotCodec.parse(preToolUse('edit', { path, old_str: 'zzz', new_str: 'q' })),
          );
          const answer = copilotCodec.encode(call, base, true, { kind: 'rewrite', composed });
          if (answer?.modifiedArgs === undefined) throw new Error('no rewrite');
          expect(copilotAppliesEdit(base, answer.modifiedArgs)).toBe(composed);
        },
      ),
      { numRuns: 400 },
    );
  });
});
