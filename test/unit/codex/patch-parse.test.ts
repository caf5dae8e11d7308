import { describe, expect, it } from 'vitest';
import { parsePatch, type PatchHunk } from '../../../shared/codex/patch-parse';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

function hunks(text: string): PatchHunk[] {
  const parsed = parsePatch(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.hunks;
}

const refusal = (text: string): string => {
  const parsed = parsePatch(text);
  return parsed.ok ? 'parsed' : parsed.reason;
};

describe('parsePatch (Codex 0.171.0 apply_patch grammar)', () => {
  it('reads an added file line by line, each line ending in "\\n"', () => {
    expect(hunks(patch('*** Add File: a/b.txt', '+one', '+', '+three'))).toEqual([
      { kind: 'add', path: 'a/b.txt', contents: 'one\n\nthree\n' },
    ]);
  });

  it('reads an added file with no lines as empty', () => {
    expect(hunks(patch('*** Add File: empty.txt'))).toEqual([
      { kind: 'add', path: 'empty.txt', contents: '' },
    ]);
  });

  it('reads a delete', () => {
    expect(hunks(patch('*** Delete File: gone.txt'))).toEqual([{ kind: 'delete', path: 'gone.txt' }]);
  });

  it('reads an update with a move, context, removed and added lines and the end-of-file mark', () => {
    const text = patch(
      '*** Update File: a.txt',
      '*** Move to: b.txt',
      '@@ class A',
      ' keep',
      '-old',
      '+new',
      '*** End of File',
    );
    expect(hunks(text)).toEqual([
      {
        kind: 'update',
        path: 'a.txt',
        movePath: 'b.txt',
        chunks: [
          {
            changeContext: 'class A',
            oldLines: ['keep', 'old'],
            newLines: ['keep', 'new'],
            contextFrom: [0, null],
            isEndOfFile: true,
          },
        ],
      },
    ]);
  });

  it('takes one "@@" header per chunk: a second is refused (checked against the 0.171.0 binary)', () => {
    const [hunk] = hunks(patch('*** Update File: a.txt', '@@', '-x', '+y'));
    expect(hunk?.kind === 'update' && hunk.chunks[0]?.changeContext).toBeNull();
    const [spaced] = hunks(patch('*** Update File: a.txt', '@@  ', '-x', '+y'));
    expect(spaced?.kind === 'update' && spaced.chunks[0]?.changeContext).toBeNull();
    const [named] = hunks(patch('*** Update File: a.txt', '@@ b ', '-x', '+y'));
    expect(named?.kind === 'update' && named.chunks[0]?.changeContext).toBe('b ');
    expect(refusal(patch('*** Update File: a.txt', '@@ class A', '@@ def f', '-x', '+y'))).toBe(
      "Unexpected line found in update hunk: '@@ def f'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
    );
  });

  it('lets the first chunk leave out its "@@" but not a later one', () => {
    expect(hunks(patch('*** Update File: a.txt', '-x', '+y'))).toHaveLength(1);
    // A second chunk starts at the line that is not a change line; without "@@" it is refused.
    expect(refusal(patch('*** Update File: a.txt', '-x', '+y', 'oops'))).toMatch(
      /^Expected update hunk to start with a @@ context marker/,
    );
  });

  it('splits chunks at each "@@" and reads an empty line inside a chunk as an empty context line', () => {
    const [hunk] = hunks(patch('*** Update File: a.txt', '@@', ' a', '', '-b', '@@', '-c', '+d'));
    expect(hunk?.kind === 'update' && hunk.chunks).toEqual([
      {
        changeContext: null,
        oldLines: ['a', '', 'b'],
        newLines: ['a', ''],
        contextFrom: [0, 1],
        isEndOfFile: false,
      },
      { changeContext: null, oldLines: ['c'], newLines: ['d'], contextFrom: [null], isEndOfFile: false },
    ]);
  });

  it('reads several files in one patch, in order', () => {
    const text = patch(
      '*** Add File: new.txt',
      '+hi',
      '*** Update File: old.txt',
      '@@',
      '-a',
      '+b',
      '*** Delete File: x',
    );
    expect(hunks(text).map((h) => `${h.kind} ${h.path}`)).toEqual([
      'add new.txt',
      'update old.txt',
      'delete x',
    ]);
  });

  it('tolerates white space around the markers and file headers (fixtures 017, 018, 020)', () => {
    const text = '  *** Begin Patch \n  *** Update File: foo.txt\n@@\n-old\n+new\n *** End Patch\n';
    expect(hunks(text)).toHaveLength(1);
  });

  it('reads a CRLF patch as if it were LF (Rust str::lines)', () => {
    const text = patch('*** Update File: a.txt', '@@', '-x', '+y').replaceAll('\n', '\r\n');
    const [hunk] = hunks(text);
    expect(hunk?.kind === 'update' && hunk.chunks[0]?.newLines).toEqual(['y']);
  });

  it('takes off a bare heredoc wrapper (<<EOF, <<\'EOF\', <<"EOF")', () => {
    for (const opener of ['<<EOF', "<<'EOF'", '<<"EOF"']) {
      expect(hunks(`${opener}\n${patch('*** Delete File: x')}EOF\n`)).toEqual([
        { kind: 'delete', path: 'x' },
      ]);
    }
  });

  it('refuses malformed patches with Codex’s reasons', () => {
    expect(refusal('bad')).toBe("The first line of the patch must be '*** Begin Patch'");
    expect(refusal('*** Begin Patch\n*** Delete File: x\n')).toBe(
      "The last line of the patch must be '*** End Patch'",
    );
    expect(refusal(patch('*** Frobnicate File: x'))).toMatch(/is not a valid hunk header/);
    expect(refusal(patch('*** Update File: a.txt'))).toBe("Update file hunk for path 'a.txt' is empty");
    expect(refusal(patch('*** Update File: a.txt', '@@'))).toBe('Update hunk does not contain any lines');
    expect(refusal(patch('*** Update File: a.txt', '@@', '*** End of File'))).toBe(
      'Update hunk does not contain any lines',
    );
    expect(refusal(patch('*** Update File: a.txt', '@@', 'x'))).toMatch(
      /^Unexpected line found in update hunk/,
    );
    expect(refusal('<<PATCH\n' + patch('*** Delete File: x') + 'PATCH\n')).toMatch(/first line/);
  });

  it('parses a patch with no files (Codex then refuses to apply it, fixture 005)', () => {
    expect(hunks(patch())).toEqual([]);
  });
});
