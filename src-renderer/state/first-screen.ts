/**
 * When the window first draws. Drawing before main's state is in would lay out a screen that the
 * state replaces a moment later (on a busy machine the two layouts cost more than the wait), and would
 * claim, for that moment, that nothing is waiting. So the first screen waits for main's state, but not
 * for long: a failed connection, or a main slow to answer, draws it anyway, to say so.
 */
import type { StoreApi } from 'zustand';
import type { AppState } from './store';

/** How long the first screen waits for main's state at most. */
export const FIRST_SCREEN_WAIT_MS = 1_000;

export function whenFirstScreenReady(
  store: Pick<StoreApi<AppState>, 'getState' | 'subscribe'>,
  waitMs = FIRST_SCREEN_WAIT_MS,
): Promise<void> {
  const ready = (state: AppState): boolean => state.snapshot !== null || state.connection === 'disconnected';
  return new Promise((resolve) => {
    if (ready(store.getState())) return resolve();
    const done = (): void => {
      unsubscribe();
      clearTimeout(timer);
      resolve();
    };
    const unsubscribe = store.subscribe((state) => {
      if (ready(state)) done();
    });
    const timer = setTimeout(done, waitMs);
  });
}
