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
});
