/** Everything the app knows, behind one object: the queue, the clients, the workspace folders. */
import type { AppSnapshot } from '../../shared/app-api';
import { ClientRegistry } from './client-registry';
import { ReviewQueue } from './review-queue';
import { ReviewWatcher } from './review-watcher';

export class AppCore {
  readonly queue: ReviewQueue;
  readonly clients: ClientRegistry;
  private watcher: ReviewWatcher | undefined;
  private readonly listeners = new Set<(snapshot: AppSnapshot) => void>();
  private notifyScheduled = false;

  constructor(
    readonly workspaceFolders: readonly string[],
    now: () => number = Date.now,
  ) {
    this.queue = new ReviewQueue(now);
    this.clients = new ClientRegistry(now);
    this.queue.onChange(() => this.scheduleNotify());
    this.clients.onChange(() => this.scheduleNotify());
  }

  /** Starts watching the files under review on disk (the runtime does; unit tests may not need it). */
  watchFiles(): void {
    this.watcher ??= new ReviewWatcher(this.queue);
  }

  async close(): Promise<void> {
    await this.watcher?.close();
    this.watcher = undefined;
  }

  snapshot(): AppSnapshot {
    return {
      reviews: this.queue.summaries(),
      clients: this.clients.list(),
      workspaceFolders: [...this.workspaceFolders],
    };
  }

  /** Listeners get one snapshot per burst of changes, not one per change. */
  onSnapshot(listener: (snapshot: AppSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private scheduleNotify(): void {
    if (this.notifyScheduled) return;
    this.notifyScheduled = true;
    queueMicrotask(() => {
      this.notifyScheduled = false;
      if (this.listeners.size === 0) return;
      const snapshot = this.snapshot();
      for (const listener of this.listeners) listener(snapshot);
    });
  }
}
