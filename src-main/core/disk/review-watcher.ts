/**
 * Watches every file under review, so a file edited on disk while its review waits is flagged at once.
 * The queue says when a path starts or stops being under review, and only that path is watched or let go.
 *
 * Each file is watched from its folder (folder-watch.ts), or from its nearest existing folder while its own
 * does not exist. Once that watch is in place the file is looked at: a change between the proposal's read
 * and that moment shows in its signature (disk-snapshot.ts) without reading it again, and every change
 * after it is reported by the watch. There is no timer: with nothing changing on disk, nothing runs,
 * however many reviews wait. The submit-time check in disk-guard.ts is the guarantee (it also covers what
 * no watch reports, such as a network file system changed from another machine); this is the early warning.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { refreshFromDisk } from './disk-guard';
import { FolderWatch } from './folder-watch';
import type { ReviewQueue } from '../review/review-queue';
import { foldersNow, type FolderList } from '../workspace/workspace-folders';

export class ReviewWatcher {
  private readonly folders: FolderWatch;
  /** The paths watched: those of pending reviews. */
  private readonly watched = new Set<string>();
  /** Paths that became pending in the current burst, to be placed once it is over. */
  private readonly toPlace = new Set<string>();
  private placingScheduled = false;
  /** Paths being looked at, each with whether another look was asked for meanwhile. */
  private readonly looking = new Map<string, boolean>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly queue: ReviewQueue,
    private readonly workspaceFolders: FolderList,
  ) {
    this.folders = new FolderWatch((file, atFile) => void (atFile ? this.look(file) : this.place(file)));
    this.unsubscribe = queue.onPendingPath((file, pending) =>
      pending ? this.watch(file) : this.unwatch(file),
    );
    for (const file of queue.pendingPaths()) this.watch(file);
  }

  close(): Promise<void> {
    this.unsubscribe();
    this.watched.clear();
    this.toPlace.clear();
    this.folders.close();
    return Promise.resolve();
  }

  /** How many paths are watched, from how many folders. */
  get counts(): { paths: number; folders: number } {
    return { paths: this.watched.size, folders: this.folders.size };
  }

  /**
   * Placed once the burst of work that made the path pending is over (one setImmediate per burst, not
   * per path): a review decided within that burst, as an automatic decision or a scripted driver does,
   * costs no watch and no look; the submit's own look at the disk is the check that counts.
   */
  private watch(file: string): void {
    this.watched.add(file);
    this.toPlace.add(file);
    if (this.placingScheduled) return;
    this.placingScheduled = true;
    setImmediate(() => {
      this.placingScheduled = false;
      const files = [...this.toPlace];
      this.toPlace.clear();
      for (const waiting of files) void this.place(waiting);
    });
  }

  private unwatch(file: string): void {
    this.watched.delete(file);
    this.toPlace.delete(file);
    this.folders.stop(file);
  }

  /**
   * Watches `file` from its folder, or from the nearest existing one above, then looks at it. Called again
   * whenever that folder stops being the right one (it went away, or a missing folder appeared).
   */
  private async place(file: string): Promise<void> {
    if (!this.watched.has(file)) return;
    const folder = nearestFolder(file);
    if (!this.folders.watch(file, folder)) return;
    // The watch is in place: a folder that appeared while it was being set means looking higher up was
    // wrong. (The file's own folder going away is reported by its watch.)
    if (folder !== path.dirname(file) && nearestFolder(file) !== folder) {
      void this.place(file);
      return;
    }
    await this.look(file);
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
        if (!this.watched.has(file)) break;
        await refreshFromDisk(this.queue, [file], foldersNow(this.workspaceFolders));
      } while (this.looking.get(file));
    } finally {
      this.looking.delete(file);
    }
  }
}

/**
 * The folder of `file` if it exists, else the nearest existing one above it. A direct lstat, not a
 * thread-pool trip: it takes microseconds, and every proposal places a watch.
 */
function nearestFolder(file: string): string {
  let folder = path.dirname(file);
  while (!isFolder(folder) && path.dirname(folder) !== folder) folder = path.dirname(folder);
  return folder;
}

function isFolder(candidate: string): boolean {
  return lstatSync(candidate, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
