/**
 * Which paths under a watched folder are left alone: `.git` and `node_modules` always, and whatever the
 * person's global excludes file (git's core.excludesFile), the repository's `.git/info/exclude` and the
 * folder's .gitignore files say (the `ignore` package reads gitignore's own syntax). Each .gitignore
 * speaks of paths relative to its own folder, as git reads them; a rule of a deeper file is checked after
 * those above it, and the two exclude files before them all, the global one first (git's precedence,
 * lowest first). Checking a path costs one test per rules file on its way up, never a look at the tree.
 * Where the global file is, git says (GitIndex.find); nothing here runs a process.
 */
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { readSmallFileSync } from '../disk/small-file-read';
import { isInside } from '../workspace/workspace-paths';

/** Names skipped wherever they are (also what get_filter_info reports). */
export const ALWAYS_SKIPPED: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** The most of one .gitignore read: rules are short; a huge one is not a rules file anyone wrote. */
export const MAX_GITIGNORE_BYTES = 1024 * 1024;

export class IgnoreRules {
  /** The rules of each folder that has a .gitignore, by its absolute path. */
  private readonly rules = new Map<string, Ignore>();
  /** Folders above the root whose .gitignore files apply, from the top down. */
  private readonly outer: string[] = [];
  /** The global excludes file's rules then `.git/info/exclude`'s, both relative to the work tree's top. */
  private readonly excludes: Ignore[] = [];
  private readonly top: string | undefined;
  /** The exclude files that had rules: the global one, then `.git/info/exclude` (for get_filter_info). */
  readonly globalExcludes: string | undefined;
  readonly infoExclude: string | undefined;
  private readonly onRefused: ((file: string, why: string) => void) | undefined;

  /**
   * `outerTop`: the git work tree's top, the root itself or a folder above it: its `.git/info/exclude`
   * applies, and so do the .gitignore files from there down to the root's parent, as git reads them.
   * `excludesFile`: the global excludes file git reads for that work tree. Read once, here.
   * `onRefused`: told of a rules file not read because it is a link or not a regular file.
   */
  constructor(
    private readonly root: string,
    outerTop?: string,
    options: {
      excludesFile?: string | undefined;
      onRefused?: ((file: string, why: string) => void) | undefined;
    } = {},
  ) {
    this.onRefused = options.onRefused;
    if (outerTop === undefined || !isInside(outerTop, root)) return;
    const relative = path.relative(outerTop, root);
    this.top = outerTop;
    const files = [options.excludesFile, path.join(outerTop, '.git', 'info', 'exclude')] as const;
    const found = files.map((file, index) => {
      // The global excludes file is the person's own, often a link into their dotfiles: followed.
      const text = file === undefined ? '' : readRules(file, index === 0, this.onRefused);
      if (text.trim() === '') return undefined;
      this.excludes.push(ignore().add(text));
      return file;
    });
    this.globalExcludes = found[0];
    this.infoExclude = found[1];
    if (relative === '') return;
    let folder = outerTop;
    for (const part of relative.split(path.sep)) {
      this.outer.push(folder);
      this.load(folder);
      folder = path.join(folder, part);
    }
  }

  /** Reads (again) the .gitignore of `folder`; a missing or unreadable one means no rules there. */
  load(folder: string): void {
    this.setRules(folder, readRules(path.join(folder, '.gitignore'), false, this.onRefused));
  }

  /** The .gitignore text of `folder`, read by the caller (the context services read it confined). */
  setRules(folder: string, text: string): void {
    if (text.trim() === '') this.rules.delete(folder);
    else this.rules.set(folder, ignore().add(text));
  }

  /** Folders whose .gitignore has rules (those above the root included). */
  ruleFolders(): string[] {
    return [...this.rules.keys()];
  }

  /**
   * `ignores` for the entries of one folder (absolute, under the root), by name: what is the same for
   * all of them (which rules files apply, the folder's path relative to each) is worked out once. Made
   * after the folder's own .gitignore is set; rules set later are not seen.
   */
  folderJudge(folder: string): (name: string, isFolder: boolean) => boolean {
    if (!isInside(this.root, folder)) {
      return (name, isFolder) => this.ignores(path.join(folder, name), isFolder);
    }
    const relative = path.relative(this.root, folder);
    const parts = relative === '' ? [] : relative.split(path.sep);
    if (parts.some((part) => ALWAYS_SKIPPED.has(part))) return () => true;
    // Each rules file that applies, with the folder's path relative to it ('' or ending in '/').
    const applying: Array<{ rules: Ignore; prefix: string }> = [];
    const add = (rules: Ignore | undefined, below: string) => {
      if (rules) applying.push({ rules, prefix: below === '' ? '' : `${below}/` });
    };
    if (this.top !== undefined) {
      const fromTop = path.relative(this.top, folder).split(path.sep).join('/');
      for (const rules of this.excludes) add(rules, fromTop);
    }
    for (const above of this.outer) {
      add(this.rules.get(above), path.relative(above, folder).split(path.sep).join('/'));
    }
    let current = this.root;
    for (let depth = 0; depth <= parts.length; depth++) {
      add(this.rules.get(current), parts.slice(depth).join('/'));
      if (depth < parts.length) current = path.join(current, parts[depth]!);
    }
    return (name, isFolder) => {
      if (ALWAYS_SKIPPED.has(name)) return true;
      let ignored = false;
      for (const { rules, prefix } of applying) {
        const verdict = rules.test(isFolder ? `${prefix}${name}/` : `${prefix}${name}`);
        if (verdict.ignored) ignored = true;
        else if (verdict.unignored) ignored = false;
      }
      return ignored;
    };
  }

  /** Whether `entry` (absolute, under the root) is skipped; `isFolder` for gitignore's `dir/` rules. */
  ignores(entry: string, isFolder: boolean): boolean {
    if (ALWAYS_SKIPPED.has(path.basename(entry))) return true;
    const relative = path.relative(this.root, entry);
    if (relative === '' || !isInside(this.root, entry)) return false;
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
    if (this.top !== undefined) {
      const fromTop = path.relative(this.top, entry).split(path.sep).join('/');
      for (const rules of this.excludes) judge(rules, fromTop);
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

/**
 * A rules file's text; a missing, unreadable or huge one, or one that is not a regular file, has no
 * rules. Read by readSmallFileSync: looked at before it is opened, opened without blocking (a FIFO named
 * .gitignore must not hang the process that watches) and checked again by fstat. A rules file in the
 * workspace that is a symbolic link (or one swapped in) is not followed: its target may be any file of
 * the person's, whose lines would then decide which changes are reviewed (git, since 2.32, does not
 * follow a .gitignore link in the work tree either); it counts as no rules, and `refused` hears of it.
 */
function readRules(
  file: string,
  followLinks: boolean,
  refused: ((file: string, why: string) => void) | undefined,
): string {
  const read = readSmallFileSync(file, MAX_GITIGNORE_BYTES, { followLinks });
  if (read.ok) return read.text;
  if (read.why !== 'absent' && read.why !== 'unreadable') refused?.(file, read.why);
  return '';
}
