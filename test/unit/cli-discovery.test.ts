/**
 * Which DiffTray the `difftray` command picks among live lock files: the one whose workspace holds the
 * current folder, judged by real paths on both sides (a folder named through a symlink included), else
 * the newest; and which lock files are stale. Real lock files in a temp DIFFTRAY_HOME; the live pid is
 * this process's own, with its start time as the endpoint records it.
 */
import { mkdirSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findDiffTray } from '../../src-main/cli/discovery';
import { processStartTime } from '../../src-main/core/clients/process-info';
import { makeTempDir } from '../support/temp';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setUp() {
  const temp = makeTempDir('discovery');
  cleanups.push(temp.cleanup);
  const root = realpathSync(temp.dir);
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  const other = path.join(root, 'other');
  for (const dir of [home, project, other]) mkdirSync(dir);
  const writeLock = (
    port: number,
    workspaceFolders: string[],
    mtimeSeconds: number,
    /** null: the lock does not say when its process started. */
    processStart: string | null = processStartTime(process.pid) ?? null,
  ) => {
    const file = path.join(home, `${port}.lock`);
    writeFileSync(
      file,
      JSON.stringify({
        pid: process.pid,
        ...(processStart !== null && { processStart }),
        port,
        authToken: `token-${port}`,
        workspaceFolders,
        ideName: 'DiffTray',
        transport: 'ws',
        protocol_version: '1.0',
      }),
    );
    utimesSync(file, mtimeSeconds, mtimeSeconds);
  };
  return { root, home, project, other, env: { DIFFTRAY_HOME: home }, writeLock };
}

describe('findDiffTray', () => {
  it('prefers the DiffTray whose workspace folder, named through a symlink, holds the current folder', () => {
    const { root, project, other, env, writeLock } = setUp();
    const linked = path.join(root, 'linked-project');
    symlinkSync(project, linked);
    writeLock(1111, [linked], 1_000);
    writeLock(2222, [other], 2_000);
    const sub = path.join(project, 'src');
    mkdirSync(sub);
    expect(findDiffTray({ env, cwd: sub }).lock.port).toBe(1111);
  });

  it('takes the newest when no workspace holds the current folder, a missing one included', () => {
    const { root, project, other, env, writeLock } = setUp();
    writeLock(1111, [project], 1_000);
    writeLock(2222, [other], 2_000);
    expect(findDiffTray({ env, cwd: root }).lock.port).toBe(2222);
    expect(findDiffTray({ env, cwd: path.join(root, 'gone', 'deeper') }).lock.port).toBe(2222);
  });

  it.runIf(process.platform === 'linux')(
    'a live pid that started at another time (reused), or a lock that does not say when, is stale',
    () => {
      const { project, env, writeLock } = setUp();
      const started = Number(processStartTime(process.pid));
      writeLock(1111, [project], 1_000, String(started + 1));
      expect(() => findDiffTray({ env, cwd: project })).toThrow('no live lock file');
      writeLock(1111, [project], 1_000, null);
      expect(() => findDiffTray({ env, cwd: project })).toThrow('no live lock file');
      writeLock(2222, [project], 1_000);
      expect(findDiffTray({ env, cwd: project }).lock.port).toBe(2222);
    },
  );
});
