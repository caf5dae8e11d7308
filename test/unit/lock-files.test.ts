import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  OwnedLockFile,
  isProcessAlive,
  removeStaleLockFiles,
  writeFileAtomically,
} from '../../src-main/bridge/lock-files';

let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-locks-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const modeOf = (p: string) => statSync(p).mode & 0o777;

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync('true');
  expect(child.pid).toBeGreaterThan(0);
  expect(isProcessAlive(child.pid!)).toBe(false);
  return child.pid!;
}

function writeLock(dir: string, name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

describe('writeFileAtomically', () => {
  it('creates missing folders with mode 0700 and the file with mode 0600', () => {
    const dir = path.join(root, 'ide');
    const file = path.join(dir, '1234.lock');
    writeFileAtomically(file, '{"pid":1}');
    expect(readFileSync(file, 'utf8')).toBe('{"pid":1}');
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('tightens an existing 0755 folder to 0700', () => {
    const dir = path.join(root, 'loose');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    expect(modeOf(dir)).toBe(0o755);
    const file = path.join(dir, 'x.lock');
    writeFileAtomically(file, 'content');
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
  });

  it('replaces an existing file, which ends up 0600 even if it was 0644', () => {
    const file = path.join(root, 'x.lock');
    writeFileSync(file, 'old', { mode: 0o644 });
    chmodSync(file, 0o644);
    writeFileAtomically(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(modeOf(file)).toBe(0o600);
  });

  it('leaves no temporary file behind', () => {
    const dir = path.join(root, 'clean');
    writeFileAtomically(path.join(dir, 'a.lock'), 'a');
    writeFileAtomically(path.join(dir, 'a.lock'), 'b');
    writeFileAtomically(path.join(dir, 'b.lock'), 'c');
    expect(readdirSync(dir).sort()).toEqual(['a.lock', 'b.lock']);
  });

  it('cleans up its temporary file when the rename fails', () => {
    const dir = path.join(root, 'fail');
    // The target is a non-empty directory, so the rename onto it fails.
    mkdirSync(path.join(dir, 'target.lock', 'inner'), { recursive: true });
    expect(() => writeFileAtomically(path.join(dir, 'target.lock'), 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['target.lock']);
  });

  it('writes an exact multi-line UTF-8 payload', () => {
    const file = path.join(root, 'u.lock');
    const content = JSON.stringify({ workspaceFolders: ['/tmp/ünï'], authToken: 'x' }, null, 2) + '\n';
    writeFileAtomically(file, content);
    expect(readFileSync(file, 'utf8')).toBe(content);
  });
});

describe('isProcessAlive', () => {
  it('is true for this process and false for an exited one', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(deadPid())).toBe(false);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('is false for the non-pid %s', (pid) => {
    expect(isProcessAlive(pid)).toBe(false);
  });
});

describe('removeStaleLockFiles', () => {
  it('removes a lock of a dead process and reports it', () => {
    const file = writeLock(root, '4000.lock', JSON.stringify({ pid: deadPid(), workspaceFolders: [] }));
    expect(removeStaleLockFiles(root)).toEqual([file]);
    expect(existsSync(file)).toBe(false);
  });

  it('keeps a lock whose process is alive', () => {
    const file = writeLock(root, '4001.lock', JSON.stringify({ pid: process.pid }));
    expect(removeStaleLockFiles(root)).toEqual([]);
    expect(existsSync(file)).toBe(true);
  });

  it('keeps unparsable locks, locks without a numeric pid, and non-.lock files', () => {
    const dead = deadPid();
    const kept = [
      writeLock(root, 'garbage.lock', 'not json {'),
      writeLock(root, 'empty.lock', ''),
      writeLock(root, 'nopid.lock', JSON.stringify({ port: 1 })),
      writeLock(root, 'stringpid.lock', JSON.stringify({ pid: String(dead) })),
      writeLock(root, 'null.lock', 'null'),
      writeLock(root, 'notes.txt', JSON.stringify({ pid: dead })),
      writeLock(root, '4002.lock.bak', JSON.stringify({ pid: dead })),
    ];
    mkdirSync(path.join(root, 'dir.lock'));
    const stale = writeLock(root, '4003.lock', JSON.stringify({ pid: dead }));

    expect(removeStaleLockFiles(root)).toEqual([stale]);
    for (const file of kept) expect(existsSync(file)).toBe(true);
    expect(existsSync(path.join(root, 'dir.lock'))).toBe(true);
    expect(existsSync(stale)).toBe(false);
  });

  it('returns an empty list for a missing folder', () => {
    expect(removeStaleLockFiles(path.join(root, 'nope'))).toEqual([]);
  });
});

describe('OwnedLockFile', () => {
  it('writes its content as JSON with mode 0600 in a 0700 folder', () => {
    const dir = path.join(root, 'ide');
    const content = { pid: process.pid, workspaceFolders: ['/ws'], ideName: 'DiffTray', authToken: 't' };
    const lock = new OwnedLockFile(path.join(dir, '5555.lock'), content);
    expect(lock.file).toBe(path.join(dir, '5555.lock'));
    expect(JSON.parse(readFileSync(lock.file, 'utf8'))).toEqual(content);
    expect(modeOf(lock.file)).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('removes stale locks of dead processes in its folder on creation, keeping live ones', () => {
    const stale = writeLock(root, '1111.lock', JSON.stringify({ pid: deadPid() }));
    const live = writeLock(root, '2222.lock', JSON.stringify({ pid: process.pid }));
    const lock = new OwnedLockFile(path.join(root, '3333.lock'), { pid: process.pid });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(lock.file)).toBe(true);
  });

  it('remove() deletes the file and is idempotent', () => {
    const lock = new OwnedLockFile(path.join(root, '6666.lock'), { pid: process.pid });
    expect(existsSync(lock.file)).toBe(true);
    lock.remove();
    expect(existsSync(lock.file)).toBe(false);
    expect(() => lock.remove()).not.toThrow();
    expect(existsSync(lock.file)).toBe(false);
  });

  it('remove() does not throw if the file is already gone', () => {
    const lock = new OwnedLockFile(path.join(root, '7777.lock'), { pid: process.pid });
    rmSync(lock.file);
    expect(() => lock.remove()).not.toThrow();
  });

  it('a second remove() does not delete a file someone else wrote at that path since', () => {
    const lock = new OwnedLockFile(path.join(root, '8888.lock'), { pid: process.pid });
    lock.remove();
    writeFileSync(lock.file, 'someone else');
    lock.remove();
    expect(readFileSync(lock.file, 'utf8')).toBe('someone else');
  });
});
