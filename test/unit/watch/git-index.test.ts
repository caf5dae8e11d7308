import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseBatch, parseBatchCheck } from '../../../src-main/core/watch/cat-file-batch';
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
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'ignore' });
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

describe('GitIndex.texts', () => {
  it('answers many files at once as text() answers each, and leaves to text() what --batch cannot say', async () => {
    const repo = folder();
    git(repo, 'init', '-q');
    const at = (name: string) => path.join(repo, ...name.split('/'));
    const contents: Record<string, string | Buffer> = {
      'a.txt': 'committed a\n',
      'same.txt': 'committed a\n',
      'dir/with space.txt': 'spaced\n',
      // Not stage 1 of a file x.txt.
      '1:x.txt': 'named with a colon\n',
      'binary.bin': Buffer.from([1, 0, 2]),
      'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      'big.txt': 'x'.repeat(100),
      'conflict.txt': 'base\n',
      'new\nline.txt': 'a name --batch cannot carry\n',
    };
    mkdirSync(at('dir'));
    for (const [name, content] of Object.entries(contents)) writeFileSync(at(name), content);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    // A merge conflict: conflict.txt has stages 1 to 3, none at 0.
    git(repo, 'checkout', '-qb', 'other');
    writeFileSync(at('conflict.txt'), 'other\n');
    git(repo, 'commit', '-qam', 'other');
    git(repo, 'checkout', '-q', '-');
    writeFileSync(at('conflict.txt'), 'mine\n');
    git(repo, 'commit', '-qam', 'mine');
    expect(() => git(repo, 'merge', '-q', 'other')).toThrow();
    // Staged and then changed again: the staged text is the answer.
    writeFileSync(at('a.txt'), 'staged a\n');
    git(repo, 'add', 'a.txt');
    writeFileSync(at('a.txt'), 'in the work tree\n');
    writeFileSync(at('untracked.txt'), 'new\n');

    const index = (await GitIndex.find(repo))!;
    const files = [...Object.keys(contents), 'untracked.txt', 'never/written.txt'].map(at);
    const answers = await index.texts([...files, path.join(path.dirname(repo), 'outside.txt')], 50);
    expect(Object.fromEntries([...answers].map(([file, text]) => [path.relative(repo, file), text]))).toEqual(
      {
        'a.txt': { kind: 'text', text: 'staged a\n' },
        'same.txt': { kind: 'text', text: 'committed a\n' },
        [path.join('dir', 'with space.txt')]: { kind: 'text', text: 'spaced\n' },
        '1:x.txt': { kind: 'text', text: 'named with a colon\n' },
        'binary.bin': { kind: 'unknown', why: 'binary in the git index' },
        'latin1.txt': { kind: 'unknown', why: 'not UTF-8 in the git index' },
        'big.txt': { kind: 'unknown', why: 'too large in the git index' },
        'untracked.txt': { kind: 'absent' },
        [path.join('never', 'written.txt')]: { kind: 'absent' },
      },
    );
    for (const [file, answer] of answers) expect(await index.text(file, 50)).toEqual(answer);
    // Left out, text() answers them.
    expect(await index.text(at('conflict.txt'))).toMatchObject({ kind: 'unknown' });
    expect(await index.text(at('new\nline.txt'))).toEqual({
      kind: 'text',
      text: 'a name --batch cannot carry\n',
    });
  });

  it('reads no more than maxTotalBytes of blobs; the rest are left to text()', async () => {
    const repo = folder();
    git(repo, 'init', '-q');
    const files = ['a', 'b', 'c'].map((name) => path.join(repo, name));
    for (const file of files) writeFileSync(file, `${path.basename(file)}`.repeat(10));
    git(repo, 'add', '-A');
    const index = (await GitIndex.find(repo))!;
    const answers = await index.texts(files, undefined, 25);
    expect([...answers.keys()]).toEqual(files.slice(0, 2));
  });

  it('reads the index text of a file whose name merely begins with `..`', async () => {
    const repo = folder();
    git(repo, 'init', '-q');
    const file = path.join(repo, '..env');
    writeFileSync(file, 'staged\n');
    git(repo, 'add', '-A');
    const index = (await GitIndex.find(repo))!;
    expect(await index.text(file)).toEqual({ kind: 'text', text: 'staged\n' });
    expect(await index.text(path.join(path.dirname(repo), 'outside.txt'))).toMatchObject({ kind: 'unknown' });
  });

  it('refuses output that is not what was asked', () => {
    const oid = 'a'.repeat(40);
    expect(parseBatchCheck(Buffer.from(`${oid} blob 3\n:x missing\n`), 2)).toEqual([
      { found: true, oid, type: 'blob', size: 3 },
      { found: false },
    ]);
    expect(parseBatchCheck(Buffer.from(`${oid} blob 3\n`), 2)).toBeUndefined();
    expect(parseBatchCheck(Buffer.from(`fatal: nonsense\n`), 1)).toBeUndefined();
    expect(
      parseBatch(Buffer.from(`${oid} blob 3\nabc\n:x missing\n`))
        ?.get(oid)
        ?.toString(),
    ).toBe('abc');
    // Cut short, or not the size it says.
    expect(parseBatch(Buffer.from(`${oid} blob 3\nab`))).toBeUndefined();
    expect(parseBatch(Buffer.from(`${oid} blob 2\nabc\n`))).toBeUndefined();
  });
});

describe('GitIndex.find: the work tree is where its `.git` is', () => {
  it('refuses a work tree core.worktree moved elsewhere (here: to the folder above)', async () => {
    const outer = folder();
    const repo = path.join(outer, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', 'a.txt');
    git(repo, 'commit', '-qm', 'base');
    expect((await GitIndex.find(repo))?.topLevel).toBe(repo);
    // What an agent can write into .git/config: git would now list and read the whole folder above.
    git(repo, 'config', 'core.worktree', outer);
    expect(
      execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: repo, encoding: 'utf8' }).trim(),
    ).toBe(outer);
    expect(await GitIndex.find(repo)).toBeUndefined();
  });

  it("takes a linked work tree, whose `.git` file leads to the main repository's, outside the folder", async () => {
    const main = folder();
    git(main, 'init', '-q');
    writeFileSync(path.join(main, 'a.txt'), 'in the index\n');
    git(main, 'add', 'a.txt');
    git(main, 'commit', '-qm', 'base');
    const linked = path.join(folder(), 'linked');
    git(main, 'worktree', 'add', '-q', linked);
    const index = await GitIndex.find(linked);
    expect(index?.topLevel).toBe(linked);
    writeFileSync(path.join(linked, 'a.txt'), 'changed\n');
    expect(await index?.text(path.join(linked, 'a.txt'))).toEqual({ kind: 'text', text: 'in the index\n' });
  });
});
