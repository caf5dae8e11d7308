import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { HookCall } from '../../../shared/hooks/codec';
import { HOOK_CODECS, isHookAgent } from '../../../shared/hooks/codecs';
import { decodeQwen, qwenCodec } from '../../../shared/hooks/qwen';

const file_path = '/work/project/notes.txt';

function permissionRequest(tool_name: string, tool_input: unknown): unknown {
  return {
    session_id: 's',
    hook_event_name: 'PermissionRequest',
    cwd: '/work/project',
    tool_name,
    tool_input,
  };
}

function editCallOf(call: HookCall): Extract<HookCall, { kind: 'edit' }> {
  if (call.kind !== 'edit') throw new Error(`not an edit: ${call.kind}`);
  return call;
}

/**
 * Qwen Code 0.24.4 applying an `edit` whose old_string occurs literally, written out again independently
 * of the codec (edit.ts calculateEdit, then prepareTextFileContent): what the file holds afterwards.
 */
function qwenAppliesEdit(fileText: string, input: Record<string, unknown>): string {
  const bom = fileText.charCodeAt(0) === 0xfeff;
  const raw = bom ? fileText.slice(1) : fileText;
  const crlf = raw.includes('\r\n');
  const current = raw.replace(/\r\n/g, '\n');
  let oldString = String(input.old_string);
  const newString = String(input.new_string);
  if (!current.includes(oldString)) throw new Error('0 occurrences');
  if (newString === '' && !oldString.endsWith('\n') && current.includes(`${oldString}\n`)) oldString += '\n';
  let count = 0;
  for (let i = current.indexOf(oldString); i !== -1; i = current.indexOf(oldString, i + oldString.length))
    count++;
  if (input.replace_all !== true && count > 1) throw new Error(`found ${count} occurrences`);
  const next = current.replaceAll(oldString, newString.replaceAll('$', '$$$$'));
  if (next === current) throw new Error('no change');
  const written = crlf ? next.split('\r\n').join('\n').split('\n').join('\r\n') : next;
  return bom ? `\uFEFF${written}` : written;
}

describe('the codec table', () => {
  it('names gemini, copilot and qwen, and nothing else', () => {
    expect(Object.keys(HOOK_CODECS).sort()).toEqual(['copilot', 'gemini', 'qwen']);
    expect(isHookAgent('qwen')).toBe(true);
    expect(isHookAgent('toString')).toBe(false);
  });
});

describe('Qwen codec: parse and decode', () => {
  it('a tool not under review is not ours, a shell command is one; a bad input cannot be reconstructed', () => {
    expect(qwenCodec.parse(permissionRequest('read_file', { file_path }))).toEqual({ kind: 'not-ours' });
    expect(qwenCodec.parse(permissionRequest('run_shell_command', { command: 'ls' }))).toMatchObject({
      kind: 'command',
      command: 'ls',
    });
    expect(qwenCodec.parse(permissionRequest('edit', { file_path })).kind).toBe('cannot-reconstruct');
  });

  it('edit: BOM and CRLF kept, the text edited with "\\r\\n" as "\\n"', () => {
    const call = qwenCodec.parse(
      permissionRequest('edit', { file_path, old_string: 'b\n', new_string: 'B\n' }),
    );
    expect(decodeQwen(call, '\uFEFFa\r\nb\r\nc')).toMatchObject({
      kind: 'review',
      proposed: '\uFEFFa\r\nB\r\nc',
    });
  });

  it('edit: twice needs replace_all; deleting a line takes its line break; loose matches get no decision', () => {
    const twice = qwenCodec.parse(permissionRequest('edit', { file_path, old_string: 'x', new_string: 'y' }));
    expect(decodeQwen(twice, 'x\nx\n').kind).toBe('cannot-reconstruct');
    const all = qwenCodec.parse(
      permissionRequest('edit', { file_path, old_string: 'x', new_string: 'y', replace_all: true }),
    );
    expect(decodeQwen(all, 'x\nx\n')).toMatchObject({ kind: 'review', proposed: 'y\ny\n' });
    const del = qwenCodec.parse(permissionRequest('edit', { file_path, old_string: 'b', new_string: '' }));
    expect(decodeQwen(del, 'a\nb\nc')).toMatchObject({ kind: 'review', proposed: 'a\nc' });
    const loose = qwenCodec.parse(
      permissionRequest('edit', { file_path, old_string: 'a  \nb', new_string: 'c' }),
    );
    expect(decodeQwen(loose, 'a\nb\n').kind).toBe('cannot-reconstruct');
  });

  it('write_file keeps the existing file BOM and CRLF; a new .cmd file is CRLF', () => {
    const write = qwenCodec.parse(permissionRequest('write_file', { file_path, content: 'a\nb' }));
    expect(decodeQwen(write, '\uFEFFx\r\n')).toMatchObject({ kind: 'review', proposed: '\uFEFFa\r\nb' });
    const cmd = qwenCodec.parse(
      permissionRequest('write_file', { file_path: '/p/run.cmd', content: 'a\nb\n' }),
    );
    expect(decodeQwen(cmd, null)).toMatchObject({ kind: 'review', proposed: 'a\r\nb\r\n', isNewFile: true });
  });
});

