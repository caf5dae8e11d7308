/**
 * A watched folder whose reviewing is paused because a limit was reached: the changes seen since are
 * held (by path), neither reviewed nor taken as reviewed, until the person resumes. Their baselines stay
 * where the person last decided, so what resuming reviews is everything that changed since then.
 * Bounded: past MAX_HELD_PATHS paths, resuming looks at every file of the folder again instead.
 */

/** Changed paths kept while paused, at most. */
export const MAX_HELD_PATHS = 10_000;

/** What resuming must look at again: the paths held, or every file in the folder. */
export type Resumed = { files: string[] } | { all: true };

export class FolderPause {
  private paused: { reason: string; since: number } | undefined;
  private readonly held = new Set<string>();
  private overflow = false;

  get isPaused(): boolean {
    return this.paused !== undefined;
  }

  /** Pauses (the first reason stays until resumed) and holds `files`; answers whether it was running. */
  pause(reason: string, files: Iterable<string>): boolean {
    const wasRunning = this.paused === undefined;
    this.paused ??= { reason, since: Date.now() };
    this.hold(files);
    return wasRunning;
  }

  /** Changes seen while paused: looked at when resumed. */
  hold(files: Iterable<string>): void {
    for (const file of files) {
      if (this.overflow) return;
      this.held.add(file);
      if (this.held.size > MAX_HELD_PATHS) {
        this.overflow = true;
        this.held.clear();
      }
    }
  }

  /** Resumes: what to look at again, or undefined when it was not paused. */
  resume(): Resumed | undefined {
    if (!this.paused) return undefined;
    const resumed: Resumed = this.overflow ? { all: true } : { files: [...this.held] };
    this.paused = undefined;
    this.held.clear();
    this.overflow = false;
    return resumed;
  }

  /** As the window shows it. */
  get state(): { reason: string; since: number; heldChanges: number } | undefined {
    if (!this.paused) return undefined;
    return { ...this.paused, heldChanges: this.overflow ? MAX_HELD_PATHS + 1 : this.held.size };
  }
}
