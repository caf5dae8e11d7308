import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitIndex } from '../../../src-main/core/watch/git-index';
import { makeTempDir } from '../../support/temp';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function folder(): string {
  const temp = makeTempDir('git-index');
  cleanups.push(temp.cleanup);
  return realpathSync(temp.dir);
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' });
}

/** Runs `body` with HOME and XDG_CONFIG_HOME (what git's children read for global config) set as given. */
async function withHome<T>(home: string, xdg: string | undefined, body: () => Promise<T>): Promise<T> {
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  process.env.HOME = home;
  if (xdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = xdg;
  try {
    return await body();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

describe('GitIndex.excludesFile', () => {
  it("is git's default when core.excludesFile is unset: $XDG_CONFIG_HOME/git/ignore, else ~/.config/git/ignore", async () => {
    const home = folder();
    const repo = folder();
    git(repo, 'init', '-q');
    await withHome(home, undefined, async () => {
      expect((await GitIndex.find(repo))?.excludesFile).toBe(path.join(home, '.config', 'git', 'ignore'));
    });
    const xdg = path.join(home, 'xdg');
    await withHome(home, xdg, async () => {
      expect((await GitIndex.find(repo))?.excludesFile).toBe(path.join(xdg, 'git', 'ignore'));
    });
  });

  it("is core.excludesFile as git reads it: ~ expanded, a relative path from the work tree's top", async () => {
    const home = folder();
    const repo = folder();
    git(repo, 'init', '-q');
    git(repo, 'config', 'core.excludesFile', '~/my-ignore');
    await withHome(home, undefined, async () => {
      expect((await GitIndex.find(repo))?.excludesFile).toBe(path.join(home, 'my-ignore'));
      git(repo, 'config', 'core.excludesFile', 'ignores/local');
      mkdirSync(path.join(repo, 'sub'));
      // Asked from a folder below the top, as watching a subfolder does.
      const index = await GitIndex.find(path.join(repo, 'sub'));
      expect(index?.excludesFile).toBe(path.join(repo, 'ignores', 'local'));
    });
  });
});
