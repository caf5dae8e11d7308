/** A fixed-window message counter: at most `messages` per `perMs`. */
export interface RateLimit {
  messages: number;
  perMs: number;
}

export class RateWindow {
  private windowStart = Date.now();
  private count = 0;

  constructor(readonly limit: RateLimit) {}

  /** Counts one message; false when it is over the limit of the current window. */
  take(now = Date.now()): boolean {
    if (now - this.windowStart >= this.limit.perMs) {
      this.windowStart = now;
      this.count = 0;
    }
    this.count++;
    return this.count <= this.limit.messages;
  }
}
