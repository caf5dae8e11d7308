/** The atomic file writer DiffTray uses where it writes files itself (Clio, native change sets). */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  lstatSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deleteFileIfUnchanged,
  FileChangedError,
  writeFileAtomically,
  writeFileIfUnchanged,
} from '../../src-main/core/file-writer';

let root: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-writer-')));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const modeOf = (p: string) => statSync(p).mode & 0o777;
/** Everything in a folder, temp files included. */
const entries = (dir: string) => readdirSync(dir).sort();

describe('writeFileAtomically', () => {
  it('replaces the content through a rename (a new inode), leaving no temp file', async () => {
    const file = path.join(root, 'a.txt');
    writeFileSync(file, 'old\n');
    const inode = statSync(file).ino;
    await writeFileAtomically(file, 'new ✓\n');
    expect(readFileSync(file, 'utf8')).toBe('new ✓\n');
    expect(statSync(file).ino).not.toBe(inode);
    expect(entries(root)).toEqual(['a.txt']);
  });

  it('keeps the permission bits of the file it replaces, whatever the umask', async () => {
    for (const mode of [0o600, 0o640, 0o664, 0o666, 0o755, 0o777, 0o444]) {
      const file = path.join(root, `m${mode.toString(8)}`);
      writeFileSync(file, 'x');
      chmodSync(file, mode);
      await writeFileAtomically(file, 'y');
      expect(modeOf(file)).toBe(mode);
      expect(readFileSync(file, 'utf8')).toBe('y');
    }
  });

  it('creates a new file and its missing parent folders', async () => {
    const file = path.join(root, 'src', 'deep', 'new.ts');
    await writeFileAtomically(file, 'export {};\n');
    expect(readFileSync(file, 'utf8')).toBe('export {};\n');
    // An ordinary new file: 0666 less the umask.
    const umask = process.umask();
    expect(modeOf(file)).toBe(0o666 & ~umask);
  });

  it('writes through a symlink to its target, keeping the link', async () => {
    const target = path.join(root, 'target.txt');
    const link = path.join(root, 'link.txt');
    writeFileSync(target, 'old');
    symlinkSync(target, link);
    await writeFileAtomically(link, 'new');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('new');
  });

  it('refuses to write over a directory, and leaves nothing behind', async () => {
    const dir = path.join(root, 'dir');
    mkdirSync(dir);
    await expect(writeFileAtomically(dir, 'x')).rejects.toThrow(/Not a regular file/);
    expect(entries(root)).toEqual(['dir']);
  });

  it('fails cleanly when the parent folder cannot be created', async () => {
    // A "folder" that is a file: mkdir fails before any temp file exists.
    writeFileSync(path.join(root, 'plain'), '');
    await expect(writeFileAtomically(path.join(root, 'plain', 'child.txt'), 'x')).rejects.toThrow();
    expect(entries(root)).toEqual(['plain']);
  });

  it('keeps text exactly: BOM, CRLF, no final newline', async () => {
    const file = path.join(root, 'bom.txt');
    const text = '\uFEFFline one\r\nline two';
    await writeFileAtomically(file, text);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

describe('writeFileIfUnchanged', () => {
  it('writes when the file still holds the expected text', async () => {
    const file = path.join(root, 'a.txt');
    writeFileSync(file, 'base\n');
    await writeFileIfUnchanged(file, { exists: true, kind: 'text', text: 'base\n' }, 'final\n');
    expect(readFileSync(file, 'utf8')).toBe('final\n');
  });

  it('refuses, writing nothing and leaving no temp file, when the file changed', async () => {
    const file = path.join(root, 'a.txt');
    writeFileSync(file, 'edited meanwhile\n');
    const attempt = writeFileIfUnchanged(file, { exists: true, kind: 'text', text: 'base\n' }, 'final\n');
    await expect(attempt).rejects.toBeInstanceOf(FileChangedError);
    await expect(attempt).rejects.toThrow(/changed on disk since it was reviewed/);
    expect(readFileSync(file, 'utf8')).toBe('edited meanwhile\n');
    expect(entries(root)).toEqual(['a.txt']);
  });

  it('refuses when the file was deleted, and when a new file appeared meanwhile', async () => {
    const gone = path.join(root, 'gone.txt');
    await expect(
      writeFileIfUnchanged(gone, { exists: true, kind: 'text', text: 'base' }, 'final'),
    ).rejects.toBeInstanceOf(FileChangedError);
    expect(entries(root)).toEqual([]);

    const appeared = path.join(root, 'appeared.txt');
    writeFileSync(appeared, 'someone else');
    await expect(writeFileIfUnchanged(appeared, { exists: false }, 'mine')).rejects.toBeInstanceOf(
      FileChangedError,
    );
    expect(readFileSync(appeared, 'utf8')).toBe('someone else');
  });

  it('creates a file that is expected to be absent', async () => {
    const file = path.join(root, 'new', 'file.txt');
    await writeFileIfUnchanged(file, { exists: false }, 'hello');
    expect(readFileSync(file, 'utf8')).toBe('hello');
  });
});

describe('deleteFileIfUnchanged', () => {
  const text = (t: string) => ({ exists: true as const, kind: 'text' as const, text: t });

  it('deletes the file when it still holds the expected text, leaving nothing behind', async () => {
    const file = path.join(root, 'gone.txt');
    writeFileSync(file, 'old\n');
    await deleteFileIfUnchanged(file, text('old\n'));
    expect(entries(root)).toEqual([]);
  });

  it('puts the file back untouched, keeping its mode, when it changed meanwhile', async () => {
    const file = path.join(root, 'kept.txt');
    writeFileSync(file, 'edited by hand\n');
    chmodSync(file, 0o640);
    await expect(deleteFileIfUnchanged(file, text('old\n'))).rejects.toBeInstanceOf(FileChangedError);
    expect(readFileSync(file, 'utf8')).toBe('edited by hand\n');
    expect(modeOf(file)).toBe(0o640);
    expect(entries(root)).toEqual(['kept.txt']);
  });

  it('is done when an absent file was expected, and refuses when an expected file is missing', async () => {
    const file = path.join(root, 'never.txt');
    await deleteFileIfUnchanged(file, { exists: false });
    await expect(deleteFileIfUnchanged(file, text('old\n'))).rejects.toBeInstanceOf(FileChangedError);
  });
});
