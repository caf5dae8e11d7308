/**
 * Core's one writer (FileWriter): atomic writes and checked deletes, confined to the workspace at the
 * moment of use. The attack cases swap symlinks in after the path was checked, as an agent that can
 * write in the workspace could between a proposal and the person's decision.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileWriter } from '../../src-main/core/disk/file-writer';
import type { DiskSnapshot } from '../../src-main/core/disk/disk-snapshot';
import { WriteJournal } from '../../src-main/core/undo/write-journal';
import { makeTempDir } from '../support/temp';

let cleanup: () => void;
let ws: string;
let outside: string;
let journalDir: string;
let files: FileWriter;

const text = (t: string): DiskSnapshot => ({ exists: true, kind: 'text', text: t });
const ABSENT: DiskSnapshot = { exists: false };
const modeOf = (p: string) => statSync(p).mode & 0o777;
/** Everything in a folder, temp files included. */
const entries = (dir: string) => readdirSync(dir).sort();

beforeEach(() => {
  const temp = makeTempDir('unit-apply');
  cleanup = temp.cleanup;
  const root = realpathSync(temp.dir);
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  journalDir = path.join(root, 'journal');
  mkdirSync(ws);
  mkdirSync(outside);
  files = new FileWriter([ws], new WriteJournal(journalDir));
});

afterEach(() => cleanup());

describe('writing', () => {
  it('replaces the content through a rename (a new inode), leaving no temp file and no journal note', async () => {
    const file = path.join(ws, 'a.txt');
    writeFileSync(file, 'old\n');
    const inode = statSync(file).ino;
    const result = await files.apply({ path: file, expected: text('old\n'), target: text('new ✓\n') });
    expect(result).toEqual({
      status: 'applied',
      applied_hash: createHash('sha256').update('new ✓\n').digest('hex'),
    });
    expect(readFileSync(file, 'utf8')).toBe('new ✓\n');
    expect(statSync(file).ino).not.toBe(inode);
    expect(entries(ws)).toEqual(['a.txt']);
    expect(entries(journalDir)).toEqual([]);
  });

  it('keeps the permission bits of the file it replaces, whatever the umask', async () => {
    for (const mode of [0o600, 0o640, 0o664, 0o666, 0o755, 0o777, 0o444]) {
      const file = path.join(ws, `m${mode.toString(8)}`);
      writeFileSync(file, 'x');
      chmodSync(file, mode);
      expect((await files.apply({ path: file, expected: text('x'), target: text('y') })).status).toBe(
        'applied',
      );
      expect(modeOf(file)).toBe(mode);
      expect(readFileSync(file, 'utf8')).toBe('y');
    }
  });

  it('creates a new file and its missing parent folders', async () => {
    const file = path.join(ws, 'src', 'deep', 'new.ts');
    expect((await files.apply({ path: file, expected: ABSENT, target: text('export {};\n') })).status).toBe(
      'applied',
    );
    expect(readFileSync(file, 'utf8')).toBe('export {};\n');
    expect(modeOf(file)).toBe(0o666 & ~process.umask());
  });

  it('keeps text exactly: BOM, CRLF, no final newline', async () => {
    const file = path.join(ws, 'bom.txt');
    const bom = '\uFEFFline one\r\nline two';
    await files.apply({ path: file, expected: ABSENT, target: text(bom) });
    expect(readFileSync(file, 'utf8')).toBe(bom);
  });

  it('refuses, writing nothing and leaving no temp file, when the file changed', async () => {
    const file = path.join(ws, 'a.txt');
    writeFileSync(file, 'edited meanwhile\n');
    const result = await files.apply({ path: file, expected: text('base\n'), target: text('final\n') });
    expect(result).toMatchObject({ status: 'conflict', code: 'changed_on_disk' });
    expect(result.status !== 'applied' && result.reason).toMatch(/changed on disk since it was reviewed/);
    expect(readFileSync(file, 'utf8')).toBe('edited meanwhile\n');
    expect(entries(ws)).toEqual(['a.txt']);
  });

  it('refuses when the file was deleted, and when a new file appeared meanwhile', async () => {
    const gone = path.join(ws, 'gone.txt');
    expect(await files.apply({ path: gone, expected: text('base'), target: text('final') })).toMatchObject({
      status: 'conflict',
    });
    expect(entries(ws)).toEqual([]);
    const appeared = path.join(ws, 'appeared.txt');
    writeFileSync(appeared, 'someone else');
    expect(await files.apply({ path: appeared, expected: ABSENT, target: text('mine') })).toMatchObject({
      status: 'conflict',
    });
    expect(readFileSync(appeared, 'utf8')).toBe('someone else');
  });

  it('refuses to write over a folder, and leaves nothing behind', async () => {
    const dir = path.join(ws, 'dir');
    mkdirSync(dir);
    expect(await files.apply({ path: dir, expected: ABSENT, target: text('x') })).toMatchObject({
      status: 'refused',
      code: 'not_regular_file',
    });
    expect(entries(ws)).toEqual(['dir']);
  });

  it('only checks when the target is what is there: nothing is written', async () => {
    const file = path.join(ws, 'same.txt');
    writeFileSync(file, 'same');
    const inode = statSync(file).ino;
    expect(await files.apply({ path: file, expected: text('same'), target: text('same') })).toMatchObject({
      status: 'applied',
      unchanged: true,
    });
    expect(statSync(file).ino).toBe(inode);
  });
});

