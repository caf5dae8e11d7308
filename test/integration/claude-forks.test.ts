/**
 * Claude Code forks that read their own lock folder: the runtime writes the Claude Code lock file in
 * OpenClaude's `~/.openclaude/ide` and in every folder of the `extraLockFolders` setting, and a client
 * that found DiffTray there (the official MCP SDK client, as the CLI connects) gets a review through.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openClaudeLockDir } from '../../src-main/bridge/endpoints';
import { connectClaudeClient, texts } from '../support/claude-client';
import { decideHunksAndSubmit } from '../support/decisions';
import { NUMBERS } from '../support/fixtures';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { closedPort } from '../support/ports';
import { waitForReview } from '../support/wait';

const modeOf = (file: string) => statSync(file).mode & 0o777;

let t: TestRuntime | undefined;

afterEach(async () => {
  await t?.close();
  t = undefined;
});

function writeSettings(home: string, settings: unknown): void {
  mkdirSync(path.join(home, '.difftray'), { recursive: true });
  writeFileSync(path.join(home, '.difftray', 'settings.json'), JSON.stringify(settings));
}

/** What a fork reads from a lock file: the port in its name, the token inside. */
function readLock(dir: string, port: number): { authToken: string; ideName: string; pid: number } {
  return JSON.parse(readFileSync(path.join(dir, `${port}.lock`), 'utf8'));
}

/** Proposes an edit through a client that found DiffTray in `lockDir`, decides it, returns the answer. */
async function reviewThrough(rt: TestRuntime, lockDir: string, fileName: string): Promise<string[]> {
  const port = rt.runtime.bridge.port;
  const client = await connectClaudeClient(port, readLock(lockDir, port).authToken);
  try {
    const file = path.join(rt.workspace, fileName);
    writeFileSync(file, NUMBERS.base);
    const answer = client.openDiff(file, NUMBERS.proposed, `${fileName} (edit)`);
    const review = await waitForReview(rt.runtime.core, (r) => r.state === 'pending' && r.title === fileName);
    await decideHunksAndSubmit(rt.runtime.handler, review.id, { accepted: [0, 2], rejected: [1] });
    return texts(await answer);
  } finally {
    await client.close();
  }
}

