/**
 * Watches every file under review, so a file edited on disk while its review waits is flagged at once.
 * The queue says when a path starts or stops being under review, and only that path is watched or let go.
 *
 * A file that exists is watched with chokidar, whose first event for it ('add') comes once its watch is
 * in place: the file is then looked at once, and any change between the proposal's read and that moment
 * shows in its signature (disk-snapshot.ts), without reading it again. A missing file is waited for from
 * its nearest existing folder (missing-path-watch.ts), and looked at once that watch is in place. There
 * is no timer: with nothing changing on disk, nothing runs, however many reviews wait. The submit-time
 * check in disk-guard.ts is the guarantee; this is the early warning.
 */
import { watch, type FSWatcher } from 'chokidar';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { refreshFromDisk } from './disk-guard';
import { MissingPathWatch } from './missing-path-watch';
import type { ReviewQueue } from './review-queue';

export class ReviewWatcher {
  private readonly files: FSWatcher;
  private readonly missing: MissingPathWatch;
  /** Each watched path with the number of its latest placement; an older placement still running stops. */
  private readonly placements = new Map<string, number>();
  private nextPlacement = 1;
  /** Paths being looked at, each with whether another look was asked for meanwhile. */
  private readonly looking = new Map<string, boolean>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly queue: ReviewQueue,
    private readonly workspaceFolders: readonly string[],
  ) {
    // Not ignoreInitial: the first 'add' says the watch is in place. Never followed into a symlink or a
    // folder swapped in where a file was.
    this.files = watch([], { ignoreInitial: false, followSymlinks: false, depth: 0, persistent: true });
    this.files.on('all', (event, changed) => this.fileEvent(event, changed));
    // Watch errors (a folder removed, too many watches) must not take the app down; submit still checks.
    this.files.on('error', () => {});
    this.missing = new MissingPathWatch((waiting) => void this.place(waiting));
    this.unsubscribe = queue.onPendingPath((changed, pending) =>
      pending ? this.watch(changed) : this.unwatch(changed),
    );
    for (const pending of queue.pendingPaths()) this.watch(pending);
  }

  async close(): Promise<void> {
    this.unsubscribe();
    this.placements.clear();
    this.missing.close();
    await this.files.close();
  }

  /** How many paths are watched, and how many folders wait for missing ones (for tests). */
  get counts(): { paths: number; waitingFolders: number } {
    return { paths: this.placements.size, waitingFolders: this.missing.folderCount };
  }

  private watch(file: string): void {
    this.placements.set(file, 0);
    void this.place(file);
  }

  private unwatch(file: string): void {
    this.placements.delete(file);
    this.missing.stop(file);
    void this.files.unwatch(file);
  }

  private fileEvent(event: string, file: string): void {
    if (!this.placements.has(file)) return;
    // Gone (deleted, or its folder was): wait for it where it can come back. chokidar alone would not
    // see it return once its folder went too.
    if (event === 'unlink' || event === 'unlinkDir') void this.place(file);
    else void this.look(file);
  }

  /**
   * Watches `file` where a change to it will show: with chokidar if something is there, else from the
   * nearest existing folder above it. Called again whenever that stops being the right place.
   */
  private async place(file: string): Promise<void> {
    if (!this.placements.has(file)) return;
    const placement = this.nextPlacement++;
    this.placements.set(file, placement);
    const current = () => this.placements.get(file) === placement;
    if (await exists(file)) {
      if (!current()) return;
      this.missing.stop(file);
      // chokidar's first event for the file, once its watch is set, brings the look (fileEvent).
      this.files.add(file);
      return;
    }
    let folder = path.dirname(file);
    let next = path.basename(file);
    while (!(await exists(folder)) && path.dirname(folder) !== folder) {
      next = path.basename(folder);
      folder = path.dirname(folder);
    }
    if (!current()) return;
    void this.files.unwatch(file);
    this.missing.wait(file, folder, next);
    // The watch is in place now: what appeared before it was set is seen here.
    if (await exists(path.join(folder, next))) {
      if (current()) void this.place(file);
      return;
    }
    if (current()) await this.look(file);
  }

  /** Looks at the disk and tells the queue; one look at a time per path, the last request always served. */
  private async look(file: string): Promise<void> {
    if (this.looking.has(file)) {
      this.looking.set(file, true);
      return;
    }
    try {
      do {
        this.looking.set(file, false);
        if (!this.placements.has(file)) break;
        await refreshFromDisk(this.queue, [file], this.workspaceFolders);
      } while (this.looking.get(file));
    } finally {
      this.looking.delete(file);
    }
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}
