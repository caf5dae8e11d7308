/**
 * Waits for missing files to appear. Each is watched from its nearest existing folder, one fs.watch per
 * folder shared by every path waiting there; when the folder reports the name of the next step on the way
 * (the file, or a folder above it), that path is handed back to be placed again.
 *
 * chokidar cannot do this: for a missing file it watches the parent folder for the file's own name only,
 * so a missing folder on the way is never seen to appear; and it tells nobody when that watch is in place,
 * whereas an fs.watch is in place when the call returns.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

interface WatchedFolder {
  watcher: FSWatcher;
  /** Each waiting path with the name, in this folder, of the next step towards it. */
  waiting: Map<string, string>;
}

export class MissingPathWatch {
  private readonly folders = new Map<string, WatchedFolder>();
  private readonly folderOf = new Map<string, string>();

  constructor(private readonly stepAppeared: (path: string) => void) {}

  /** Watches `folder` for `next`, the step towards `path`; false when the folder cannot be watched. */
  wait(waitingPath: string, folder: string, next: string): boolean {
    this.stop(waitingPath);
    let entry = this.folders.get(folder);
    if (!entry) {
      let watcher: FSWatcher;
      try {
        // Not persistent: a path waiting to appear never keeps the process alive by itself.
        watcher = watch(folder, { persistent: false }, (_event, name) => this.changed(folder, name));
      } catch {
        return false;
      }
      // The folder itself went away (or the watch broke): every path waiting there looks again.
      watcher.on('error', () => this.changed(folder, null));
      entry = { watcher, waiting: new Map() };
      this.folders.set(folder, entry);
    }
    entry.waiting.set(waitingPath, next);
    this.folderOf.set(waitingPath, folder);
    return true;
  }

  stop(waitingPath: string): void {
    const folder = this.folderOf.get(waitingPath);
    if (folder === undefined) return;
    this.folderOf.delete(waitingPath);
    const entry = this.folders.get(folder)!;
    entry.waiting.delete(waitingPath);
    if (entry.waiting.size === 0) {
      entry.watcher.close();
      this.folders.delete(folder);
    }
  }

  close(): void {
    for (const { watcher } of this.folders.values()) watcher.close();
    this.folders.clear();
    this.folderOf.clear();
  }

  /** How many folders are watched (for tests). */
  get folderCount(): number {
    return this.folders.size;
  }

  private changed(folder: string, name: string | Buffer | null): void {
    const entry = this.folders.get(folder);
    if (!entry) return;
    const changed = name === null ? undefined : String(name);
    // No name, or the folder's own name (it was moved or deleted): the event may concern any of them.
    const all = changed === undefined || changed === path.basename(folder);
    for (const [waitingPath, next] of [...entry.waiting]) {
      if (all || next === changed) this.stepAppeared(waitingPath);
    }
  }
}
