/**
 * Watches files from their folders: one fs.watch per folder, shared by every path watched there. A path
 * whose folder does not exist (yet) is watched from its nearest existing folder above, for the name of the
 * next folder on the way.
 *
 * A folder's watch reports what happens to the names in it: a file written, created, deleted, or renamed
 * over (as editors save), whatever happened to it before; and it is in place once `fs.watch` returns. A
 * watch on the file itself, as chokidar sets, follows one inode and must be set again after every
 * rename-over: a second save before that is lost (seen under load). chokidar also watches a missing file's
 * folder for the file's own name only, so a missing folder on the way would never be seen to appear.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** `atFile`: the event names the file itself; otherwise where it must be watched may have changed. */
export type FolderEventListener = (file: string, atFile: boolean) => void;

interface WatchedFolder {
  watcher: FSWatcher;
  /** Each path watched from this folder, with the name in it of the path or of the next folder towards it. */
  files: Map<string, string>;
}

export class FolderWatch {
  private readonly folders = new Map<string, WatchedFolder>();
  private readonly folderOf = new Map<string, string>();

  constructor(private readonly listener: FolderEventListener) {}

  /** Watches `file` from `folder`, itself or an ancestor of its folder; false if it cannot be watched. */
  watch(file: string, folder: string): boolean {
    if (this.folderOf.get(file) === folder) return true;
    this.stop(file);
    let entry = this.folders.get(folder);
    if (!entry) {
      let watcher: FSWatcher;
      try {
        // Not persistent: watching never keeps the process alive by itself.
        watcher = watch(folder, { persistent: false }, (_event, name) => this.changed(folder, name));
      } catch {
        return false;
      }
      watcher.on('error', () => this.reset(folder));
      entry = { watcher, files: new Map() };
      this.folders.set(folder, entry);
    }
    entry.files.set(file, path.relative(folder, file).split(path.sep)[0]!);
    this.folderOf.set(file, folder);
    return true;
  }

  stop(file: string): void {
    const folder = this.folderOf.get(file);
    if (folder === undefined) return;
    this.folderOf.delete(file);
    const entry = this.folders.get(folder)!;
    entry.files.delete(file);
    if (entry.files.size === 0) {
      entry.watcher.close();
      this.folders.delete(folder);
    }
  }

  close(): void {
    for (const { watcher } of this.folders.values()) watcher.close();
    this.folders.clear();
    this.folderOf.clear();
  }

  /** How many folders are watched. */
  get size(): number {
    return this.folders.size;
  }

  private changed(folder: string, name: string | Buffer | null): void {
    const entry = this.folders.get(folder);
    if (!entry) return;
    const changed = name === null ? undefined : String(name);
    // No name, or the folder's own (it was moved or deleted: its watch is gone with it).
    if (changed === undefined || changed === path.basename(folder)) {
      this.reset(folder);
      return;
    }
    for (const [file, next] of [...entry.files]) {
      if (next === changed) this.listener(file, folder === path.dirname(file));
    }
  }

  /** Drops the folder's watch and hands its files back, to be watched from wherever is right now. */
  private reset(folder: string): void {
    const entry = this.folders.get(folder);
    if (!entry) return;
    entry.watcher.close();
    this.folders.delete(folder);
    for (const file of entry.files.keys()) this.folderOf.delete(file);
    for (const file of entry.files.keys()) this.listener(file, false);
  }
}