describe('Qwen codec: encode', () => {
  const call = editCallOf(
    qwenCodec.parse(permissionRequest('edit', { file_path, old_string: 'a\nb\n', new_string: 'A\nB\n' })),
  );
  const base = 'a\nb\nc\n';

  it('a rewrite is PermissionRequest allow with the whole updatedInput', () => {
    expect(qwenCodec.encode(call, base, true, { kind: 'rewrite', composed: 'A\nb\nc\n' })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedInput: { file_path, old_string: 'a\n', new_string: 'A\n' } },
      },
    });
  });

  it('allow, deny with its message, and the note from PostToolUse', () => {
    expect(qwenCodec.encode(call, base, true, { kind: 'allow' })).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    expect(qwenCodec.encode(call, base, true, { kind: 'deny', reason: 'no' })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'no' },
      },
    });
    expect(qwenCodec.encodeNote('n')).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'n' },
    });
  });
});

const lineArb = fc.constantFrom('a', 'b', 'a', '', 'x = 1', '$&');
const linesArb = fc.array(lineArb, { minLength: 1, maxLength: 8 });

describe('Qwen codec: a rewritten edit, applied as Qwen applies it, writes exactly the composed text', () => {
  it('holds for LF and CRLF, a BOM, with or without a final newline, repeated lines', () => {
    fc.assert(
      fc.property(
        linesArb,
        linesArb,
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (baseLines, composedLines, eol, baseFinal, composedFinal, bom) => {
          const text = (lines: string[], final: boolean) =>
            (bom ? '\uFEFF' : '') + lines.join(eol) + (final ? eol : '');
          const base = text(baseLines, baseFinal);
          const composed = text(composedLines, composedFinal);
          fc.pre(base !== composed && base !== '' && base !== '\uFEFF');
          // A file with no "\r\n" is LF to Qwen: it writes no "\r\n" into it.
          fc.pre(!composed.includes('\r\n') || base.includes('\r\n'));
          const call = editCallOf(
            qwenCodec.parse(permissionRequest('edit', { file_path, old_string: 'zzz', new_string: 'q' })),
          );
          const answer = qwenCodec.encode(call, base, true, { kind: 'rewrite', composed });
          const decision = answer?.hookSpecificOutput.decision;
          if (decision?.behavior !== 'allow' || decision.updatedInput === undefined)
            throw new Error('no rewrite');
          expect(qwenAppliesEdit(base, decision.updatedInput)).toBe(composed);
        },
      ),
      { numRuns: 400 },
    );
  });
});
