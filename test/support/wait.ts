import type { AppSnapshot, ReviewSummary } from '../../shared/app-api';
import type { AppCore } from '../../src-main/core/app-core';

/** Resolves with the first review matching `predicate` (with every hunk), now or when it arrives. */
export function waitForReview(
  core: AppCore,
  predicate: (review: ReviewSummary) => boolean = (review) => review.state === 'pending',
): Promise<ReviewSummary> {
  return waitForCore(core, () => core.queue.summaries().find(predicate));
}

export function waitForSnapshot<T>(
  core: AppCore,
  pick: (snapshot: AppSnapshot) => T | undefined,
): Promise<T> {
  return waitForCore(core, () => pick(core.snapshot()));
}

/** Resolves with `probe()` once it is defined, looking again after every change core sends. */
function waitForCore<T>(core: AppCore, probe: () => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    const now = probe();
    if (now !== undefined) return resolve(now);
    const subscription = core.subscribe(() => {
      const found = probe();
      if (found !== undefined) {
        subscription.close();
        resolve(found);
      }
    });
  });
}

/**
 * Resolves with `probe()` once it is defined; rejects after `timeoutMs` (a failure, not a measurement),
 * naming `what` did not happen. A probe that starts a process (a terminal's screen) wants a longer
 * `intervalMs`, so the waiting does not load the machine it waits on.
 */
export async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 5000,
  intervalMs = 10,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
