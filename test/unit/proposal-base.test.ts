import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_FILE_BYTES } from '../../src-main/core/disk/disk-snapshot';
import { UnreviewableFileError, readProposalBase } from '../../src-main/core/review/proposal-base';
import { messageOf } from '../../shared/error-message';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-base-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('readProposalBase', () => {
  it('a missing file is a new file: { exists: false }', async () => {
    await expect(readProposalBase(path.join(dir, 'missing.txt'), [dir])).resolves.toStrictEqual({
      exists: false,
    });
    await expect(readProposalBase(path.join(dir, 'no', 'such', 'dir.txt'), [dir])).resolves.toStrictEqual({
      exists: false,
    });
  });

  it('reads text with a BOM, CRLF, lone CR and no final newline exactly', async () => {
    const text = '\uFEFFone\r\ntwo\rthree — ✓\r\n\r\nlast';
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, text, 'utf8');
    await expect(readProposalBase(file, [dir])).resolves.toStrictEqual({ exists: true, kind: 'text', text });
  });

  it('reads an empty file as existing empty text', async () => {
    const file = path.join(dir, 'empty.txt');
    writeFileSync(file, '');
    await expect(readProposalBase(file, [dir])).resolves.toStrictEqual({
      exists: true,
      kind: 'text',
      text: '',
    });
  });

  it('a binary file is reviewable as a whole: opaque "binary" with sha256 and size', async () => {
    const bytes = Buffer.from([0, 1, 2, 3, 255]);
    const file = path.join(dir, 'data.bin');
    writeFileSync(file, bytes);
    await expect(readProposalBase(file, [dir])).resolves.toStrictEqual({
      exists: true,
      kind: 'opaque',
      hash: sha256(bytes),
      size: 5,
      why: 'binary',
    });
  });

  it('a file that is not UTF-8 is opaque "not UTF-8"', async () => {
    const bytes = Buffer.from('na\xefve\n', 'latin1');
    const file = path.join(dir, 'latin1.txt');
    writeFileSync(file, bytes);
    await expect(readProposalBase(file, [dir])).resolves.toStrictEqual({
      exists: true,
      kind: 'opaque',
      hash: sha256(bytes),
      size: bytes.length,
      why: 'not UTF-8',
    });
  });

  it('refuses a file over maxBytes with "larger than", and reads one of exactly maxBytes', async () => {
    const file = path.join(dir, 'big.txt');
    writeFileSync(file, 'x'.repeat(101));
    await expect(readProposalBase(file, [dir], 100)).rejects.toBeInstanceOf(UnreviewableFileError);
    await expect(readProposalBase(file, [dir], 100)).rejects.toThrow('larger than the 100 bytes limit');
    await expect(readProposalBase(file, [dir], 100)).rejects.toThrow(file);
    await expect(readProposalBase(file, [dir], 101)).resolves.toStrictEqual({
      exists: true,
      kind: 'text',
      text: 'x'.repeat(101),
    });
  });

  it('states the default limit in MB', async () => {
    expect(MAX_FILE_BYTES).toBe(10 * 1024 * 1024);
    const file = path.join(dir, 'big.txt');
    writeFileSync(file, 'x'.repeat(2 * 1024 * 1024 + 1));
    await expect(readProposalBase(file, [dir], 2 * 1024 * 1024)).rejects.toThrow(
      'larger than the 2 MB limit',
    );
  });

  it('a too-large binary file is refused too (size is checked before content)', async () => {
    const file = path.join(dir, 'big.bin');
    writeFileSync(file, Buffer.alloc(200));
    await expect(readProposalBase(file, [dir], 100)).rejects.toThrow(/larger than/);
  });

  it('refuses a directory with UnreviewableFileError naming it', async () => {
    const sub = path.join(dir, 'folder');
    mkdirSync(sub);
    const error = await readProposalBase(sub, [dir]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreviewableFileError);
    expect(error).toBeInstanceOf(Error);
    expect(messageOf(error)).toContain(sub);
  });

  it.skipIf(process.getuid?.() === 0)('refuses an unreadable file with UnreviewableFileError', async () => {
    const file = path.join(dir, 'locked.txt');
    writeFileSync(file, 'secret');
    chmodSync(file, 0o000);
    try {
      await expect(readProposalBase(file, [dir])).rejects.toBeInstanceOf(UnreviewableFileError);
    } finally {
      chmodSync(file, 0o600);
    }
  });
});
