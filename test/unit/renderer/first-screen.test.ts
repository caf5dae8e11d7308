/**
 * The window's first screen waits for main's state (first-screen.ts): drawn when it is in, when the
 * connection fails, or when main is slow to answer; never before any of these.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SCREEN_WAIT_MS, whenFirstScreenReady } from '../../../src-renderer/state/first-screen';
import { useAppStore } from '../../../src-renderer/state/store';
import { snapshot } from './fixtures-app-shell';

/** Whether the promise has settled, once pending work has run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('the first screen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useAppStore.setState({ snapshot: null, connection: 'connecting', selectedReviewId: null });
  });
  afterEach(() => vi.useRealTimers());

  it("waits for main's state and is drawn as it comes in", async () => {
    const ready = whenFirstScreenReady(useAppStore);
    useAppStore.getState().setConnection('connected');
    expect(await settled(ready)).toBe(false);
    useAppStore.getState().applySnapshot(snapshot([]));
    expect(await settled(ready)).toBe(true);
  });

  it('is drawn at once when the connection fails, to say so', async () => {
    const ready = whenFirstScreenReady(useAppStore);
    useAppStore.getState().setConnection('disconnected', 'refused');
    expect(await settled(ready)).toBe(true);
  });

  it('is drawn anyway when main is slow to answer', async () => {
    const ready = whenFirstScreenReady(useAppStore);
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_WAIT_MS - 1);
    expect(await settled(ready)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(ready)).toBe(true);
  });

  it('is drawn at once when the state is already in', async () => {
    useAppStore.getState().applySnapshot(snapshot([]));
    expect(await settled(whenFirstScreenReady(useAppStore))).toBe(true);
  });
});
