import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { DiskSnapshot } from '../../src-main/core/disk/disk-snapshot';
import {
  MAX_FILE_BYTES,
  UnreadableFileError,
  hashBytes,
  looksBinary,
  readConfinedSnapshot,
  readDiskSnapshot,
  readListedFileIn,
  sameContent,
} from '../../src-main/core/disk/disk-snapshot';
import { ConfinedDirectory } from '../../src-main/core/disk/confined-directory';
import { PathOutsideWorkspaceError } from '../../src-main/core/workspace/workspace-paths';
import { messageOf } from '../../shared/error-message';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-snapshot-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('readDiskSnapshot', () => {
  it('gives { exists: false } for a missing file, also under a missing folder', async () => {
    await expect(readDiskSnapshot(path.join(dir, 'missing.txt'))).resolves.toStrictEqual({ exists: false });
    await expect(readDiskSnapshot(path.join(dir, 'no', 'such', 'dir.txt'))).resolves.toStrictEqual({
      exists: false,
    });
  });

  it('reads text with a BOM, CRLF, lone CR, no final newline and non-ASCII back exactly', async () => {
    const text = '\uFEFFfirst line\r\nsecond\rthird — café ✓ 😀\r\n\r\nlast without newline';
    const file = path.join(dir, 'text.txt');
    writeFileSync(file, text, 'utf8');
    const snapshot = await readDiskSnapshot(file);
    expect(snapshot).toStrictEqual({ exists: true, kind: 'text', text });
    if (snapshot.exists && snapshot.kind === 'text') {
      expect(snapshot.text.charCodeAt(0)).toBe(0xfeff);
      expect(snapshot.text.length).toBe(text.length);
    }
  });

  it('keeps a BOM every time, not just on the first read (shared decoder)', async () => {
    const file = path.join(dir, 'bom.txt');
    writeFileSync(file, '\uFEFFx\n');
    for (let i = 0; i < 3; i++) {
      await expect(readDiskSnapshot(file)).resolves.toStrictEqual({
        exists: true,
        kind: 'text',
        text: '\uFEFFx\n',
      });
    }
  });

  it('reads an existing empty file as existing empty text', async () => {
    const file = path.join(dir, 'empty.txt');
    writeFileSync(file, '');
    await expect(readDiskSnapshot(file)).resolves.toStrictEqual({ exists: true, kind: 'text', text: '' });
  });

  // Callers resolve symlinks before they check a path; a link in the final name now was swapped in since.
  it('refuses a symlink in the final name, even to a file beside it', async () => {
    writeFileSync(path.join(dir, 'real.txt'), 'hello\n');
    symlinkSync(path.join(dir, 'real.txt'), path.join(dir, 'link.txt'));
    await expect(readDiskSnapshot(path.join(dir, 'link.txt'))).rejects.toThrow(/symbolic link/);
  });

  it('a binary file (NUL byte) is opaque "binary" with its sha256 and size', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0a]);
    const file = path.join(dir, 'image.png');
    writeFileSync(file, bytes);
    await expect(readDiskSnapshot(file)).resolves.toStrictEqual({
      exists: true,
      kind: 'opaque',
      hash: sha256(bytes),
      size: 6,
      why: 'binary',
    });
  });

  it('a text file with a single NUL in the middle of the first 8 KiB is binary', async () => {
    const file = path.join(dir, 'mostly-text.txt');
    writeFileSync(file, 'a'.repeat(4000) + '\0' + 'b'.repeat(100));
    await expect(readDiskSnapshot(file)).resolves.toMatchObject({
      kind: 'opaque',
      why: 'binary',
      size: 4101,
    });
  });

  it('text that is not UTF-8 is opaque "not UTF-8" (it would be altered on the way back)', async () => {
    const bytes = Buffer.from('caf\xe9\n', 'latin1');
    const file = path.join(dir, 'latin1.txt');
    writeFileSync(file, bytes);
    await expect(readDiskSnapshot(file)).resolves.toStrictEqual({
      exists: true,
      kind: 'opaque',
      hash: sha256(bytes),
      size: bytes.length,
      why: 'not UTF-8',
    });
  });

  it('a file over maxBytes is opaque "too large"; one of exactly maxBytes is read', async () => {
    const file = path.join(dir, 'big.txt');
    writeFileSync(file, 'x'.repeat(101));
    const big = await readDiskSnapshot(file, 100);
    expect(big).toMatchObject({ exists: true, kind: 'opaque', size: 101, why: 'too large' });
    expect(big.exists && big.kind === 'opaque' && big.hash).toMatch(/^[0-9a-f]{64}$/);
    await expect(readDiskSnapshot(file, 101)).resolves.toStrictEqual({
      exists: true,
      kind: 'text',
      text: 'x'.repeat(101),
    });
  });

  it('measures maxBytes in bytes, not characters', async () => {
    const file = path.join(dir, 'wide.txt');
    writeFileSync(file, 'é'.repeat(60)); // 120 bytes, 60 characters
    await expect(readDiskSnapshot(file, 100)).resolves.toMatchObject({ why: 'too large', size: 120 });
  });

  it('reads a file of several MiB whole, byte for byte', async () => {
    const file = path.join(dir, 'several-mib.txt');
    const text = Array.from({ length: 60_000 }, (_, i) => `line ${i} ${'é'.repeat(i % 40)}`).join('\n');
    writeFileSync(file, text);
    await expect(readDiskSnapshot(file)).resolves.toStrictEqual({ exists: true, kind: 'text', text });
  });

  // A file whose size says 0 yet has content (Linux /proc files): read to the end, not by its size.
  it.runIf(process.platform === 'linux')('reads a file past the size fstat gave for it', async () => {
    const snapshot = await readDiskSnapshot('/proc/self/status');
    expect(snapshot.exists && snapshot.kind === 'text' && snapshot.text).toMatch(/^Name:.*\n[\s\S]*Pid:/);
    await expect(readDiskSnapshot('/proc/self/status', 10)).resolves.toMatchObject({ why: 'too large' });
  });

  it('a file read again with the content of `known` gives `known` itself; changed content gives a new one', async () => {
    const file = path.join(dir, 'again.txt');
    writeFileSync(file, 'same\n');
    // Just written: its timestamps cannot vouch for the first read, so the second reads it again.
    const first = await readDiskSnapshot(file);
    await expect(readDiskSnapshot(file, MAX_FILE_BYTES, first)).resolves.toBe(first);
    writeFileSync(file, 'other\n');
    const changed = await readDiskSnapshot(file, MAX_FILE_BYTES, first);
    expect(changed).not.toBe(first);
    expect(changed).toStrictEqual({ exists: true, kind: 'text', text: 'other\n' });
  });

  it('has a 10 MiB default limit', () => {
    expect(MAX_FILE_BYTES).toBe(10 * 1024 * 1024);
  });

  it('refuses a directory with UnreadableFileError naming it', async () => {
    const sub = path.join(dir, 'folder');
    mkdirSync(sub);
    const error = await readDiskSnapshot(sub).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableFileError);
    expect(error).toBeInstanceOf(Error);
    expect(messageOf(error)).toContain(sub);
  });

  it('refuses a path through a regular file (not ENOENT) with UnreadableFileError', async () => {
    writeFileSync(path.join(dir, 'plain'), 'x');
    await expect(readDiskSnapshot(path.join(dir, 'plain', 'child.txt'))).rejects.toBeInstanceOf(
      UnreadableFileError,
    );
  });

  it.skipIf(process.getuid?.() === 0)('refuses an unreadable file with UnreadableFileError', async () => {
    const file = path.join(dir, 'locked.txt');
    writeFileSync(file, 'secret');
    chmodSync(file, 0o000);
    try {
      await expect(readDiskSnapshot(file)).rejects.toBeInstanceOf(UnreadableFileError);
    } finally {
      chmodSync(file, 0o600);
    }
  });
});

