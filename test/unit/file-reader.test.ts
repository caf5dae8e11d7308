import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  MAX_FILE_BYTES,
  UnreviewableFileError,
  looksBinary,
  readBaseText,
} from '../../src-main/core/file-reader';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-reader-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('readBaseText', () => {
  it('gives an empty, non-existing text for a missing file', async () => {
    await expect(readBaseText(path.join(dir, 'missing.txt'))).resolves.toEqual({ text: '', exists: false });
    await expect(readBaseText(path.join(dir, 'no', 'such', 'dir.txt'))).resolves.toEqual({
      text: '',
      exists: false,
    });
  });

  it('reads text with a BOM, CRLF, lone CR, no final newline and non-ASCII back exactly', async () => {
    const text = '\uFEFFfirst line\r\nsecond\rthird — café ✓ 😀\r\n\r\nlast without newline';
    const file = path.join(dir, 'text.txt');
    writeFileSync(file, text, 'utf8');
    const result = await readBaseText(file);
    expect(result.exists).toBe(true);
    expect(result.text).toBe(text);
    expect(result.text.charCodeAt(0)).toBe(0xfeff);
    expect(result.text.length).toBe(text.length);
  });

  it('reads an existing empty file as existing', async () => {
    const file = path.join(dir, 'empty.txt');
    writeFileSync(file, '');
    await expect(readBaseText(file)).resolves.toEqual({ text: '', exists: true });
  });

  it('follows a symlink to a file', async () => {
    writeFileSync(path.join(dir, 'real.txt'), 'hello\n');
    symlinkSync(path.join(dir, 'real.txt'), path.join(dir, 'link.txt'));
    await expect(readBaseText(path.join(dir, 'link.txt'))).resolves.toEqual({
      text: 'hello\n',
      exists: true,
    });
  });

  it('refuses text that is not UTF-8 (it would be altered on the way back)', async () => {
    const file = path.join(dir, 'latin1.txt');
    writeFileSync(file, Buffer.from('caf\xe9\n', 'latin1'));
    await expect(readBaseText(file)).rejects.toThrow(/not UTF-8 text/);
  });

  it('refuses a binary file (NUL byte)', async () => {
    const file = path.join(dir, 'image.bin');
    writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0a]));
    await expect(readBaseText(file)).rejects.toBeInstanceOf(UnreviewableFileError);
    await expect(readBaseText(file)).rejects.toThrow(/[Bb]inary/);
  });

  it('refuses a text file with a single NUL in the middle of the first 8 KiB', async () => {
    const file = path.join(dir, 'mostly-text.txt');
    writeFileSync(file, 'a'.repeat(4000) + '\0' + 'b'.repeat(100));
    await expect(readBaseText(file)).rejects.toBeInstanceOf(UnreviewableFileError);
  });

  it('refuses a file over maxBytes, and accepts one of exactly maxBytes', async () => {
    const file = path.join(dir, 'big.txt');
    writeFileSync(file, 'x'.repeat(101));
    await expect(readBaseText(file, 100)).rejects.toBeInstanceOf(UnreviewableFileError);
    await expect(readBaseText(file, 100)).rejects.toThrow(/larger than 100 bytes/);
    await expect(readBaseText(file, 101)).resolves.toEqual({ text: 'x'.repeat(101), exists: true });
  });

  it('measures maxBytes in bytes, not characters', async () => {
    const file = path.join(dir, 'wide.txt');
    writeFileSync(file, 'é'.repeat(60)); // 120 bytes, 60 characters
    await expect(readBaseText(file, 100)).rejects.toBeInstanceOf(UnreviewableFileError);
  });

  it('has a 10 MiB default limit', () => {
    expect(MAX_FILE_BYTES).toBe(10 * 1024 * 1024);
  });

  it('refuses a directory', async () => {
    const sub = path.join(dir, 'folder');
    mkdirSync(sub);
    await expect(readBaseText(sub)).rejects.toBeInstanceOf(UnreviewableFileError);
  });

  it.skipIf(process.getuid?.() === 0)('refuses an unreadable file with UnreviewableFileError', async () => {
    const file = path.join(dir, 'locked.txt');
    writeFileSync(file, 'secret');
    chmodSync(file, 0o000);
    try {
      await expect(readBaseText(file)).rejects.toBeInstanceOf(UnreviewableFileError);
    } finally {
      chmodSync(file, 0o600);
    }
  });

  it('UnreviewableFileError is an Error naming the file', async () => {
    const file = path.join(dir, 'b.bin');
    writeFileSync(file, Buffer.from([0]));
    const error = await readBaseText(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(file);
  });
});

describe('looksBinary', () => {
  it('finds a NUL in the first 8 KiB only', () => {
    expect(looksBinary(new Uint8Array([]))).toBe(false);
    expect(looksBinary(new Uint8Array([0]))).toBe(true);
    expect(looksBinary(Buffer.from('plain text\n'))).toBe(false);
    const late = new Uint8Array(9000).fill(0x61);
    late[8191] = 0;
    expect(looksBinary(late)).toBe(true);
    late[8191] = 0x61;
    late[8192] = 0;
    expect(looksBinary(late)).toBe(false);
  });
});
