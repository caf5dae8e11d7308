/**
 * Which paths under a watched folder are left alone: `.git` and `node_modules` always, and whatever the
 * folder's .gitignore files say (the `ignore` package reads gitignore's own syntax). Each .gitignore
 * speaks of paths relative to its own folder, as git reads them; a rule of a deeper file is checked after
 * those above it. Checking a path costs one test per .gitignore on its way up, never a look at the tree.
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

  constructor(private readonly root: string) {}

  /** Reads (again) the .gitignore of `folder`; a missing or unreadable one means no rules there. */
  load(folder: string): void {
    let text: string;
    try {
      const bytes = readFileSync(path.join(folder, '.gitignore'));
      text = bytes.length > MAX_GITIGNORE_BYTES ? '' : bytes.toString('utf8');
    } catch {
      text = '';
    }
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
    let folder = this.root;
    for (let depth = 0; depth < parts.length; depth++) {
      const rules = this.rules.get(folder);
      if (rules) {
        const below = parts.slice(depth).join('/');
        if (rules.ignores(isFolder ? `${below}/` : below)) return true;
      }
      folder = path.join(folder, parts[depth]!);
    }
    return false;
  }
}