describe('hashBytes', () => {
  it('is the hex sha256 of the bytes', () => {
    expect(hashBytes(new Uint8Array([]))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(hashBytes(Buffer.from('abc'))).toBe(sha256(Buffer.from('abc')));
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

  it('does not take other control bytes or high bytes for binary', () => {
    expect(looksBinary(new Uint8Array([0x01, 0x1b, 0x7f, 0xff, 0xe9]))).toBe(false);
  });

  it('looks at the bytes of a view only, not at the rest of the memory it views', () => {
    const memory = new Uint8Array([0, 0x61, 0x62, 0, 0x63]);
    expect(looksBinary(memory.subarray(1, 3))).toBe(false);
    expect(looksBinary(memory.subarray(1, 4))).toBe(true);
  });
});

describe('sameContent', () => {
  const absent: DiskSnapshot = { exists: false };
  const text = (t: string): DiskSnapshot => ({ exists: true, kind: 'text', text: t });
  const opaque = (hash: string, why: 'binary' | 'not UTF-8' | 'too large' = 'binary'): DiskSnapshot => ({
    exists: true,
    kind: 'opaque',
    hash,
    size: 4,
    why,
  });

  it('two absent files are the same; absent and present never are', () => {
    expect(sameContent(absent, { exists: false })).toBe(true);
    expect(sameContent(absent, text(''))).toBe(false);
    expect(sameContent(text(''), absent)).toBe(false);
    expect(sameContent(absent, opaque('h'))).toBe(false);
    expect(sameContent(opaque('h'), absent)).toBe(false);
  });

  it('texts compare exactly (line endings and BOM included)', () => {
    expect(sameContent(text('a\n'), text('a\n'))).toBe(true);
    expect(sameContent(text('a\n'), text('a\r\n'))).toBe(false);
    expect(sameContent(text('\uFEFFa'), text('a'))).toBe(false);
    expect(sameContent(text(''), text(''))).toBe(true);
  });

  it('opaque snapshots compare by hash', () => {
    expect(sameContent(opaque('h1'), opaque('h1'))).toBe(true);
    expect(sameContent(opaque('h1'), opaque('h2'))).toBe(false);
    expect(sameContent(opaque('h1', 'binary'), opaque('h1', 'not UTF-8'))).toBe(true);
  });

  it('text and opaque are never the same, whatever the text', () => {
    const bytes = Buffer.from('abc');
    expect(sameContent(text('abc'), opaque(hashBytes(bytes)))).toBe(false);
    expect(sameContent(opaque(hashBytes(bytes)), text('abc'))).toBe(false);
  });

  it('agrees with reads of real files', async () => {
    const a = path.join(dir, 'a.bin');
    const b = path.join(dir, 'b.bin');
    writeFileSync(a, Buffer.from([1, 0, 2]));
    writeFileSync(b, Buffer.from([1, 0, 2]));
    expect(sameContent(await readDiskSnapshot(a), await readDiskSnapshot(b))).toBe(true);
    writeFileSync(b, Buffer.from([1, 0, 3]));
    expect(sameContent(await readDiskSnapshot(a), await readDiskSnapshot(b))).toBe(false);
    writeFileSync(a, 'same\n');
    writeFileSync(b, 'same\n');
    expect(sameContent(await readDiskSnapshot(a), await readDiskSnapshot(b))).toBe(true);
  });
});

// Issue 7, finding 5: reads opened before they looked, so a FIFO blocked its read until a writer came,
// and four at once took every thread of libuv's pool: every later file read of the app hung.
describe.skipIf(process.platform === 'win32')('things that are not regular files', () => {
  it('FIFOs are refused at once, and file reads go on working after many of them', async () => {
    const fifos = [1, 2, 3, 4, 5, 6].map((n) => path.join(dir, `pipe${n}`));
    for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
    const results = await Promise.allSettled(fifos.map((fifo) => readDiskSnapshot(fifo)));
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect(String((result as PromiseRejectedResult).reason)).toMatch(
        /named pipe \(FIFO\), not a regular file/,
      );
    }
    writeFileSync(path.join(dir, 'plain.txt'), 'still readable\n');
    await expect(readDiskSnapshot(path.join(dir, 'plain.txt'))).resolves.toMatchObject({
      text: 'still readable\n',
    });
  });

  it('a device, a socket and a folder are refused, each named for what it is', async () => {
    await expect(readDiskSnapshot('/dev/null')).rejects.toThrow(/A device, not a regular file/);
    mkdirSync(path.join(dir, 'folder'));
    await expect(readDiskSnapshot(path.join(dir, 'folder'))).rejects.toThrow(/A folder, not a regular file/);
    const server = net.createServer();
    const socketPath = path.join(dir, 'ipc.sock');
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      await expect(readDiskSnapshot(socketPath)).rejects.toThrow(/A socket, not a regular file/);
    } finally {
      server.close();
    }
  });
});

describe('readConfinedSnapshot', () => {
  it('reads inside the workspace, refuses outside, and a missing folder means a missing file', async () => {
    const ws = path.join(dir, 'ws');
    mkdirSync(ws);
    writeFileSync(path.join(ws, 'a.txt'), 'a');
    writeFileSync(path.join(dir, 'secret.txt'), 'secret');
    await expect(readConfinedSnapshot(path.join(ws, 'a.txt'), [ws])).resolves.toMatchObject({ text: 'a' });
    await expect(readConfinedSnapshot(path.join(dir, 'secret.txt'), [ws])).rejects.toBeInstanceOf(
      PathOutsideWorkspaceError,
    );
    await expect(readConfinedSnapshot(path.join(ws, 'no', 'such.txt'), [ws])).resolves.toEqual({
      exists: false,
    });
  });

  it('a folder swapped for a symlink to outside after the check is not read through', async () => {
    const ws = path.join(dir, 'ws');
    const outside = path.join(dir, 'outside');
    mkdirSync(ws);
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'key'), 'PRIVATE');
    // The path was checked as <ws>/sub/key (a real folder then); now <ws>/sub points outside.
    symlinkSync(outside, path.join(ws, 'sub'));
    const read = readConfinedSnapshot(path.join(ws, 'sub', 'key'), [ws]);
    await expect(read).rejects.toThrow();
    await expect(read.catch((error: Error) => error.message)).resolves.not.toContain('PRIVATE');
  });
});

