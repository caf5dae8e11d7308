/** Unified diffs: parsing (jsdiff) and strict application both ways (shared/unified-diff.ts). */
import { describe, expect, it } from 'vitest';
import {
  applyHunksStrictly,
  isGitStylePatch,
  judgeDisk,
  MalformedPatchError,
  neitherSideReason,
  parseUnifiedDiff,
  patchHunkAt,
} from '../../shared/unified-diff';

// `git diff` of: crlf.txt edited, del.txt deleted, new.txt added (git add -N), noeol.txt edited without
// a final newline, x.txt edited in two places.
const GIT_DIFF = [
  'diff --git a/crlf.txt b/crlf.txt',
  'index 4e349b5..24fe5dc 100644',
  '--- a/crlf.txt',
  '+++ b/crlf.txt',
  '@@ -1,2 +1,2 @@',
  ' one\r',
  '-two\r',
  '+TWO\r',
  'diff --git a/del.txt b/del.txt',
  'deleted file mode 100644',
  'index 286c5f5..0000000',
  '--- a/del.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-gone',
  'diff --git a/new.txt b/new.txt',
  'new file mode 100644',
  'index 0000000..3e75765',
  '--- /dev/null',
  '+++ b/new.txt',
  '@@ -0,0 +1 @@',
  '+new',
  'diff --git a/noeol.txt b/noeol.txt',
  'index da58862..7b7fea1 100644',
  '--- a/noeol.txt',
  '+++ b/noeol.txt',
  '@@ -1 +1 @@',
  '-no eol',
  '\\ No newline at end of file',
  '+no eol!',
  '\\ No newline at end of file',
  'diff --git a/x.txt b/x.txt',
  'index 27df8b9..1788993 100644',
  '--- a/x.txt',
  '+++ b/x.txt',
  '@@ -1,4 +1,4 @@',
  '-a',
  '+A',
  ' b',
  ' c',
  ' d',
  '@@ -8,4 +8,5 @@ g',
  ' h',
  ' i',
  ' j',
  '-k',
  '+K',
  '+L',
  '',
].join('\n');

const X_OLD = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n';
const X_NEW = 'A\nb\nc\nd\ne\nf\ng\nh\ni\nj\nK\nL\n';

describe('parseUnifiedDiff', () => {
  it('reads every file of a git diff: prefixes stripped, /dev/null and git headers for new and deleted files', () => {
    const files = parseUnifiedDiff(GIT_DIFF);
    expect(
      files.map(({ path, oldExists, newExists, binary }) => ({ path, oldExists, newExists, binary })),
    ).toEqual([
      { path: 'crlf.txt', oldExists: true, newExists: true, binary: false },
      { path: 'del.txt', oldExists: true, newExists: false, binary: false },
      { path: 'new.txt', oldExists: false, newExists: true, binary: false },
      { path: 'noeol.txt', oldExists: true, newExists: true, binary: false },
      { path: 'x.txt', oldExists: true, newExists: true, binary: false },
    ]);
    expect(files[4]!.hunks).toHaveLength(2);
    expect(isGitStylePatch(GIT_DIFF)).toBe(true);
  });

  it('keeps paths as they are without git prefixes (diff -u, git diff --no-prefix)', () => {
    const plain = '--- src/a.txt\t2024-01-01\n+++ src/a.txt\t2024-01-02\n@@ -1 +1 @@\n-x\n+y\n';
    expect(parseUnifiedDiff(plain).map((f) => f.path)).toEqual(['src/a.txt']);
    const prefixed = '--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1 +1 @@\n-x\n+y\n';
    expect(parseUnifiedDiff(prefixed).map((f) => f.path)).toEqual(['src/a.txt']);
    expect(isGitStylePatch(prefixed)).toBe(false);
  });

  it('refuses what is not a usable diff', () => {
    const bad = [
      '',
      'hello, this is not a patch\n',
      '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-x\n+y\n', // counts do not add up
      '@@ -1 +1 @@\n-x\n+y\n', // no file header
      '--- a/x\n+++ b/y\n@@ -1 +1 @@\n-x\n+y\n', // a rename
      '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-x\n+y\n--- a/x\n+++ b/x\n@@ -3 +3 @@\n-x\n+y\n', // twice
      '--- a/x\n+++ b/x\n@@ -5 +5 @@\n-x\n+y\n@@ -1 +1 @@\n-x\n+y\n', // out of order
    ];
    for (const text of bad)
      expect(() => parseUnifiedDiff(text), JSON.stringify(text)).toThrow(MalformedPatchError);
  });
});

