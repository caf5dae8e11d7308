/**
 * Which paths under a watched folder are left alone: `.git` and `node_modules` always, and whatever the
 * repository's `.git/info/exclude` and the folder's .gitignore files say (the `ignore` package reads
 * gitignore's own syntax). Each .gitignore speaks of paths relative to its own folder, as git reads them;
 * a rule of a deeper file is checked after those above it, and info/exclude before them all (git gives it
 * the lowest precedence). Checking a path costs one test per rules file on its way up, never a look at
 * the tree.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

/** The most of one .gitignore read: rules are short; a huge one is not a rules file anyone wrote. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

export class IgnoreRules {
  /** The rules of each folder that has a .gitignore, by its absolute path. */
  private readonly rules = new Map<string, Ignore>();
  /** Folders above the root whose .gitignore files apply, from the top down. */
  private readonly outer: string[] = [];
  /** The repository's `.git/info/exclude`, with the top its rules are relative to. */
  private readonly exclude: { top: string; rules: Ignore } | undefined;

  /**
   * `outerTop`: the git work tree's top, the root itself or a folder above it: its `.git/info/exclude`
   * applies, and so do the .gitignore files from there down to the root's parent, as git reads them.
   * Read once, here.
   */
  constructor(
    private readonly root: string,
    outerTop?: string,
  ) {
    const relative = outerTop === undefined ? '' : path.relative(outerTop, root);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return;
    const exclude = outerTop === undefined ? '' : readRules(path.join(outerTop, '.git', 'info', 'exclude'));
    if (exclude.trim() !== '') this.exclude = { top: outerTop!, rules: ignore().add(exclude) };
    if (relative === '') return;
    let folder = outerTop!;
    for (const part of relative.split(path.sep)) {
      this.outer.push(folder);
      this.load(folder);
      folder = path.join(folder, part);
    }
  }

  /** Reads (again) the .gitignore of `folder`; a missing or unreadable one means no rules there. */
  load(folder: string): void {
    const text = readRules(path.join(folder, '.gitignore'));
    if (text.trim() === '') this.rules.delete(folder);
    else this.rules.set(folder, ignore().add(text));
  }

  /** Whether `entry` (absolute, under the root) is skipped; `isFolder` for gitignore's `dir/` rules. */
  ignores(entry: string, isFolder: boolean): boolean {
    if (ALWAYS_SKIPPED.has(path.basename(entry))) return true;
    const relative = path.relative(this.root, entry);
    if (relative === '' || relative.startsWith('..')) return false;
    const parts = relative.split(path.sep);
    if (parts.some((part) => ALWAYS_SKIPPED.has(part))) return true;
    // As git: the deepest .gitignore with a rule about the path decides (a `!` rule re-includes).
    let ignored = false;
    const judge = (rules: Ignore | undefined, below: string) => {
      if (!rules) return;
      const verdict = rules.test(isFolder ? `${below}/` : below);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    };
    if (this.exclude) {
      judge(this.exclude.rules, path.relative(this.exclude.top, entry).split(path.sep).join('/'));
    }
    for (const above of this.outer) {
      judge(this.rules.get(above), path.relative(above, entry).split(path.sep).join('/'));
    }
    let folder = this.root;
    for (let depth = 0; depth < parts.length; depth++) {
      judge(this.rules.get(folder), parts.slice(depth).join('/'));
      folder = path.join(folder, parts[depth]!);
    }
    return ignored;
  }
}

/** A rules file's text; a missing, unreadable or huge one has no rules. */
function readRules(file: string): string {
  try {
    const bytes = readFileSync(file);
    return bytes.length > MAX_GITIGNORE_BYTES ? '' : bytes.toString('utf8');
  } catch {
    return '';
  }
}