describe('deleting', () => {
  it('deletes the file when it still holds the expected text, leaving nothing behind', async () => {
    const file = path.join(ws, 'gone.txt');
    writeFileSync(file, 'old\n');
    expect(await files.apply({ path: file, expected: text('old\n'), target: ABSENT })).toEqual({
      status: 'applied',
      deleted: true,
    });
    expect(entries(ws)).toEqual([]);
    expect(entries(journalDir)).toEqual([]);
  });

  it('puts the file back untouched, keeping its mode and inode, when it changed meanwhile', async () => {
    const file = path.join(ws, 'kept.txt');
    writeFileSync(file, 'edited by hand\n');
    chmodSync(file, 0o640);
    const inode = statSync(file).ino;
    expect(await files.apply({ path: file, expected: text('old\n'), target: ABSENT })).toMatchObject({
      status: 'conflict',
    });
    expect(readFileSync(file, 'utf8')).toBe('edited by hand\n');
    expect(modeOf(file)).toBe(0o640);
    expect(statSync(file).ino).toBe(inode);
    expect(entries(ws)).toEqual(['kept.txt']);
  });

  it('is done when an absent file was expected, and a conflict when an expected file is missing', async () => {
    const file = path.join(ws, 'never', 'never.txt');
    expect((await files.apply({ path: file, expected: ABSENT, target: ABSENT })).status).toBe('applied');
    expect(await files.apply({ path: file, expected: text('old\n'), target: ABSENT })).toMatchObject({
      status: 'conflict',
    });
  });
});

