import { describe, expect, it } from 'vitest';
import { BOM, detectLineEndings, replayEdit } from '../../../shared/claude-code/edit-replay';

const file_path = '/work/project/src/app.ts';
const edit = (old_string: string, new_string: string, replace_all?: boolean) => ({
  file_path,
  old_string,
  new_string,
  ...(replace_all !== undefined && { replace_all }),
});

/** The text Claude would write, or the reason it would not. */
function written(tool: string, input: unknown, fileText: string | null): string {
  const replay = replayEdit(tool, input, fileText);
  return replay.applies ? replay.proposed : `not applied: ${replay.reason}`;
}

const applies = (tool: string, input: unknown, fileText: string | null) =>
  replayEdit(tool, input, fileText).applies;

describe('Edit, as Claude Code 2.1.197 and 2.1.332 apply it', () => {
  it('replaces the one occurrence of old_string', () => {
    const replay = replayEdit('Edit', edit('b = 2', 'b = 3'), 'a = 1\nb = 2\nc = 3\n');
    expect(replay).toEqual({
      applies: true,
      base: 'a = 1\nb = 2\nc = 3\n',
      proposed: 'a = 1\nb = 3\nc = 3\n',
      isNewFile: false,
      lineEndings: 'LF',
    });
  });

  it('takes $ in new_string literally', () => {
    expect(written('Edit', edit('x', "$& $' $1 $$"), 'a x b')).toBe("a $& $' $1 $$ b");
  });

  it('replace_all replaces every occurrence; without it an ambiguous old_string does not apply', () => {
    expect(written('Edit', edit('foo', 'bar', true), 'foo();\nfoo();\n')).toBe('bar();\nbar();\n');
    expect(applies('Edit', edit('foo', 'bar'), 'foo();\nfoo();\n')).toBe(false);
    expect(applies('Edit', edit('foo', 'bar', false), 'foo();\nfoo();\n')).toBe(false);
  });

  it('counts occurrences as Claude does (split): overlapping ones are one, and the first is replaced', () => {
    expect(written('Edit', edit('aa', 'b'), 'aaa')).toBe('ba');
  });

  it('does not apply when old_string is missing or equal to new_string', () => {
    expect(replayEdit('Edit', edit('nope', 'yes'), 'a\n')).toEqual({
      applies: false,
      reason: 'old_string not found',
    });
    expect(applies('Edit', edit('a', 'a'), 'a\n')).toBe(false);
    expect(applies('Edit', edit('a', 'b'), null)).toBe(false);
  });

  it('does not apply to malformed input or to other tools', () => {
    expect(applies('Edit', { file_path, old_string: 1, new_string: 'x' }, 'a')).toBe(false);
    expect(applies('Edit', { old_string: 'a', new_string: 'x' }, 'a')).toBe(false);
    expect(applies('Edit', { ...edit('a', 'x'), replace_all: 'yes' }, 'a')).toBe(false);
    expect(applies('Bash', { command: 'ls' }, 'a')).toBe(false);
    expect(applies('Edit', null, 'a')).toBe(false);
  });

  it('creates a missing file from an empty old_string', () => {
    expect(replayEdit('Edit', edit('', 'hello\r\nworld'), null)).toEqual({
      applies: true,
      base: '',
      proposed: 'hello\r\nworld',
      isNewFile: true,
      lineEndings: 'LF',
    });
  });

  it('an empty old_string on an existing file applies only when the file is blank', () => {
    expect(written('Edit', edit('', 'filled\n'), ' \n\t\n')).toBe('filled\n');
    expect(written('Edit', edit('', 'filled\n'), '')).toBe('filled\n');
    expect(written('Edit', edit('', 'x'), 'content')).toBe(
      'not applied: cannot create the file: it already exists',
    );
    // Writing the same blank text back changes nothing.
    expect(applies('Edit', edit('', ' \n'), ' \n')).toBe(false);
  });

  it('an empty new_string deletes the line break after old_string too', () => {
    expect(written('Edit', edit('b = 2', ''), 'a = 1\nb = 2\nc = 3\n')).toBe('a = 1\nc = 3\n');
    // old_string already ends the line: only it goes.
    expect(written('Edit', edit('b = 2\n', ''), 'a = 1\nb = 2\nc = 3\n')).toBe('a = 1\nc = 3\n');
    // At the end of a file without a final newline there is no line break to take.
    expect(written('Edit', edit('c = 3', ''), 'a = 1\nc = 3')).toBe('a = 1\n');
    // A part of a line followed by a line break elsewhere: that occurrence (with its break) goes.
    expect(written('Edit', edit('x', '', true), 'x y\nz x\n')).toBe('x y\nz ');
  });

  it('keeps a missing final newline missing', () => {
    expect(written('Edit', edit('two', 'TWO'), 'one\ntwo')).toBe('one\nTWO');
  });

  it('keeps a byte-order mark in front, and does not find an old_string holding it (as 2.1.332)', () => {
    expect(written('Edit', edit('beta', 'BETA'), `${BOM}alpha\nbeta`)).toBe(`${BOM}alpha\nBETA`);
    expect(written('Edit', edit('alpha', 'ALPHA'), `${BOM}alpha\r\nbeta\r\n`)).toBe(
      `${BOM}ALPHA\r\nbeta\r\n`,
    );
    expect(written('Edit', edit('alpha\nbeta\n', ''), `${BOM}alpha\nbeta\n`)).toBe(BOM);
    // A mark in new_string goes after the kept one: both versions write two.
    expect(written('Edit', edit('alpha', `${BOM}ALPHA`), `${BOM}alpha\n`)).toBe(`${BOM}${BOM}ALPHA\n`);
    // 2.1.197 would match the mark; 2.1.332 reports the string missing: the stricter reading.
    expect(applies('Edit', edit(`${BOM}alpha`, 'ALPHA'), `${BOM}alpha\n`)).toBe(false);
  });

  it('works on CRLF files with "\\n" and writes every line back with "\\r\\n"', () => {
    const replay = replayEdit('Edit', edit('b\nc', 'B\nnew\nC'), 'a\r\nb\r\nc\r\n');
    expect(replay).toMatchObject({ applies: true, proposed: 'a\r\nB\r\nnew\r\nC\r\n', lineEndings: 'CRLF' });
    // old_string written with "\r\n" is not found in the "\n" text Claude edits.
    expect(applies('Edit', edit('b\r\nc', 'x'), 'a\r\nb\r\nc\r\n')).toBe(false);
    // A mostly-CRLF file comes back all CRLF.
    expect(written('Edit', edit('a', 'A'), 'a\r\nb\nc\r\n')).toBe('A\r\nb\r\nc\r\n');
    // A mostly-LF file loses its few "\r\n".
    expect(written('Edit', edit('a', 'A'), 'a\nb\r\nc\n')).toBe('A\nb\nc\n');
  });

  it('judges line endings on the first 4096 characters', () => {
    expect(detectLineEndings('a\r\nb\r\nc\n')).toBe('CRLF');
    expect(detectLineEndings('a\r\nb\nc\n')).toBe('LF');
    expect(detectLineEndings('a\r\nb\n')).toBe('LF');
    expect(detectLineEndings('')).toBe('LF');
    expect(detectLineEndings('x'.repeat(4096) + '\r\n\r\n')).toBe('LF');
    expect(detectLineEndings('a\r\n' + 'x'.repeat(4096) + '\n\n')).toBe('CRLF');
  });

  it('finds old_string written with straight quotes in a file with curly ones, and curls new_string', () => {
    const file = 'say “hello” to ‘them’\n';
    expect(written('Edit', edit('say "hello"', 'say "bye" ("now")'), file)).toBe(
      'say “bye” (“now”) to ‘them’\n',
    );
    expect(written('Edit', edit("to 'them'", "to 'us' and don't"), file)).toBe(
      'say “hello” to ‘us’ and don’t\n',
    );
  });

  it('curls quotes only when the file text differs from old_string', () => {
    expect(written('Edit', edit('“hello”', '"bye"'), 'say “hello”\n')).toBe('say "bye"\n');
  });

  it('curls by the opening rule: start, space, tab, line break, ( [ {, em and en dash', () => {
    const file = 'x = “old”;\n';
    expect(written('Edit', edit('"old"', '"a" ("b") ["c"] {"d"}\t"e"—"f"–"g"x"h"'), file)).toBe(
      'x = “a” (“b”) [“c”] {“d”}\t“e”—“f”–“g”x”h”;\n',
    );
  });

  it('finds old_string with \\u escapes in a file with the characters, and unescapes new_string', () => {
    const file = 'const s = "café";\n';
    expect(written('Edit', edit('"caf\\u00e9"', '"th\\u00e9"'), file)).toBe('const s = "thé";\n');
  });

  it('finds old_string with characters in a file with \\u escapes, and escapes new_string alike', () => {
    const file = 'const s = "caf\\u00E9";\n';
    expect(written('Edit', edit('"café"', '"thé ü"'), file)).toBe('const s = "th\\u00E9 \\u00FC";\n');
    expect(written('Edit', edit('"café"', '"x"'), 'const s = "caf\\u00e9";\n')).toBe('const s = "x";\n');
  });

  it('refuses notebooks (NotebookEdit edits them)', () => {
    expect(applies('Edit', { ...edit('a', 'b'), file_path: '/p/n.ipynb' }, 'a')).toBe(false);
  });
});

