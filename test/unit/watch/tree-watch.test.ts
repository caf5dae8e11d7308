import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitIndex } from '../../../src-main/core/watch/git-index';
import { TreeWatch } from '../../../src-main/core/watch/tree-watch';
import { makeTempDir } from '../../support/temp';
import { until } from '../../support/wait';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function tree(): { root: string; changed: Set<string>; found: string[]; watch: TreeWatch } {
  const temp = makeTempDir('tree');
  const root = realpathSync(temp.dir);
  const changed = new Set<string>();
  const found: string[] = [];
  const watch = new TreeWatch(root, {
    onChange: (file) => changed.add(path.relative(root, file)),
    onFound: (file) => found.push(path.relative(root, file)),
    maxFileBytes: 1000,
  });
  cleanups.push(() => {
    watch.close();
    temp.cleanup();
  });
  return { root, changed, found, watch };
}

describe('TreeWatch', () => {
  it('finds the files at start, skipping .git, node_modules, ignored and oversized ones', () => {
    const { root, found, watch } = tree();
    mkdirSync(path.join(root, 'src'));
    mkdirSync(path.join(root, '.git'));
    mkdirSync(path.join(root, 'node_modules', 'x'), { recursive: true });
    mkdirSync(path.join(root, 'build'));
    writeFileSync(path.join(root, '.gitignore'), 'build/\n*.log\n');
    writeFileSync(path.join(root, 'src', '.gitignore'), 'local.txt\n');
    writeFileSync(path.join(root, 'a.txt'), 'a');
    writeFileSync(path.join(root, 'big.txt'), 'x'.repeat(2000));
    writeFileSync(path.join(root, 'debug.log'), 'l');
    writeFileSync(path.join(root, 'src', 'b.ts'), 'b');
    writeFileSync(path.join(root, 'src', 'local.txt'), 'not this');
    writeFileSync(path.join(root, '.git', 'HEAD'), 'ref');
    writeFileSync(path.join(root, 'node_modules', 'x', 'i.js'), 'i');
    writeFileSync(path.join(root, 'build', 'out.js'), 'o');
    watch.start();
    expect(found.sort()).toEqual([
      '.gitignore',
      'a.txt',
      path.join('src', '.gitignore'),
      path.join('src', 'b.ts'),
    ]);
    // The root and src: no watch in skipped folders.
    expect(watch.folderCount).toBe(2);
  });

  it('reports written files, new folders and their files, and not ignored ones', async () => {
    const { root, changed, watch } = tree();
    writeFileSync(path.join(root, '.gitignore'), 'secret.txt\n');
    watch.start();
    writeFileSync(path.join(root, 'a.txt'), 'a');
    writeFileSync(path.join(root, 'secret.txt'), 's');
    // A temp file of DiffTray's own writer.
    writeFileSync(path.join(root, '.a.txt.difftray-123-0123456789ab.tmp'), 't');
    mkdirSync(path.join(root, 'new', 'deeper'), { recursive: true });
    writeFileSync(path.join(root, 'new', 'deeper', 'c.txt'), 'c');
    await until(
      () => (changed.has('a.txt') && changed.has(path.join('new', 'deeper', 'c.txt')) ? true : undefined),
      'the changes',
    );
    // Written after the new folder's watch is in place, reported by it.
    writeFileSync(path.join(root, 'new', 'deeper', 'd.txt'), 'd');
    await until(() => (changed.has(path.join('new', 'deeper', 'd.txt')) ? true : undefined), 'd.txt');
    expect([...changed].filter((file) => !file.startsWith('new') && file !== 'a.txt')).toEqual([]);
    expect(watch.folderCount).toBe(3);
  });

  it('reports deleted files, and lets the watches of a deleted folder go', async () => {
    const { root, changed, watch } = tree();
    mkdirSync(path.join(root, 'gone', 'deeper'), { recursive: true });
    writeFileSync(path.join(root, 'gone', 'deeper', 'x.txt'), 'x');
    writeFileSync(path.join(root, 'kept.txt'), 'k');
    watch.start();
    expect(watch.folderCount).toBe(3);
    rmSync(path.join(root, 'kept.txt'));
    rmSync(path.join(root, 'gone'), { recursive: true });
    await until(
      () => (changed.has('kept.txt') && watch.folderCount === 1 ? true : undefined),
      'the deletions',
    );
  });

  it('in a git work tree, skips what the global excludes file git names (core.excludesFile) ignores', async () => {
    const temp = makeTempDir('tree-git');
    cleanups.push(temp.cleanup);
    const top = realpathSync(temp.dir);
    const root = path.join(top, 'repo');
    mkdirSync(root);
    execFileSync('git', ['init', '-q'], { cwd: root });
    writeFileSync(path.join(top, 'global-ignore'), '*.secret\n');
    execFileSync('git', ['config', 'core.excludesFile', '../global-ignore'], { cwd: root });
    writeFileSync(path.join(root, 'found.secret'), 's');
    writeFileSync(path.join(root, 'found.txt'), 't');
    const git = await GitIndex.find(root);
    const changed = new Set<string>();
    const found: string[] = [];
    const watch = new TreeWatch(root, {
      onChange: (file) => changed.add(path.basename(file)),
      onFound: (file) => found.push(path.basename(file)),
      gitTopLevel: git!.topLevel,
      excludesFile: git!.excludesFile,
    });
    cleanups.unshift(() => watch.close());
    watch.start();
    expect(found).toEqual(['found.txt']);
    writeFileSync(path.join(root, 'later.secret'), 's');
    writeFileSync(path.join(root, 'later.txt'), 't');
    await until(() => (changed.has('later.txt') ? true : undefined), 'later.txt');
    expect(changed.has('later.secret')).toBe(false);
  });

  it('the watched folder moved away and a link put in its place: every watch let go, nothing beyond it watched', async () => {
    const temp = makeTempDir('tree-swap');
    const base = realpathSync(temp.dir);
    const root = path.join(base, 'w');
    const beyond = path.join(base, 'beyond');
    mkdirSync(path.join(root, 'sub'), { recursive: true });
    // A folder beyond the link named like the watched one: its old path, joined with its own name, exists.
    mkdirSync(path.join(beyond, 'w'), { recursive: true });
    const changed: string[] = [];
    const watch = new TreeWatch(root, { onChange: (file) => changed.push(file) });
    cleanups.push(() => {
      watch.close();
      temp.cleanup();
    });
    watch.start();
    expect(watch.folderCount).toBe(2);
    renameSync(root, path.join(base, 'w-moved'));
    symlinkSync(beyond, root);
    await until(() => (watch.folderCount === 0 ? true : undefined), 'every watch let go');
    expect(changed.filter((file) => !file.startsWith(`${root}${path.sep}`))).toEqual([]);
  });

  it('the watched folder moved away and a new folder made in its place: the new one is watched, the old one not', async () => {
    const temp = makeTempDir('tree-renew');
    const base = realpathSync(temp.dir);
    const root = path.join(base, 'w');
    const moved = path.join(base, 'w-moved');
    mkdirSync(path.join(root, 'sub'), { recursive: true });
    const changed = new Set<string>();
    const watch = new TreeWatch(root, { onChange: (file) => changed.add(path.relative(base, file)) });
    cleanups.push(() => {
      watch.close();
      temp.cleanup();
    });
    watch.start();
    renameSync(root, moved);
    mkdirSync(path.join(root, 'fresh'), { recursive: true });
    writeFileSync(path.join(root, 'fresh', 'made-before.txt'), 'x');
    await until(
      () => (changed.has(path.join('w', 'fresh', 'made-before.txt')) ? true : undefined),
      'the new tree',
    );
    writeFileSync(path.join(moved, 'sub', 'in-the-old-one.txt'), 'x');
    writeFileSync(path.join(root, 'later.txt'), 'x');
    await until(
      () => (changed.has(path.join('w', 'later.txt')) ? true : undefined),
      'a write in the new folder',
    );
    expect([...changed].filter((file) => file.includes('in-the-old-one'))).toEqual([]);
    expect(watch.folderCount).toBe(2);
  });
});
