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
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GEMINI_STALE_RULE, QWEN_STALE_RULE } from '../../src-main/bridge/gemini-ide/discovery';
import {
  OwnedLockFile,
  isProcessAlive,
  removeStaleLockFiles,
  writeFileAtomically,
} from '../../src-main/bridge/lock-files';
import { closedPort } from '../support/ports';

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

  it('with keepExistingFolderMode, creates missing folders 0700 but leaves an existing one as it is', () => {
    const created = path.join(root, 'made', 'ide');
    writeFileAtomically(path.join(created, '1.lock'), 'x', 0o600, { keepExistingFolderMode: true });
    expect(modeOf(created)).toBe(0o700);
    expect(modeOf(path.dirname(created))).toBe(0o700);

    const existing = path.join(root, 'users-own');
    mkdirSync(existing);
    chmodSync(existing, 0o755);
    const file = path.join(existing, '2.lock');
    writeFileAtomically(file, 'y', 0o600, { keepExistingFolderMode: true });
    expect(modeOf(existing)).toBe(0o755);
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
  /** A DiffTray lock file as the bridge writes it: port in the name, ideName 'DiffTray'. */
  const ours = (pid: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ pid, workspaceFolders: [], ideName: 'DiffTray', transport: 'ws', ...extra });

  it('removes a DiffTray lock of a dead process whose port nothing answers, and reports it', async () => {
    const port = await closedPort();
    const file = writeLock(root, `${port}.lock`, ours(deadPid()));
    expect(await removeStaleLockFiles(root)).toEqual([file]);
    expect(existsSync(file)).toBe(false);
  });

  it('keeps a lock whose process is alive', async () => {
    const file = writeLock(root, `${await closedPort()}.lock`, ours(process.pid));
    expect(await removeStaleLockFiles(root)).toEqual([]);
    expect(existsSync(file)).toBe(true);
  });

  it('keeps locks with pid 0, -1 or any non-positive-integer pid', async () => {
    const port = await closedPort();
    const kept = [0, -1, 1.5, -4242, '123', null].map((pid, i) =>
      writeLock(root, `${i}.lock`, ours(pid, { port })),
    );
    expect(await removeStaleLockFiles(root)).toEqual([]);
    for (const file of kept) expect(existsSync(file)).toBe(true);
  });

  it('keeps a dead-pid lock whose port still accepts a loopback connection (a DiffTray in another pid namespace)', async () => {
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const byName = writeLock(root, `${port}.lock`, ours(deadPid()));
      const byField = writeLock(root, 'native.lock', ours(deadPid(), { port }));
      expect(await removeStaleLockFiles(root)).toEqual([]);
      expect(existsSync(byName)).toBe(true);
      expect(existsSync(byField)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('never removes other programs’ lock files, however dead their pid', async () => {
    const dead = deadPid();
    const port = await closedPort();
    const kept = [
      writeLock(root, `${port}.lock`, JSON.stringify({ pid: dead, ideName: 'Visual Studio Code' })),
      writeLock(root, 'noname.lock', JSON.stringify({ pid: dead, port })),
      writeLock(root, 'vim.lock', JSON.stringify({ pid: dead, port, ideName: 'difftray' })),
    ];
    expect(await removeStaleLockFiles(root)).toEqual([]);
    for (const file of kept) expect(existsSync(file)).toBe(true);
  });

  it('keeps unparsable locks, non-.lock files, folders and links', async () => {
    const dead = deadPid();
    const port = await closedPort();
    const target = writeLock(root, 'target.json', ours(dead, { port }));
    symlinkSync(target, path.join(root, `${port}.lock`));
    const kept = [
      writeLock(root, 'garbage.lock', 'not json {'),
      writeLock(root, 'empty.lock', ''),
      writeLock(root, 'null.lock', 'null'),
      writeLock(root, 'notes.txt', ours(dead, { port })),
      writeLock(root, '4002.lock.bak', ours(dead, { port })),
      path.join(root, `${port}.lock`),
      target,
    ];
    mkdirSync(path.join(root, 'dir.lock'));
    const stale = writeLock(root, 'stale.lock', ours(dead, { port }));

    expect(await removeStaleLockFiles(root)).toEqual([stale]);
    for (const file of kept) expect(existsSync(file)).toBe(true);
    expect(existsSync(path.join(root, 'dir.lock'))).toBe(true);
  });

  it('Qwen’s rule reads ppid; Gemini’s reads pid and port from the name and DiffTray from ideInfo', async () => {
    const dead = deadPid();
    const port = await closedPort();
    const qwen = writeLock(root, `${port}.lock`, JSON.stringify({ port, ppid: dead, ideName: 'DiffTray' }));
    expect(await removeStaleLockFiles(root, QWEN_STALE_RULE)).toEqual([qwen]);

    const ideInfo = { name: 'difftray', displayName: 'DiffTray' };
    const gemini = writeLock(
      root,
      `gemini-ide-server-${dead}-${port}.json`,
      JSON.stringify({ port, ideInfo }),
    );
    const vscode = writeLock(
      root,
      `gemini-ide-server-${dead}-${port + 1}.json`,
      JSON.stringify({ port: port + 1, ideInfo: { name: 'vscode', displayName: 'VS Code' } }),
    );
    expect(await removeStaleLockFiles(root, GEMINI_STALE_RULE)).toEqual([gemini]);
    expect(existsSync(vscode)).toBe(true);
  });

  it('returns an empty list for a missing folder', async () => {
    expect(await removeStaleLockFiles(path.join(root, 'nope'))).toEqual([]);
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

  it('removes stale DiffTray locks in its folder once written, keeping live ones and its own', async () => {
    const port = await closedPort();
    const stale = writeLock(root, `${port}.lock`, JSON.stringify({ pid: deadPid(), ideName: 'DiffTray' }));
    const live = writeLock(root, '2222.lock', JSON.stringify({ pid: process.pid, ideName: 'DiffTray' }));
    const lock = new OwnedLockFile(path.join(root, '3333.lock'), { pid: process.pid, ideName: 'DiffTray' });
    expect(await lock.staleRemoved).toEqual([stale]);
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
