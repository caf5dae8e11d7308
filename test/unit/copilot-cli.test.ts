/**
 * Copilot CLI's lock file: where it goes (COPILOT_HOME moves it, XDG does not), its stale copies of dead
 * DiffTrays removed while other IDEs' files and live sockets stay; and how a decided review is answered.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copilotLockDir } from '../../src-main/bridge/copilot-cli';
import { COPILOT_STALE_RULE, writeCopilotLockFile } from '../../src-main/bridge/copilot-cli/discovery';
import { makeSocketFolder, removeSocketFolder } from '../../src-main/bridge/copilot-cli/socket-folder';
import { CLOSED_VIA_TOOL, diffAnswer, stillConfined } from '../../src-main/bridge/copilot-cli/tools';
import { isProcessAlive, removeStaleLockFiles } from '../../src-main/bridge/lock-files';
import type { ReviewOutcome } from '../../src-main/core/review/review-record';

let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-copilot-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function deadPid(): number {
  const child = spawnSync('true');
  expect(isProcessAlive(child.pid!)).toBe(false);
  return child.pid!;
}

const lock = (name: string, content: Record<string, unknown>) => {
  const file = path.join(root, name);
  writeFileSync(file, JSON.stringify(content));
  return file;
};

describe('copilotLockDir', () => {
  it('is ~/.copilot/ide, moved whole by COPILOT_HOME, not by XDG_CONFIG_HOME or XDG_STATE_HOME', () => {
    expect(copilotLockDir({}, '/home/u')).toBe('/home/u/.copilot/ide');
    expect(copilotLockDir({ COPILOT_HOME: '/data/copilot' }, '/home/u')).toBe('/data/copilot/ide');
    expect(copilotLockDir({ XDG_CONFIG_HOME: '/x', XDG_STATE_HOME: '/y' }, '/home/u')).toBe(
      '/home/u/.copilot/ide',
    );
  });
});

describe('stale Copilot lock files', () => {
  it("removes DiffTray's lock of a dead process whose socket is gone, keeps a live socket's and other IDEs'", async () => {
    const dead = deadPid();
    const stale = lock('stale.lock', {
      ideName: 'DiffTray',
      pid: dead,
      socketPath: path.join(root, 'gone.sock'),
    });
    const vscode = lock('vscode.lock', { ideName: 'Visual Studio Code', pid: dead, socketPath: '/nowhere' });
    const socketPath = path.join(root, 'live.sock');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    const live = lock('live.lock', { ideName: 'DiffTray', pid: dead, socketPath });
    try {
      const mine = writeCopilotLockFile(root, {
        socketPath: '/tmp/x.sock',
        nonce: 'n',
        workspaceFolders: ['/w'],
      });
      expect(await mine.staleRemoved).toEqual([stale]);
      expect([existsSync(vscode), existsSync(live), existsSync(mine.file)]).toEqual([true, true, true]);
      mine.remove();
      expect(existsSync(mine.file)).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // Its socket closed: now that one is stale too.
    expect(await removeStaleLockFiles(root, COPILOT_STALE_RULE)).toEqual([live]);
  });
});

describe("a crashed DiffTray's socket folder", () => {
  /** A socket left on disk by a process killed while it listened, as a crash leaves it. */
  function leftBehindSocket(socketPath: string): void {
    const script = `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`;
    spawnSync(process.execPath, ['-e', script]);
    expect(lstatSync(socketPath).isSocket()).toBe(true);
  }

  /** A socket folder as DiffTray makes them on Unix. */
  function socketFolder(parent: string): { socketDir: string; socketPath: string } {
    const { socketDir, socketPath } = makeSocketFolder(parent, 'linux');
    expect(statSync(socketDir!).mode & 0o777).toBe(0o700);
    return { socketDir: socketDir!, socketPath };
  }

  it('is removed with its stale lock file; folders that are not provably such a folder stay', async () => {
    const parent = path.join(root, 'tmp');
    mkdirSync(parent);
    const crashed = socketFolder(parent);
    leftBehindSocket(crashed.socketPath);
    const withMore = socketFolder(parent);
    leftBehindSocket(withMore.socketPath);
    writeFileSync(path.join(withMore.socketDir, 'notes.txt'), 'not ours to delete\n');
    const opened = socketFolder(parent);
    chmodSync(opened.socketDir, 0o755);
    const plainFile = socketFolder(parent);
    writeFileSync(plainFile.socketPath, 'a file, not a socket');
    const someFolder = path.join(parent, 'project');
    mkdirSync(someFolder, { mode: 0o700 });
    const locks = Object.entries({
      crashed: crashed.socketPath,
      withMore: withMore.socketPath,
      opened: opened.socketPath,
      plainFile: plainFile.socketPath,
      someFolder: path.join(someFolder, 'mcp.sock'),
      relative: 'difftray-abcdef/mcp.sock',
    }).map(([name, socketPath]) => lock(`${name}.lock`, { ideName: 'DiffTray', pid: deadPid(), socketPath }));

    const removed = await removeStaleLockFiles(root, COPILOT_STALE_RULE);
    expect(removed.sort()).toEqual(locks.sort());
    expect(existsSync(crashed.socketDir)).toBe(false);
    for (const kept of [withMore.socketDir, opened.socketDir, plainFile.socketDir, someFolder]) {
      expect(existsSync(kept)).toBe(true);
    }
    expect(existsSync(withMore.socketPath)).toBe(true);
  });

  it("is never looked for from another program's lock file", async () => {
    const crashed = socketFolder(root);
    leftBehindSocket(crashed.socketPath);
    lock('vscode.lock', { ideName: 'Visual Studio Code', pid: deadPid(), socketPath: crashed.socketPath });
    expect(await removeStaleLockFiles(root, COPILOT_STALE_RULE)).toEqual([]);
    expect(removeSocketFolder('/etc/passwd')).toBe(false);
    expect(existsSync(crashed.socketPath)).toBe(true);
  });
});