describe('applyHunksStrictly', () => {
  const files = parseUnifiedDiff(GIT_DIFF);
  const hunks = (name: string) => files.find((f) => f.path === name)!.hunks;

  it('forward on the old side gives the new side; backward on the new side gives the old side', () => {
    expect(applyHunksStrictly(X_OLD, hunks('x.txt'))).toBe(X_NEW);
    expect(applyHunksStrictly(X_NEW, hunks('x.txt'), true)).toBe(X_OLD);
    expect(applyHunksStrictly('one\r\ntwo\r\n', hunks('crlf.txt'))).toBe('one\r\nTWO\r\n');
    expect(applyHunksStrictly('no eol', hunks('noeol.txt'))).toBe('no eol!');
    expect(applyHunksStrictly('no eol!', hunks('noeol.txt'), true)).toBe('no eol');
    expect(applyHunksStrictly('', hunks('new.txt'))).toBe('new\n');
    expect(applyHunksStrictly('new\n', hunks('new.txt'), true)).toBe('');
    expect(applyHunksStrictly('gone\n', hunks('del.txt'))).toBe('');
    expect(applyHunksStrictly('', hunks('del.txt'), true)).toBe('gone\n');
  });

  it('is strict: the wrong side, a shifted file, a changed context line, another line ending all fail', () => {
    expect(applyHunksStrictly(X_NEW, hunks('x.txt'))).toBeUndefined();
    expect(applyHunksStrictly(X_OLD, hunks('x.txt'), true)).toBeUndefined();
    expect(applyHunksStrictly(`zero\n${X_OLD}`, hunks('x.txt'))).toBeUndefined();
    expect(applyHunksStrictly(X_OLD.replace('c\n', 'C\n'), hunks('x.txt'))).toBeUndefined();
    expect(applyHunksStrictly('one\ntwo\n', hunks('crlf.txt'))).toBeUndefined();
    expect(applyHunksStrictly('no eol\n', hunks('noeol.txt'))).toBeUndefined();
  });

  it('judgeDisk: old side, new side (already applied), or neither, for edited, new and deleted files', () => {
    const file = (name: string) => files.find((f) => f.path === name)!;
    expect(judgeDisk(file('x.txt'), X_OLD)).toEqual({ side: 'old', oldText: X_OLD, newText: X_NEW });
    expect(judgeDisk(file('x.txt'), X_NEW)).toEqual({ side: 'new', oldText: X_OLD, newText: X_NEW });
    expect(judgeDisk(file('x.txt'), X_OLD.replace('c', 'C'))).toEqual({
      side: 'neither',
      why: 'changed',
      line: 3,
      fileLines: 11,
    });
    expect(judgeDisk(file('x.txt'), undefined)).toEqual({ side: 'neither', why: 'missing' });
    expect(judgeDisk(file('new.txt'), undefined)).toEqual({
      side: 'old',
      oldText: undefined,
      newText: 'new\n',
    });
    expect(judgeDisk(file('new.txt'), 'new\n')).toEqual({
      side: 'new',
      oldText: undefined,
      newText: 'new\n',
    });
    expect(judgeDisk(file('new.txt'), 'new\nmore\n')).toEqual({ side: 'neither', why: 'exists' });
    expect(judgeDisk(file('del.txt'), 'gone\n')).toEqual({
      side: 'old',
      oldText: 'gone\n',
      newText: undefined,
    });
    expect(judgeDisk(file('del.txt'), undefined)).toEqual({
      side: 'new',
      oldText: 'gone\n',
      newText: undefined,
    });
    expect(judgeDisk(file('del.txt'), 'gone\nand more\n')).toEqual({ side: 'neither', why: 'changed' });
  });

  it('a hunk with short context at one end is anchored there: an addition at the end is not found after itself', () => {
    const [append] = parseUnifiedDiff('--- a/b\n+++ b/b\n@@ -2,2 +2,3 @@\n two\n three\n+four\n');
    expect(applyHunksStrictly('one\ntwo\nthree\n', append!.hunks)).toBe('one\ntwo\nthree\nfour\n');
    expect(applyHunksStrictly('one\ntwo\nthree\nfour\n', append!.hunks)).toBeUndefined();
    expect(judgeDisk(append!, 'one\ntwo\nthree\nfour\n')).toMatchObject({
      side: 'new',
      oldText: 'one\ntwo\nthree\n',
    });
    const [prepend] = parseUnifiedDiff('--- a/b\n+++ b/b\n@@ -1,2 +1,3 @@\n+zero\n one\n two\n');
    expect(applyHunksStrictly('one\ntwo\nthree\n', prepend!.hunks)).toBe('zero\none\ntwo\nthree\n');
    expect(applyHunksStrictly('zero\none\ntwo\nthree\n', prepend!.hunks)).toBeUndefined();
  });

  it('maps a base line range to the patch hunk holding it', () => {
    expect(patchHunkAt(hunks('x.txt'), 0, 1)).toBe(0);
    expect(patchHunkAt(hunks('x.txt'), 10, 11)).toBe(1);
    expect(patchHunkAt(hunks('x.txt'), 5, 6)).toBeUndefined();
  });
});

