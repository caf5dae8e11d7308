/**
 * Which review (and file of it) the person looks at now: the one a window last named with focusReview
 * (state-feed.ts), until that window names another, none, or closes. The context services answer
 * get_active_file_info from it. A window that does not say which file it shows leaves `fileIndex`
 * undefined: the review's first file stands for it.
 */
export interface ReviewOnScreen {
  reviewId: string;
  fileIndex: number | undefined;
}

export class OnScreen {
  private current: { owner: object; shown: ReviewOnScreen } | undefined;
  private readonly listeners = new Set<() => void>();

  /** `owner` (a window's subscription) now shows `reviewId` (null: nothing). */
  show(owner: object, reviewId: string | null, fileIndex?: number): void {
    const before = this.current?.shown;
    if (reviewId !== null) this.current = { owner, shown: { reviewId, fileIndex } };
    else if (this.current?.owner === owner) this.current = undefined;
    const after = this.current?.shown;
    if (before?.reviewId !== after?.reviewId || before?.fileIndex !== after?.fileIndex) {
      for (const listener of this.listeners) listener();
    }
  }

  /** The window closed: what it showed is on screen no more. */
  release(owner: object): void {
    this.show(owner, null);
  }

  /** What `owner` shows, when what is on screen is its. */
  shownBy(owner: object): ReviewOnScreen | undefined {
    return this.current?.owner === owner ? { ...this.current.shown } : undefined;
  }

  get(): ReviewOnScreen | null {
    return this.current ? { ...this.current.shown } : null;
  }

  /** Called after each change of what is on screen; returns the way to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
