/**
 * The change stream to the window, kept apart from Electron so it is tested without it. While the
 * window is hidden nothing is built or sent for it; when it shows again it gets the whole state first,
 * then changes as they happen.
 */
import type { StateEvent } from '../../shared/app-api';
import type { AppCore } from '../core/app-core';
import type { StateSubscription } from '../core/state-feed';

export class WindowFeed {
  private subscription: StateSubscription | undefined;

  constructor(
    private readonly core: AppCore,
    private readonly send: (event: StateEvent) => void,
  ) {}

  /** The window's end of the stream, for its focusReview calls; none while it is hidden. */
  get current(): StateSubscription | undefined {
    return this.subscription;
  }

  /** The window is on screen: the whole state now, then every change. */
  shown(): void {
    if (this.subscription) return;
    this.subscription = this.core.subscribe((change) => this.send({ change }));
    this.send({ snapshot: this.core.snapshot() });
  }

  /** The window is hidden (or gone): stop building and sending anything for it. */
  hidden(): void {
    this.subscription?.close();
    this.subscription = undefined;
  }
}