describe('lock files for Claude Code forks', () => {
  it('writes the lock file where OpenClaude and the extra folders look; a client found there gets a review through; all are gone after close', async () => {
    const logged: string[] = [];
    t = await startTestRuntime({
      log: (message) => logged.push(message),
      beforeStart: (home) => {
        // A folder the user already has, with a mode of their choosing, and a path that is a file.
        mkdirSync(path.join(home, 'shared-locks'));
        chmodSync(path.join(home, 'shared-locks'), 0o755);
        writeFileSync(path.join(home, 'not-a-folder'), 'x');
        writeSettings(home, {
          extraLockFolders: [
            '~/.myfork/ide',
            path.join(home, 'shared-locks'),
            'relative/ide',
            path.join(home, 'not-a-folder'),
            '~/.openclaude/ide',
            '~/.nexus3/ide',
          ],
        });
      },
    });
    const { runtime, home, claudeLockDir, openClaudeLockDir: openClaudeDir } = t;
    const port = runtime.bridge.port;
    const forkDir = path.join(home, '.myfork', 'ide');
    const sharedDir = path.join(home, 'shared-locks');

    const claudeLock = readFileSync(path.join(claudeLockDir, `${port}.lock`), 'utf8');
    for (const dir of [openClaudeDir, forkDir, sharedDir]) {
      expect(readFileSync(path.join(dir, `${port}.lock`), 'utf8')).toBe(claudeLock);
      expect(modeOf(path.join(dir, `${port}.lock`))).toBe(0o600);
    }
    expect(readLock(openClaudeDir, port)).toMatchObject({ ideName: 'DiffTray', pid: process.pid });
    // Folders DiffTray made are private; the user's own keeps its mode.
    expect(modeOf(openClaudeDir)).toBe(0o700);
    expect(modeOf(forkDir)).toBe(0o700);
    expect(modeOf(path.join(home, '.myfork'))).toBe(0o700);
    expect(modeOf(sharedDir)).toBe(0o755);
    // The bad entries are reported and skipped; OpenClaude's folder, listed again, gets one file.
    expect(logged.some((m) => m.includes('"relative/ide"'))).toBe(true);
    expect(logged.some((m) => m.includes(path.join(home, 'not-a-folder')))).toBe(true);
    expect(existsSync(path.join(t.workspace, 'relative'))).toBe(false);
    // NEXUS3's folder holds its own <port>.lock with its own token: refused, NEXUS3's file intact.
    expect(logged.some((m) => m.includes(path.join(home, '.nexus3', 'ide')))).toBe(true);
    expect(readLock(t.nexusLockDir, port).authToken).toBe(runtime.bridge.tokenFor('nexus3-ide'));
    const locks = runtime.bridge.lockFilePaths();
    expect(new Set(locks).size).toBe(locks.length);
    expect(locks).toHaveLength(5); // Claude Code, NEXUS3, OpenClaude, the two extra folders

    expect(await reviewThrough(t, openClaudeDir, 'a.txt')).toEqual(['FILE_SAVED', NUMBERS.composed]);
    expect(await reviewThrough(t, forkDir, 'b.txt')).toEqual(['FILE_SAVED', NUMBERS.composed]);

    await runtime.close();
    for (const dir of [claudeLockDir, openClaudeDir, forkDir, sharedDir]) {
      expect(existsSync(path.join(dir, `${port}.lock`))).toBe(false);
    }
  });

  it('removes stale lock files of dead DiffTrays in those folders, and leaves other programs’ files', async () => {
    const deadPid = spawnSync('true').pid!;
    const port = await closedPort();
    const planted: string[] = [];
    t = await startTestRuntime({
      beforeStart: (home) => {
        writeSettings(home, { extraLockFolders: ['~/.myfork/ide'] });
        for (const dir of [path.join(home, '.openclaude', 'ide'), path.join(home, '.myfork', 'ide')]) {
          mkdirSync(dir, { recursive: true });
          const lock = { pid: deadPid, workspaceFolders: [], transport: 'ws', authToken: 'x' };
          writeFileSync(path.join(dir, `${port}.lock`), JSON.stringify({ ...lock, ideName: 'DiffTray' }));
          writeFileSync(path.join(dir, '1.lock'), JSON.stringify({ ...lock, ideName: 'Visual Studio Code' }));
          planted.push(dir);
        }
      },
    });
    for (const dir of planted) {
      expect(existsSync(path.join(dir, `${port}.lock`))).toBe(false);
      expect(existsSync(path.join(dir, '1.lock'))).toBe(true);
      expect(existsSync(path.join(dir, `${t.runtime.bridge.port}.lock`))).toBe(true);
    }
  });
});

describe('openClaudeLockDir', () => {
  it('follows OPENCLAUDE_CONFIG_DIR as OpenClaude does, and never CLAUDE_CONFIG_DIR', () => {
    const home = path.join(path.sep, 'home', 'someone');
    expect(openClaudeLockDir({}, home)).toBe(path.join(home, '.openclaude', 'ide'));
    expect(openClaudeLockDir({ OPENCLAUDE_CONFIG_DIR: '/cfg/oc' }, home)).toBe(path.join('/cfg/oc', 'ide'));
    expect(openClaudeLockDir({ OPENCLAUDE_CONFIG_DIR: '' }, home)).toBe(
      path.join(home, '.openclaude', 'ide'),
    );
    expect(openClaudeLockDir({ CLAUDE_CONFIG_DIR: '/cfg/claude' }, home)).toBe(
      path.join(home, '.openclaude', 'ide'),
    );
  });
});
