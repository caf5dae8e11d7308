/**
 * Cases from openai/codex's own tests of apply_patch (codex-rs/apply-patch/tests/fixtures/scenarios/ and
 * the unit tests in src/lib.rs, src/seek_sequence.rs); each names the one it follows. Cases marked
 * "checked against the 0.171.0 binary" were run through `apply_patch` of @openai/codex@0.171.0-linux-x64
 * (the codex binary invoked under that name) and give the bytes it wrote.
 */
import { describe, expect, it } from 'vitest';
import { applyPatch, type PatchApplication } from '../../../shared/codex/patch-apply';
import { parsePatch } from '../../../shared/codex/patch-parse';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

function apply(text: string, files: Record<string, string>): PatchApplication {
  const parsed = parsePatch(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return applyPatch(parsed.hunks, (path) => files[path] ?? null);
}

/** The text Codex writes for the one file a patch updates, or its failure. */
function updated(file: string, ...body: string[]): string {
  const result = apply(patch('*** Update File: f.txt', ...body), { 'f.txt': file });
  return result.ok ? (result.files[0]?.text ?? 'deleted') : `failed: ${result.reason}`;
}

describe('applyPatch (Codex 0.171.0 behaviour)', () => {
  it('adds, updates and deletes in one patch (fixture 002_multiple_operations)', () => {
    const result = apply(
      patch(
        '*** Add File: nested/new.txt',
        '+created',
        '*** Delete File: delete.txt',
        '*** Update File: modify.txt',
        '@@',
        '-line2',
        '+changed',
      ),
      { 'delete.txt': 'obsolete\n', 'modify.txt': 'line1\nline2\n' },
    );
    expect(result).toEqual({
      ok: true,
      files: [
        { kind: 'add', path: 'nested/new.txt', movePath: null, base: null, text: 'created\n' },
        { kind: 'delete', path: 'delete.txt', movePath: null, base: 'obsolete\n', text: null },
        {
          kind: 'update',
          path: 'modify.txt',
          movePath: null,
          base: 'line1\nline2\n',
          text: 'line1\nchanged\n',
        },
      ],
    });
  });

  it('applies several chunks in order (fixture 003_multiple_chunks)', () => {
    expect(
      updated('line1\nline2\nline3\nline4\n', '@@', '-line2', '+changed2', '@@', '-line4', '+changed4'),
    ).toBe('line1\nchanged2\nline3\nchanged4\n');
  });

  it('moves a file, its new text going to the destination (fixture 004_move_to_new_directory)', () => {
    const result = apply(
      patch(
        '*** Update File: old/name.txt',
        '*** Move to: renamed/dir/name.txt',
        '@@',
        '-old content',
        '+new content',
      ),
      {
        'old/name.txt': 'old content\n',
      },
    );
    expect(result.ok && result.files[0]).toMatchObject({
      kind: 'move',
      movePath: 'renamed/dir/name.txt',
      text: 'new content\n',
    });
  });

  it('refuses a patch with no files (fixture 005_rejects_empty_patch)', () => {
    expect(apply(patch(), {})).toEqual({ ok: false, reason: 'No files were modified.' });
  });

  it('fails when the lines are not in the file (fixture 006_rejects_missing_context)', () => {
    expect(updated('line1\nline2\n', '@@', '-missing', '+changed')).toMatch(
      /^failed: Failed to find expected lines/,
    );
  });

  it('fails to delete or update a file that does not exist (fixtures 007, 009)', () => {
    expect(apply(patch('*** Delete File: missing.txt'), {}).ok).toBe(false);
    expect(apply(patch('*** Update File: missing.txt', '@@', '-a', '+b'), {}).ok).toBe(false);
  });

  it('adds over an existing file (fixture 011_add_overwrites_existing_file)', () => {
    const result = apply(patch('*** Add File: duplicate.txt', '+new content'), {
      'duplicate.txt': 'old content\n',
    });
    expect(result.ok && result.files[0]).toMatchObject({ base: 'old content\n', text: 'new content\n' });
  });

  it('gives an updated file a final newline (fixture 014_update_file_appends_trailing_newline)', () => {
    expect(updated('no newline at end', '@@', '-no newline at end', '+first line', '+second line')).toBe(
      'first line\nsecond line\n',
    );
    // Also when the change is elsewhere: the untouched unterminated last line gets one too.
    expect(updated('a\nb', '@@', '-a', '+A')).toBe('A\nb\n');
  });

  it('adds a chunk with no old lines at the end of the file, whatever its context (fixture 016)', () => {
    expect(updated('line1\nline2\n', '@@', '+added line 1', '+added line 2')).toBe(
      'line1\nline2\nadded line 1\nadded line 2\n',
    );
    expect(updated('a\nb\nc\n', '@@ a', '+x')).toBe('a\nb\nc\nx\n');
    // Checked against the 0.171.0 binary: after trailing empty lines too, and after an unterminated one.
    expect(updated('a\n\n', '@@', '+x')).toBe('a\n\nx\n');
    expect(updated('a\nb', '@@', '+x')).toBe('a\nb\nx\n');
  });

  it('deletes lines (fixture 021_update_file_deletion_only)', () => {
    expect(updated('line1\nline2\nline3\n', '@@', ' line1', '-line2', ' line3')).toBe('line1\nline3\n');
  });

  it('with "*** End of File" matches only at the end (fixture 022, lib.rs)', () => {
    expect(updated('first\nsecond\n', '@@', ' first', '-second', '+second updated', '*** End of File')).toBe(
      'first\nsecond updated\n',
    );
    expect(updated('x\ny\nx\n', '@@', '-x', '+z', '*** End of File')).toBe('x\ny\nz\n');
    expect(updated('x\ny\nx\n', '@@', '-x', '+z')).toBe('z\ny\nx\n');
    expect(updated('x\ny\n', '@@', '-x', '+z', '*** End of File')).toMatch(/^failed/);
    // Not before the "@@" line either (checked against the 0.171.0 binary).
    expect(updated('a', '@@ a', ' a', ' ', '*** End of File')).toMatch(/^failed/);
  });

  it('seeks the "@@" line first, then the chunk after it (lib.rs)', () => {
    const file = 'class A:\n  def f():\n    pass\nclass B:\n  def f():\n    pass\n';
    expect(updated(file, '@@ class B:', '-    pass', '+    return 1')).toBe(
      'class A:\n  def f():\n    pass\nclass B:\n  def f():\n    return 1\n',
    );
    expect(updated(file, '@@ class C:', '-    pass', '+    x')).toBe(
      "failed: Failed to find context 'class C:' in f.txt",
    );
  });

  it('matches loosely: trailing white space, then both ends, then Unicode punctuation (seek_sequence.rs, fixture 019)', () => {
    expect(updated('foo   \nbar\n', '@@', '-foo', '+FOO')).toBe('FOO\nbar\n');
    expect(updated('    foo\nbar\n', '@@', '-foo', '+FOO')).toBe('FOO\nbar\n');
    expect(updated('a \u2014 \u201Cb\u201D\n', '@@', '-a - "b"', '+ascii')).toBe('ascii\n');
    // An exact match anywhere wins over a loose one earlier.
    expect(updated('x \nx\n', '@@', '-x', '+y')).toBe('x \ny\n');
  });

  it('retries without a last empty old line that stands for the final newline (lib.rs)', () => {
    expect(updated('a\nb\n', '@@', '-b', '-', '+c', '+')).toBe('a\nc\n');
  });

  it('keeps CRLF: untouched lines keep their endings, written lines take the first line’s (text_file.rs)', () => {
    expect(updated('a\r\nb\r\nc\r\n', '@@', ' a', '-b', '+B', '+B2')).toBe('a\r\nB\r\nB2\r\nc\r\n');
    expect(updated('a\r\nb\nc\r\n', '@@', '-c', '+C')).toBe('a\r\nb\nC\r\n');
    expect(updated('a\nb\r\n', '@@', '-b', '+B')).toBe('a\nB\n');
  });

  it('ends a line at a lone CR too (checked against the 0.171.0 binary)', () => {
    expect(updated('x\r\r\n', '@@', '-x', '+y', '+z')).toBe('y\rz\r\r\n');
    expect(updated('a\nx\r\r\n', '@@', '-x', '+y')).toBe('a\ny\n\r\n');
    expect(updated('a\rb', '@@', '-a', '+A')).toBe('A\rb\r');
    expect(updated('a\nb\rc\n', '@@', '-b', '+B')).toBe('a\nB\nc\n');
    // In the patch only "\n" (and "\r\n") end a line: a CR inside a "+" line is written as it is.
    expect(updated('a\n', '@@', '-a', '+A\rB')).toBe('A\rB\n');
  });

  it('keeps a context line as the file has it, however loosely matched (checked against the 0.171.0 binary)', () => {
    expect(updated('a  \n', '@@', ' a', '+b')).toBe('a  \nb\n');
    expect(updated('x\na  \ny\n', '@@', ' x', ' a', '-y', '+Y')).toBe('x\na  \nY\n');
    expect(updated('a\r\nb\nc\n', '@@', ' b', '-c', '+C')).toBe('a\r\nb\nC\r\n');
    expect(updated('a', '@@', '  a', '+a')).toBe('a\na\n');
    // Only the edits between context lines are placed, in order with other chunks' edits.
    expect(updated('c\t', '@@', '+a', '@@', ' c\t', '+a ')).toBe('c\t\na\na \n');
  });

  it('refuses a patch naming one file twice (one review per file)', () => {
    const text = patch('*** Update File: f.txt', '@@', '-a', '+b', '*** Delete File: f.txt');
    expect(apply(text, { 'f.txt': 'a\n' })).toEqual({
      ok: false,
      reason: 'The patch changes f.txt more than once',
    });
  });
});
