/**
 * A module of views the first screen does not show, imported when a view first needs it or when the
 * page is idle after its first screen (whichever comes first), so its code is not evaluated before the
 * queue is on screen. A view reads it with `use()`: the module once loaded, or why it could not be.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { messageOf } from '../../shared/error-message';

export type ModuleLoad<T> = { module: T; error: null } | { module: null; error: string | null };

export interface LazyModule<T> {
  /** Imports the module once; after a failure the next call tries again. */
  load(): Promise<T>;
  /** The module for a view that needs it now: loading starts at once if it has not yet. */
  use(): ModuleLoad<T>;
}

export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let state: ModuleLoad<T> = { module: null, error: null };
  let loading: Promise<T> | null = null;
  const listeners = new Set<() => void>();
  const settle = (next: ModuleLoad<T>): void => {
    state = next;
    for (const listener of listeners) listener();
  };
  const subscribe = (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const load = (): Promise<T> => {
    loading ??= importer().then(
      (module) => {
        settle({ module, error: null });
        return module;
      },
      (error: unknown) => {
        loading = null;
        settle({ module: null, error: messageOf(error) });
        throw error;
      },
    );
    return loading;
  };
  return {
    load,
    use() {
      const current = useSyncExternalStore(subscribe, () => state);
      const missing = current.module === null;
      useEffect(() => {
        if (missing)
          load().catch(() => {
            // Said on screen through `error`.
          });
      }, [missing]);
      return current;
    },
  };
}

type IdleScheduler = (callback: () => void, options: { timeout: number }) => number;

/** Longest wait for an idle moment before running anyway (a busy page would otherwise never run it). */
const IDLE_TIMEOUT_MS = 2000;

/**
 * Runs `work` once the screen shown now has been painted and the page is idle. Returns the function
 * that cancels it if it has not started yet.
 */
export function whenIdleAfterPaint(work: () => void): () => void {
  let cancelled = false;
  const idle: IdleScheduler =
    typeof window.requestIdleCallback === 'function'
      ? (callback, options) => window.requestIdleCallback(callback, options)
      : (callback) => window.setTimeout(callback, 0);
  // A frame, then a task: the callback of requestAnimationFrame runs before that frame is painted.
  const frame = window.requestAnimationFrame(() => {
    window.setTimeout(() => {
      if (cancelled) return;
      idle(
        () => {
          if (!cancelled) work();
        },
        { timeout: IDLE_TIMEOUT_MS },
      );
    }, 0);
  });
  return () => {
    cancelled = true;
    window.cancelAnimationFrame(frame);
  };
}