// Finding 1 of issue 7: the writer resolved the path again at write time but never re-checked it was
// inside the workspace, and rename() followed a symlinked parent. Each of these wrote or deleted the
// outside file before the fix.
describe('symlinks swapped in after the path was checked', () => {
  it('a new file whose name became a symlink to a file outside: refused, the outside file untouched', async () => {
    const secret = path.join(outside, 'secret.txt');
    writeFileSync(secret, 'outside\n');
    const file = path.join(ws, 'newA.txt');
    // Proposed as a new file (absent); the agent then plants a link where it will be written.
    symlinkSync(secret, file);
    const result = await files.apply({ path: file, expected: ABSENT, target: text('agent text\n') });
    expect(result.status).not.toBe('applied');
    expect(readFileSync(secret, 'utf8')).toBe('outside\n');
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it('a link to an outside file that holds exactly the expected text: still refused', async () => {
    const secret = path.join(outside, 'secret.txt');
    writeFileSync(secret, 'base\n');
    const file = path.join(ws, 'a.txt');
    symlinkSync(secret, file);
    const result = await files.apply({ path: file, expected: text('base\n'), target: text('final\n') });
    expect(result).toMatchObject({ status: 'refused', code: 'not_regular_file' });
    expect(readFileSync(secret, 'utf8')).toBe('base\n');
  });

  it('a folder swapped for a symlink to an outside folder: refused, nothing written outside', async () => {
    mkdirSync(path.join(ws, 'sub'));
    writeFileSync(path.join(ws, 'sub', 'f.txt'), 'base\n');
    writeFileSync(path.join(outside, 'f.txt'), 'base\n');
    const file = path.join(ws, 'sub', 'f.txt');
    // The checked real path was <ws>/sub/f.txt; now <ws>/sub points outside.
    renameSync(path.join(ws, 'sub'), path.join(ws, 'sub-moved'));
    symlinkSync(outside, path.join(ws, 'sub'));
    for (const target of [text('final\n'), ABSENT]) {
      const result = await files.apply({ path: file, expected: text('base\n'), target });
      expect(result).toMatchObject({ status: 'refused' });
      expect(readFileSync(path.join(outside, 'f.txt'), 'utf8')).toBe('base\n');
      expect(entries(outside)).toEqual(['f.txt']);
    }
  });

  it('a new file in a new folder, where the folder became a symlink to outside: refused', async () => {
    symlinkSync(outside, path.join(ws, 'newdir'));
    const result = await files.apply({
      path: path.join(ws, 'newdir', 'x.txt'),
      expected: ABSENT,
      target: text('x'),
    });
    expect(result.status).toBe('refused');
    expect(entries(outside)).toEqual([]);
  });

  it('a deletion whose name became a symlink to an outside file: the outside file is not deleted', async () => {
    const secret = path.join(outside, 'secret.txt');
    writeFileSync(secret, 'old\n');
    const file = path.join(ws, 'gone.txt');
    symlinkSync(secret, file);
    const result = await files.apply({ path: file, expected: text('old\n'), target: ABSENT });
    expect(result.status).not.toBe('applied');
    expect(readFileSync(secret, 'utf8')).toBe('old\n');
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it('the workspace folder itself, given through a symlink, still works', async () => {
    const linked = path.join(path.dirname(ws), 'ws-link');
    symlinkSync(ws, linked);
    const viaLink = new FileWriter([linked], new WriteJournal(undefined));
    writeFileSync(path.join(ws, 'a.txt'), 'a');
    expect(
      (await viaLink.apply({ path: path.join(ws, 'a.txt'), expected: text('a'), target: text('b') })).status,
    ).toBe('applied');
    expect(readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('b');
  });
});

// Finding 5 of issue 7: reads opened before they looked, and a FIFO blocked the open (and, four at once,
// every later file read of the app).
describe.skipIf(process.platform === 'win32')('things that are not regular files', () => {
  it('a FIFO where the file was: refused at once, without waiting for a writer', async () => {
    const fifo = path.join(ws, 'pipe.txt');
    execFileSync('mkfifo', [fifo]);
    for (let i = 0; i < 6; i++) {
      expect(await files.apply({ path: fifo, expected: text('x'), target: text('y') })).toMatchObject({
        status: 'refused',
        code: 'not_regular_file',
      });
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(existsSync(path.join(ws, 'pipe.txt'))).toBe(true);
  });
});

describe('within narrower folders (watch mode: its folder)', () => {
  it('writes inside them; a folder swapped for a link to elsewhere in the workspace is not written through', async () => {
    const watched = path.join(ws, 'watched');
    const other = path.join(ws, 'other');
    mkdirSync(path.join(watched, 'inner', 'deep'), { recursive: true });
    mkdirSync(path.join(other, 'deep'), { recursive: true });
    const file = path.join(watched, 'inner', 'deep', 'a.txt');
    writeFileSync(file, 'reviewed\n');
    expect(
      await files.apply({
        path: file,
        expected: text('reviewed\n'),
        target: text('put back\n'),
        within: [watched],
      }),
    ).toMatchObject({ status: 'applied' });
    expect(readFileSync(file, 'utf8')).toBe('put back\n');

    writeFileSync(path.join(other, 'deep', 'a.txt'), 'reviewed\n');
    renameSync(path.join(watched, 'inner'), path.join(ws, 'moved'));
    symlinkSync(other, path.join(watched, 'inner'));
    const result = await files.apply({
      path: file,
      expected: text('reviewed\n'),
      target: text('put back\n'),
      within: [watched],
    });
    expect(result).toMatchObject({ status: 'refused', code: 'outside_workspace' });
    expect(readFileSync(path.join(other, 'deep', 'a.txt'), 'utf8')).toBe('reviewed\n');
    // Without `within`, the workspace is the bound: the same write goes through there.
    expect(
      await files.apply({ path: file, expected: text('reviewed\n'), target: text('put back\n') }),
    ).toMatchObject({ status: 'applied' });
  });

  it('the narrower folder itself swapped for a link to elsewhere in the workspace: judged by its old name, not written through', async () => {
    const watched = path.join(ws, 'watched');
    const other = path.join(ws, 'other');
    mkdirSync(path.join(other, 'deep'), { recursive: true });
    writeFileSync(path.join(other, 'deep', 'a.txt'), 'reviewed\n');
    symlinkSync(other, watched);
    const result = await files.apply({
      path: path.join(watched, 'deep', 'a.txt'),
      expected: text('reviewed\n'),
      target: text('put back\n'),
      within: [watched],
    });
    expect(result).toMatchObject({ status: 'refused', code: 'outside_workspace' });
    expect(readFileSync(path.join(other, 'deep', 'a.txt'), 'utf8')).toBe('reviewed\n');
  });

  it('recreates the narrower folder itself when it was deleted (a rejected deletion of the whole folder)', async () => {
    const watched = path.join(ws, 'watched');
    const file = path.join(watched, 'deep', 'a.txt');
    const result = await files.apply({
      path: file,
      expected: ABSENT,
      target: text('put back\n'),
      within: [watched],
    });
    expect(result).toMatchObject({ status: 'applied' });
    expect(readFileSync(file, 'utf8')).toBe('put back\n');
  });

  it('a folder given as `within` that is not inside the workspace widens nothing', async () => {
    const file = path.join(outside, 'a.txt');
    writeFileSync(file, 'outside\n');
    const result = await files.apply({
      path: file,
      expected: text('outside\n'),
      target: text('changed\n'),
      within: [outside],
    });
    expect(result).toMatchObject({ status: 'refused', code: 'outside_workspace' });
    expect(readFileSync(file, 'utf8')).toBe('outside\n');
  });
});
