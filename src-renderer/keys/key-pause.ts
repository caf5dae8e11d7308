/**
 * The key-pause rule (docs/REVIEWING.md): when the review on screen changes without the person asking (the
 * one they were on ended and the next came up, or the first one arrived), decision keys are ignored
 * for a moment, so a keystroke meant for the previous review cannot land on the new one.
 */
import type { Command } from './review-command';

/** Keys that change a decision: the ones a pause holds. */
export const DECISION_COMMANDS: ReadonlySet<Command> = new Set<Command>([
  'acceptHunk',
  'rejectHunk',
  'acceptAll',
  'rejectAll',
  'undo',
  'submit',
]);

/** How long decision keys are ignored after the review on screen changed by itself. */
export const KEY_PAUSE_MS = 700;

export interface KeyPause {
  until: number;
  /** What the status line says meanwhile. */
  text: string;
}

export function keyPauseText(title: string): string {
  return `New review: ${title} — keys paused briefly`;
}

/**
 * The pause to start after a snapshot moved the selection from `previousId` to `next` on its own, or
 * null when there is nothing new on screen (same review, or no review at all).
 */
export function pauseForAutoSelection(
  previousId: string | null,
  next: { id: string; title: string } | undefined,
  now: number,
): KeyPause | null {
  if (!next || next.id === previousId) return null;
  return { until: now + KEY_PAUSE_MS, text: keyPauseText(next.title) };
}

export function isPaused(pause: KeyPause | null | undefined, now: number): boolean {
  return pause != null && now < pause.until;
}

/** True when the command must be ignored now: a decision key during a pause. */
export function ignoredDuringPause(
  command: Command,
  pause: KeyPause | null | undefined,
  now: number,
): boolean {
  return DECISION_COMMANDS.has(command) && isPaused(pause, now);
}
