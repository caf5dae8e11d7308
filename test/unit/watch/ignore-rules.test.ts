import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IgnoreRules } from '../../../src-main/core/watch/ignore-rules';
import { makeTempDir } from '../../support/temp';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('IgnoreRules', () => {
  it("reads the repository's .git/info/exclude first: a .gitignore rule overrides it", () => {
    const temp = makeTempDir('ignore-exclude');
    cleanups.push(temp.cleanup);
    const top = realpathSync(temp.dir);
    mkdirSync(path.join(top, '.git', 'info'), { recursive: true });
    mkdirSync(path.join(top, 'sub'));
    writeFileSync(path.join(top, '.git', 'info', 'exclude'), 'secret.txt\n*.tmp\n');
    writeFileSync(path.join(top, '.gitignore'), '!keep.tmp\n');
    const at = (...parts: string[]) => path.join(top, ...parts);
    // Watching the repository's top, and a folder inside it.
    for (const rules of [new IgnoreRules(top, top), new IgnoreRules(at('sub'), top)]) {
      rules.load(top);
      expect(rules.ignores(at('sub', 'secret.txt'), false)).toBe(true);
      expect(rules.ignores(at('sub', 'scratch.tmp'), false)).toBe(true);
      expect(rules.ignores(at('sub', 'notes.txt'), false)).toBe(false);
    }
    const atTop = new IgnoreRules(top, top);
    atTop.load(top);
    expect(atTop.ignores(at('secret.txt'), false)).toBe(true);
    expect(atTop.ignores(at('keep.tmp'), false)).toBe(false);
    // Outside a repository there is no exclude file to read.
    expect(new IgnoreRules(top).ignores(at('secret.txt'), false)).toBe(false);
  });

  it('applies each .gitignore relative to its own folder, including those above a root inside a repository', () => {
    const temp = makeTempDir('ignore');
    cleanups.push(temp.cleanup);
    const top = realpathSync(temp.dir);
    const root = path.join(top, 'packages', 'app');
    mkdirSync(path.join(root, 'src'), { recursive: true });
    writeFileSync(path.join(top, '.gitignore'), 'dist/\n*.log\n/top-only.txt\n');
    writeFileSync(path.join(top, 'packages', '.gitignore'), 'generated.ts\n');
    writeFileSync(path.join(root, 'src', '.gitignore'), '!keep.log\nlocal/\n');
    const rules = new IgnoreRules(root, top);
    rules.load(root);
    rules.load(path.join(root, 'src'));
    const at = (...parts: string[]) => path.join(root, ...parts);
    expect(rules.ignores(at('dist'), true)).toBe(true);
    expect(rules.ignores(at('dist'), false)).toBe(false);
    expect(rules.ignores(at('debug.log'), false)).toBe(true);
    // A deeper `!` rule re-includes what a rule above excluded.
    expect(rules.ignores(at('src', 'keep.log'), false)).toBe(false);
    expect(rules.ignores(at('src', 'other.log'), false)).toBe(true);
    expect(rules.ignores(at('src', 'generated.ts'), false)).toBe(true);
    expect(rules.ignores(at('src', 'local'), true)).toBe(true);
    expect(rules.ignores(at('top-only.txt'), false)).toBe(false);
    expect(rules.ignores(at('src', 'main.ts'), false)).toBe(false);
    expect(rules.ignores(at('node_modules'), true)).toBe(true);
    expect(rules.ignores(at('src', '.git', 'HEAD'), false)).toBe(true);
    // Without the repository's top, only the root's own rules apply.
    const alone = new IgnoreRules(root);
    alone.load(root);
    expect(alone.ignores(at('debug.log'), false)).toBe(false);
  });

  it("reads the person's global excludes file lowest of all: info/exclude and a .gitignore `!` rule override it", () => {
    const temp = makeTempDir('ignore-global');
    cleanups.push(temp.cleanup);
    const top = realpathSync(temp.dir);
    const at = (...parts: string[]) => path.join(top, 'repo', ...parts);
    mkdirSync(at('.git', 'info'), { recursive: true });
    mkdirSync(at('sub'));
    const excludesFile = path.join(top, 'global-ignore');
    writeFileSync(excludesFile, '*.tmp\n*.log\nglobal.txt\n!by-info.txt\n');
    writeFileSync(at('.git', 'info', 'exclude'), '!keep-by-info.log\nby-info.txt\n');
    writeFileSync(at('.gitignore'), '!keep.tmp\n');
    for (const rules of [
      new IgnoreRules(at(), at(), { excludesFile }),
      new IgnoreRules(at('sub'), at(), { excludesFile }),
    ]) {
      rules.load(at());
      expect(rules.ignores(at('sub', 'scratch.tmp'), false)).toBe(true);
      expect(rules.ignores(at('sub', 'global.txt'), false)).toBe(true);
      expect(rules.ignores(at('sub', 'debug.log'), false)).toBe(true);
      // A `!` rule of a .gitignore, or of info/exclude, re-includes what the global file excludes.
      expect(rules.ignores(at('sub', 'keep.tmp'), false)).toBe(false);
      expect(rules.ignores(at('sub', 'keep-by-info.log'), false)).toBe(false);
      // And the global file's `!` cannot re-include what info/exclude excludes.
      expect(rules.ignores(at('sub', 'by-info.txt'), false)).toBe(true);
      expect(rules.ignores(at('sub', 'notes.txt'), false)).toBe(false);
    }
    // Outside a git work tree git reads no excludes file; nor does a missing one give rules.
    expect(new IgnoreRules(at(), undefined, { excludesFile }).ignores(at('a.tmp'), false)).toBe(false);
    const missing = new IgnoreRules(at(), at(), { excludesFile: path.join(top, 'none') });
    expect(missing.ignores(at('a.tmp'), false)).toBe(false);
  });

  it('judges a name that merely begins with `..` as inside: rules apply to it, and above a root so named', () => {
    const temp = makeTempDir('ignore-dots');
    cleanups.push(temp.cleanup);
    const top = realpathSync(temp.dir);
    const root = path.join(top, '..pkg');
    mkdirSync(path.join(top, '.git', 'info'), { recursive: true });
    mkdirSync(root);
    writeFileSync(path.join(top, '.git', 'info', 'exclude'), '*.tmp\n');
    writeFileSync(path.join(root, '.gitignore'), '*.log\n');
    const rules = new IgnoreRules(root, top);
    rules.load(root);
    expect(rules.ignores(path.join(root, '..debug.log'), false)).toBe(true);
    expect(rules.folderJudge(root)('..debug.log', false)).toBe(true);
    expect(rules.ignores(path.join(root, 'a.tmp'), false)).toBe(true);
    expect(rules.ignores(path.join(root, '..notes.txt'), false)).toBe(false);
    // Outside the root, truly: not its rules' business.
    expect(rules.ignores(path.join(top, 'a.log'), false)).toBe(false);
  });

  it('takes a FIFO named .gitignore, or as the excludes file, as no rules, without waiting on it', () => {
    const temp = makeTempDir('ignore-fifo');
    cleanups.push(temp.cleanup);
    const top = realpathSync(temp.dir);
    execFileSync('mkfifo', [path.join(top, '.gitignore'), path.join(top, 'excludes')]);
    const rules = new IgnoreRules(top, top, { excludesFile: path.join(top, 'excludes') });
    rules.load(top);
    expect(rules.ignores(path.join(top, 'a.txt'), false)).toBe(false);
  });

  it("judges a folder's entries by name exactly as ignores() judges their full paths", () => {
    const temp = makeTempDir('ignore-judge');
    cleanups.push(temp.cleanup);
    const top = realpathSync(temp.dir);
    const root = path.join(top, 'packages', 'app');
    mkdirSync(path.join(top, '.git', 'info'), { recursive: true });
    mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
    writeFileSync(path.join(top, '.git', 'info', 'exclude'), '*.tmp\n');
    writeFileSync(path.join(top, '.gitignore'), 'dist/\n*.log\n/top-only.txt\nsrc/deep/x.ts\n');
    writeFileSync(path.join(top, 'packages', '.gitignore'), 'generated.ts\napp/src/fixed.ts\n');
    writeFileSync(path.join(root, '.gitignore'), '/root-only.ts\n!keep.tmp\n');
    writeFileSync(path.join(root, 'src', '.gitignore'), '!keep.log\nlocal/\ndeep/*.md\n');
    const rules = new IgnoreRules(root, top);
    for (const folder of [root, path.join(root, 'src'), path.join(root, 'src', 'deep')]) rules.load(folder);
    const names = ['a.ts', 'x.ts', 'fixed.ts', 'generated.ts', 'root-only.ts', 'top-only.txt', 'keep.log'];
    names.push('other.log', 'keep.tmp', 'b.tmp', 'dist', 'local', 'notes.md', 'node_modules', '.git');
    names.push('..x.log', '..x.ts');
    const folders = ['', 'src', 'src/deep', 'src/deep/local', 'node_modules/pkg', 'src/.git'];
    let ignoredSome = 0;
    for (const below of folders) {
      const folder = path.join(root, ...below.split('/').filter((part) => part !== ''));
      const judge = rules.folderJudge(folder);
      for (const name of names) {
        for (const isFolder of [false, true]) {
          const expected = rules.ignores(path.join(folder, name), isFolder);
          expect([below, name, isFolder, judge(name, isFolder)]).toEqual([below, name, isFolder, expected]);
          if (expected) ignoredSome++;
        }
      }
    }
    expect(ignoredSome).toBeGreaterThan(20);
  });
});
