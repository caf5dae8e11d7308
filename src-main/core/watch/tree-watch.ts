/**
 * Watches one workspace folder's tree for changed files: one fs.watch per folder (not a recursive watch,
 * which some platforms emulate by re-reading the tree), set once by a walk at start. After that, each
 * event costs a look at the one entry it names: a file is reported, a new folder is walked and watched
 * (and its files reported: they may have been written before its watch was in place), a folder gone has
 * its watches closed. Skipped: DiffTray's own temp files (write-journal.ts), .git, node_modules, what git's ignore files say (ignore-rules.ts), and files over the size
 * limit (a file too large to review is not worth a read).
 */
import { lstatSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { MAX_FILE_BYTES } from '../limits';
import { isTemporaryName } from '../undo/write-journal';
import { IgnoreRules } from './ignore-rules';

export interface TreeWatchOptions {
  /** Called with the absolute path of a file that was written, created or deleted. */
  onChange: (file: string) => void;
  /** Called once per file found by the walk at start (the baseline snapshot's chance to read it). */
  onFound?: (file: string, size: number) => void;
  maxFileBytes?: number;
  /** The git work tree's top, when the root is inside one: its .gitignore files above the root apply. */
  gitTopLevel?: string;
  /** The global excludes file git reads for that work tree (GitIndex.excludesFile). */
  excludesFile?: string | undefined;
  /** A rules file (.gitignore, .git/info/exclude) not read: a link, or not a regular file. */
  onRulesRefused?: (file: string, why: string) => void;
  /** A folder that could not be watched (most often: the system's limit of watches is reached). */
  onWatchFailed?: (folder: string, error: Error) => void;
}

export class TreeWatch {
  /** Each watched folder's watch, and the folder's inode then (a folder put in its place is another). */
  private readonly watchers = new Map<string, { watcher: FSWatcher; ino: number }>();
  readonly rules: IgnoreRules;
  private readonly maxFileBytes: number;
  private closed = false;

  constructor(
    readonly root: string,
    private readonly options: TreeWatchOptions,
  ) {
    this.rules = new IgnoreRules(root, options.gitTopLevel, {
      excludesFile: options.excludesFile,
      onRefused: options.onRulesRefused,
    });
    this.maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
  }

  /** Walks the tree and watches every folder not skipped. */
  start(): void {
    this.walk(this.root, (file, size) => this.options.onFound?.(file, size));
  }

  close(): void {
    this.closed = true;
    for (const { watcher } of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /**
   * Every file in the watched folders now (not skipped, not over the size limit): what a paused folder
   * that held too many changes to list looks at again when resumed.
   */
  files(): string[] {
    const files: string[] = [];
    for (const folder of this.watchers.keys()) {
      let entries;
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue;
      }
      const ignores = this.rules.folderJudge(folder);
      for (const entry of entries) {
        if (entry.isFile() && !ignores(entry.name, false) && !isTemporaryName(entry.name)) {
          files.push(path.join(folder, entry.name));
        }
      }
    }
    return files;
  }

  /** How many folders are watched. */
  get folderCount(): number {
    return this.watchers.size;
  }

  /** Watches `folder` and everything below it that is not skipped; `found` gets each file on the way. */
  private walk(folder: string, found: (file: string, size: number) => void): void {
    const pending = [folder];
    while (pending.length > 0) {
      const current = pending.pop()!;
      if (this.closed || this.watchers.has(current)) continue;
      // Its rules first: they decide what below it is skipped.
      this.rules.load(current);
      if (!this.watchFolder(current)) continue;
      let entries;
      try {
        entries = readdirSync(current, { withFileTypes: true });
      } catch {
        continue;
      }
      // The rules that apply here worked out once for all its entries, not again per entry.
      const ignores = this.rules.folderJudge(current);
      for (const entry of entries) {
        const full = path.join(current, entry.name);
        if (entry.isDirectory()) {
          if (!ignores(entry.name, true)) pending.push(full);
        } else if (entry.isFile() && !ignores(entry.name, false)) {
          const size = lstatSync(full, { throwIfNoEntry: false })?.size;
          if (size !== undefined && size <= this.maxFileBytes) found(full, size);
        }
      }
    }
  }

  private watchFolder(folder: string): boolean {
    const stats = lstatSync(folder, { throwIfNoEntry: false });
    if (!stats?.isDirectory()) return false;
    try {
      // Not persistent: watching never keeps the process alive by itself.
      const watcher = watch(folder, { persistent: false }, (_event, name) =>
        this.changed(folder, name === null ? undefined : String(name)),
      );
      watcher.on('error', (error) => {
        this.unwatchBelow(folder);
        this.options.onWatchFailed?.(folder, error);
      });
      this.watchers.set(folder, { watcher, ino: stats.ino });
      return true;
    } catch (error) {
      this.options.onWatchFailed?.(folder, error as Error);
      return false;
    }
  }

  private changed(folder: string, name: string | undefined): void {
    if (this.closed || !this.watchers.has(folder)) return;
    // DiffTray's own temp files (a write's temp file, a delete's file moved aside) are never changes.
    if (name === undefined || isTemporaryName(name)) return;
    const full = path.join(folder, name);
    if (name === '.gitignore') this.rules.load(folder);
    // The folder's own name, not an entry in it: the folder itself was deleted or moved away. Judged by
    // the folder's path alone (with a link put in its place, `full` leads beyond the link) and its inode
    // (a new folder made in its place is watched anew, its files reported like any new folder's).
    if (name === path.basename(folder)) {
      const now = lstatSync(folder, { throwIfNoEntry: false });
      if (!now?.isDirectory() || now.ino !== this.watchers.get(folder)?.ino) {
        this.unwatchBelow(folder);
        if (now?.isDirectory() && !this.rules.ignores(folder, true)) {
          this.walk(folder, (file) => this.options.onChange(file));
        }
        return;
      }
    }
    const stats = lstatSync(full, { throwIfNoEntry: false });
    if (stats?.isDirectory()) {
      if (!this.watchers.has(full) && !this.rules.ignores(full, true)) {
        this.walk(full, (file) => this.options.onChange(file));
      }
      return;
    }
    if (this.watchers.has(full)) {
      // A watched folder is gone (deleted or moved away): its watches go with it.
      this.unwatchBelow(full);
      return;
    }
    if (stats && !stats.isFile()) return;
    if (stats && stats.size > this.maxFileBytes) return;
    if (this.rules.ignores(full, false)) return;
    this.options.onChange(full);
  }

  private unwatchBelow(folder: string): void {
    const prefix = folder + path.sep;
    for (const [watched, { watcher }] of [...this.watchers]) {
      if (watched === folder || watched.startsWith(prefix)) {
        watcher.close();
        this.watchers.delete(watched);
      }
    }
  }
}
