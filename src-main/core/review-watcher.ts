/**
 * Watches every file under review, so a file edited on disk while its review waits is flagged at once.
 * chokidar reports most changes immediately; a slow stat poll catches what it cannot see (a change
 * while a watch is still being set up, a file created in a folder that did not exist yet, network
 * file systems). The submit-time check in disk-guard.ts is the guarantee; this is the early warning.
 */
import { watch, type FSWatcher } from 'chokidar';
import { stat } from 'node:fs/promises';
import { refreshFromDisk } from './disk-guard';
import type { ReviewQueue } from './review-queue';

const POLL_INTERVAL_MS = 1500;

export class ReviewWatcher {
  private readonly watcher: FSWatcher;
  /** Watched paths with the size and mtime last seen, "absent" for a missing file. */
  private readonly watched = new Map<string, string>();
  private readonly unsubscribe: () => void;
  private readonly poller: NodeJS.Timeout;

  constructor(
    private readonly queue: ReviewQueue,
    private readonly workspaceFolders: readonly string[],
  ) {
    this.watcher = watch([], { ignoreInitial: true, persistent: true });
    this.watcher.on('all', (_event, path) => void this.check(path, true));
    // Watch errors (a folder removed, too many watches) must not take the app down; the poll goes on.
    this.watcher.on('error', () => {});
    this.unsubscribe = queue.onChange(() => this.sync());
    this.poller = setInterval(() => {
      for (const path of this.watched.keys()) void this.check(path, false);
    }, POLL_INTERVAL_MS);
    this.poller.unref();
    this.sync();
  }

  async close(): Promise<void> {
    this.unsubscribe();
    clearInterval(this.poller);
    await this.watcher.close();
  }

  private sync(): void {
    const wanted = this.queue.pendingPaths();
    const removed = [...this.watched.keys()].filter((path) => !wanted.has(path));
    const added = [...wanted].filter((path) => !this.watched.has(path));
    for (const path of removed) this.watched.delete(path);
    if (removed.length) void this.watcher.unwatch(removed);
    if (added.length) {
      for (const path of added) this.watched.set(path, '');
      this.watcher.add(added);
      for (const path of added) void this.check(path, true);
    }
  }

  /** Re-reads the file when told to, or when its size or mtime moved since the last look. */
  private async check(path: string, force: boolean): Promise<void> {
    if (!this.watched.has(path)) return;
    let signature = 'absent';
    try {
      const stats = await stat(path);
      signature = `${stats.size}:${stats.mtimeMs}`;
    } catch {
      // Missing (or unreadable): "absent" is what the next look compares with.
    }
    if (!force && this.watched.get(path) === signature) return;
    this.watched.set(path, signature);
    await refreshFromDisk(this.queue, [path], this.workspaceFolders);
  }
}
