/**
 * A turn review's time limit (the agent's `timeoutMinutes` setting): not decided in time, it ends as if
 * everything were kept — cancelled with the reason in History, nothing reverted, and the end-of-turn hook
 * prints nothing, so the agent's turn ends.
 */

/** A minute, in milliseconds; tests start the endpoint with a shorter one. */
export const MINUTE_MS = 60_000;

/** The reason History shows for a turn review that timed out. */
export function timedOutReason(minutes: number): string {
  return `no decision within ${minutes} minute${minutes === 1 ? '' : 's'}: the turn's writes were kept`;
}

/**
 * Calls `cancel` with the reason once `minutes` (of `minuteMs` each) have passed; returns the way to stop
 * the clock (the review was decided). The timer does not keep the process alive.
 */
export function startTurnDeadline(
  minutes: number,
  minuteMs: number,
  cancel: (reason: string) => void,
): () => void {
  const timer = setTimeout(() => cancel(timedOutReason(minutes)), minutes * minuteMs);
  timer.unref();
  return () => clearTimeout(timer);
}