// The walk reads files its folder listing gave as regular files without a look (lstat) of their own:
// whatever is swapped in between the listing and the open must still be refused, not followed or waited on.
describe.skipIf(process.platform === 'win32')('readListedFileIn', () => {
  async function listedThenSwapped(
    swap: (file: string) => Promise<void> | void,
  ): Promise<UnreadableFileError> {
    const ws = path.join(dir, 'ws');
    mkdirSync(ws);
    const file = path.join(ws, 'file.txt');
    writeFileSync(file, 'listed\n');
    const directory = await ConfinedDirectory.open(ws, [ws]);
    try {
      const listed = (await directory.listEntries()).find((entry) => entry.name === 'file.txt');
      expect(listed?.isFile()).toBe(true);
      rmSync(file);
      await swap(file);
      const read = readListedFileIn(directory, 'file.txt', MAX_FILE_BYTES);
      const refused = await read.then(
        (snapshot) => snapshot,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(UnreadableFileError);
      return refused as UnreadableFileError;
    } finally {
      await directory.close();
    }
  }

  it('reads a listed regular file', async () => {
    const ws = path.join(dir, 'ws');
    mkdirSync(ws);
    writeFileSync(path.join(ws, 'file.txt'), 'listed\n');
    const directory = await ConfinedDirectory.open(ws, [ws]);
    try {
      await expect(readListedFileIn(directory, 'file.txt', MAX_FILE_BYTES)).resolves.toEqual({
        exists: true,
        kind: 'text',
        text: 'listed\n',
      });
      await expect(readListedFileIn(directory, 'gone.txt', MAX_FILE_BYTES)).resolves.toEqual({
        exists: false,
      });
    } finally {
      await directory.close();
    }
  });

  it('a symlink to a file outside swapped in after the listing is refused, its target unread', async () => {
    writeFileSync(path.join(dir, 'secret.txt'), 'PRIVATE');
    const { message, entry } = await listedThenSwapped((file) =>
      symlinkSync(path.join(dir, 'secret.txt'), file),
    );
    expect(message).toMatch(/A symbolic link, not a regular file: .*ws\/file\.txt/);
    expect(entry).toBe('symlink');
    expect(message).not.toContain('PRIVATE');
  });

  it('a FIFO swapped in after the listing is refused at once, named for what it is', async () => {
    const { message, entry } = await listedThenSwapped((file) => {
      execFileSync('mkfifo', [file]);
    });
    expect(message).toMatch(/A named pipe \(FIFO\), not a regular file/);
    expect(entry).toBe('special');
  });

  it('a folder or a socket swapped in after the listing is refused, named for what it is', async () => {
    const folder = await listedThenSwapped((file) => mkdirSync(file));
    expect(folder.message).toMatch(/A folder, not a regular file/);
    expect(folder.entry).toBe('folder');
    rmSync(path.join(dir, 'ws'), { recursive: true });
    const server = net.createServer();
    try {
      const { message, entry } = await listedThenSwapped(
        (file) => new Promise<void>((resolve) => server.listen(file, resolve)),
      );
      expect(message).toMatch(/A socket, not a regular file/);
      expect(entry).toBe('special');
    } finally {
      server.close();
    }
  });
});
