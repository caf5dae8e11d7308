/** One thing made ahead of need and kept between uses: a second one in use at the same time is not kept. */
export class Spare<T> {
  private kept: T | null = null;

  constructor(
    private readonly make: () => T,
    private readonly discard: (item: T) => void,
  ) {}

  /** Makes the spare now, unless there is one. */
  prepare(): void {
    this.kept ??= this.make();
  }

  /** The spare, or a new one when there is none. */
  take(): T {
    const item = this.kept ?? this.make();
    this.kept = null;
    return item;
  }

  /** Keeps `item` as the spare, or discards it when there is one already. */
  give(item: T): void {
    if (this.kept) this.discard(item);
    else this.kept = item;
  }
}