describe('MultiEdit', () => {
  const multi = (...edits: Array<{ old_string: string; new_string: string; replace_all?: boolean }>) => ({
    file_path,
    edits,
  });

  it('applies the edits in order, each to the text the previous one left', () => {
    expect(
      written(
        'MultiEdit',
        multi({ old_string: 'a', new_string: 'b' }, { old_string: 'b\nc', new_string: 'C' }),
        'a\nc\n',
      ),
    ).toBe('C\n');
  });

  it('an old_string inside an earlier new_string does not apply (trailing newlines aside)', () => {
    const input = multi(
      { old_string: 'one', new_string: 'two\nthree' },
      { old_string: 'three\n\n', new_string: 'x' },
    );
    expect(replayEdit('MultiEdit', input, 'one\nthree\n')).toEqual({
      applies: false,
      reason: 'an old_string is part of an earlier edit’s new_string',
    });
  });

  it('an edit that changes nothing, a missing or ambiguous old_string, or no edits: does not apply', () => {
    expect(applies('MultiEdit', multi({ old_string: 'a', new_string: 'a' }), 'a\n')).toBe(false);
    expect(applies('MultiEdit', multi({ old_string: 'z', new_string: 'a' }), 'a\n')).toBe(false);
    expect(applies('MultiEdit', multi({ old_string: 'a', new_string: 'b' }), 'a a\n')).toBe(false);
    expect(applies('MultiEdit', multi(), 'a\n')).toBe(false);
    expect(
      applies(
        'MultiEdit',
        multi({ old_string: 'a', new_string: 'b' }, { old_string: 'b', new_string: 'a' }),
        'a b\n',
      ),
    ).toBe(false);
  });

  it('replace_all, a new file from an empty old_string, and CRLF written back', () => {
    expect(
      written('MultiEdit', multi({ old_string: 'a', new_string: 'b', replace_all: true }), 'a a\n'),
    ).toBe('b b\n');
    expect(replayEdit('MultiEdit', multi({ old_string: '', new_string: 'x\ny' }), null)).toEqual({
      applies: true,
      base: '',
      proposed: 'x\ny',
      isNewFile: true,
      lineEndings: 'LF',
    });
    // Every later old_string lies in the first edit's new_string, so a second edit never applies.
    expect(
      applies(
        'MultiEdit',
        multi({ old_string: '', new_string: 'x\ny' }, { old_string: 'y', new_string: 'z' }),
        null,
      ),
    ).toBe(false);
    expect(written('MultiEdit', multi({ old_string: 'b', new_string: 'B\nb2' }), 'a\r\nb\r\n')).toBe(
      'a\r\nB\r\nb2\r\n',
    );
  });

  it('keeps a byte-order mark in front, as Edit does', () => {
    expect(written('MultiEdit', multi({ old_string: 'a', new_string: 'A' }), `${BOM}a\nb`)).toBe(
      `${BOM}A\nb`,
    );
    expect(applies('MultiEdit', multi({ old_string: `${BOM}a`, new_string: 'A' }), `${BOM}a\n`)).toBe(false);
  });
});

describe('Write', () => {
  it('writes content exactly; the base is the file or "" for a new one', () => {
    expect(replayEdit('Write', { file_path, content: 'x\r\ny\n' }, 'a\nb\n')).toEqual({
      applies: true,
      base: 'a\nb\n',
      proposed: 'x\r\ny\n',
      isNewFile: false,
      lineEndings: 'LF',
    });
    expect(replayEdit('Write', { file_path, content: 'new' }, null)).toMatchObject({
      applies: true,
      base: '',
      proposed: 'new',
      isNewFile: true,
    });
    expect(applies('Write', { file_path }, 'a')).toBe(false);
  });

  it('keeps the file’s byte-order mark in front of a content without one (as 2.1.332)', () => {
    expect(written('Write', { file_path, content: 'x\ny' }, `${BOM}a\nb\n`)).toBe(`${BOM}x\ny`);
    expect(written('Write', { file_path, content: `${BOM}x\n` }, `${BOM}a\n`)).toBe(`${BOM}x\n`);
    expect(written('Write', { file_path, content: `${BOM}x\n` }, 'a\n')).toBe(`${BOM}x\n`);
    expect(written('Write', { file_path, content: 'x\n' }, 'a\n')).toBe('x\n');
  });
});