describe('what a person is told about a patch', () => {
  // `git diff --binary` of a changed binary file, then a mode change, then an edit (real git output).
  const BINARY_PATCH = [
    'diff --git a/b.bin b/b.bin',
    'index 88768efdf77ec78c9a995f94881793be6a41752b..3e3315e1b02129d197721a8a0b56dd88862f454d 100644',
    'GIT binary patch',
    'literal 5',
    'McmZQzO3KUw00MIXJOBUy',
    '',
    'literal 5',
    'McmZQzOv=my00M6TI{*Lx',
    '',
    'diff --git a/t.txt b/t.txt',
    'old mode 100644',
    'new mode 100755',
    'diff --git a/u.txt b/u.txt',
    'index 1111111..2222222 100644',
    '--- a/u.txt',
    '+++ b/u.txt',
    '@@ -1 +1 @@',
    '-u',
    '+U',
    '',
  ].join('\n');

  it('a "GIT binary patch" (git diff --binary) is a binary change, like "Binary files … differ"', () => {
    const files = parseUnifiedDiff(BINARY_PATCH);
    expect(files.map(({ path, binary, hunks }) => ({ path, binary, hunks: hunks.length }))).toEqual([
      { path: 'b.bin', binary: true, hunks: 0 },
      { path: 't.txt', binary: false, hunks: 0 },
      { path: 'u.txt', binary: false, hunks: 1 },
    ]);
    const differ = 'diff --git a/b.bin b/b.bin\nindex 1..2 100644\nBinary files a/b.bin and b/b.bin differ\n';
    expect(parseUnifiedDiff(differ)).toMatchObject([{ path: 'b.bin', binary: true }]);
  });

  it('a file that matches neither side names the line where it stopped matching the patch', () => {
    const [edit] = parseUnifiedDiff('--- a/c.txt\n+++ b/c.txt\n@@ -4,3 +4,3 @@\n 4\n-X\n+Y\n 6\n');
    const disk = ['1', '2', '3', '4', '5', '6', '7', ''].join('\n');
    const judged = judgeDisk(edit!, disk);
    expect(judged).toEqual({ side: 'neither', why: 'changed', line: 5, fileLines: 7 });
    expect(judged.side === 'neither' && neitherSideReason(judged)).toBe(
      'changed on disk since the diff was made: line 5 does not match the patch',
    );
    // Shorter than the hunk: said as such.
    const short = judgeDisk(edit!, '1\n2\n');
    expect(short).toEqual({ side: 'neither', why: 'changed', line: 4, fileLines: 2 });
    expect(short.side === 'neither' && neitherSideReason(short)).toBe(
      'changed on disk since the diff was made: the file ends at line 2, before line 4 of the patch',
    );
    expect(neitherSideReason({ side: 'neither', why: 'missing' })).toBe('not found on disk');
  });
});
