/**
 * The paths of the files in pending reviews, each with the reviews that hold it, kept up to date as
 * reviews arrive and end. Whoever watches the disk learns of the one path that started or stopped
 * mattering, and whoever notes what is on disk reaches the reviews of that path only, never by going
 * through every pending review.
 */

/** Told when `path` gets its first pending review (`pending`) or loses its last one. */
export type PendingPathListener = (path: string, pending: boolean) => void;

export class PendingPaths<Holder> {
  /** Each path with its holders, in the order they came: the newest last. */
  private readonly holdersOf = new Map<string, Set<Holder>>();
  private readonly listeners = new Set<PendingPathListener>();

  onChange(listener: PendingPathListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  hold(path: string, holder: Holder): void {
    const holders = this.holdersOf.get(path);
    if (holders) {
      holders.add(holder);
      return;
    }
    this.holdersOf.set(path, new Set([holder]));
    this.emit(path, true);
  }

  /** Returns true when that was the path's last holder. */
  release(path: string, holder: Holder): boolean {
    const holders = this.holdersOf.get(path);
    if (!holders?.delete(holder) || holders.size > 0) return false;
    this.holdersOf.delete(path);
    this.emit(path, false);
    return true;
  }

  has(path: string): boolean {
    return this.holdersOf.has(path);
  }

  /** The holders of `path`, oldest first. */
  holders(path: string): ReadonlySet<Holder> {
    return this.holdersOf.get(path) ?? new Set();
  }

  paths(): IterableIterator<string> {
    return this.holdersOf.keys();
  }

  private emit(path: string, pending: boolean): void {
    for (const listener of this.listeners) listener(path, pending);
  }
}