describe('the socket on Windows', () => {
  it('is a named pipe with an unguessable name and no folder', () => {
    const first = makeSocketFolder(root, 'win32');
    const second = makeSocketFolder(root, 'win32');
    expect(first.socketPath).toMatch(/^\\\\\.\\pipe\\difftray-mcp-[0-9a-f-]{36}$/);
    expect(second.socketPath).not.toBe(first.socketPath);
    expect(first.socketDir).toBeUndefined();
    expect(removeSocketFolder(first.socketPath)).toBe(false);
  });
});

describe('diffAnswer', () => {
  const accepted = (finalText: string): ReviewOutcome => ({
    kind: 'accepted',
    files: [{ path: '/w/a', expectedOnDisk: { exists: false }, changed: true, baseText: 'a', finalText }],
  });

  it('says SAVED only for the proposal itself, and maps every other end to REJECTED with its trigger', () => {
    expect(diffAnswer(accepted('new'), 'new', 'tab', '/w/a')).toEqual({
      success: true,
      result: 'SAVED',
      trigger: 'accepted_via_button',
      tab_name: 'tab',
      message: 'User accepted changes for /w/a',
    });
    expect(diffAnswer(accepted('ne'), 'new', 'tab', '/w/a')).toMatchObject({
      result: 'REJECTED',
      trigger: 'rejected_via_button',
    });
    expect(diffAnswer({ kind: 'rejected', reason: 'no' }, 'new', 'tab', '/w/a')).toMatchObject({
      result: 'REJECTED',
      trigger: 'rejected_via_button',
      message: 'User rejected changes for /w/a: no',
    });
    expect(diffAnswer({ kind: 'superseded' }, 'new', 'tab', '/w/a').trigger).toBe('closed_via_tool');
    expect(diffAnswer({ kind: 'cancelled', reason: CLOSED_VIA_TOOL }, 'new', 'tab', '/w/a').trigger).toBe(
      'closed_via_tool',
    );
    expect(diffAnswer({ kind: 'cancelled', reason: 'client disconnected' }, 'n', 't', '/w/a').trigger).toBe(
      'closed_via_tab',
    );
  });
});

describe('the look just before SAVED (stillConfined)', () => {
  it('holds for the same real file inside the workspace, and fails once a link is swapped in', () => {
    const workspace = realpathSync(root);
    const outside = mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-copilot-outside-'));
    try {
      mkdirSync(path.join(workspace, 'src'));
      const file = path.join(workspace, 'src', 'a.ts');
      writeFileSync(file, 'a\n');
      writeFileSync(path.join(outside, 'a.ts'), 'secret\n');
      expect(stillConfined(file, file, [workspace])).toBe(true);
      // The file replaced by a link to another file inside the workspace: not the file reviewed.
      writeFileSync(path.join(workspace, 'b.ts'), 'b\n');
      rmSync(file);
      symlinkSync(path.join(workspace, 'b.ts'), file);
      expect(stillConfined(file, file, [workspace])).toBe(false);
      // Its folder swapped for a link out of the workspace.
      rmSync(path.join(workspace, 'src'), { recursive: true });
      symlinkSync(outside, path.join(workspace, 'src'));
      expect(stillConfined(file, file, [workspace])).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
