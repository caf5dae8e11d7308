/**
 * Quitting with reviews pending ends them: each waiting agent is told "DiffTray quit" as a rejection.
 * So Quit asks first, but only then; with nothing pending it quits at once.
 */

/** The reason every pending review is rejected with when DiffTray quits. */
export const QUIT_REJECT_REASON = 'DiffTray quit';

export interface QuitPrompt {
  message: string;
  detail: string;
  buttons: [string, string];
  /** Index of the button that quits. */
  quitButton: 0;
  /** Escape and the default both cancel: quitting by accident would reject agents' work. */
  cancelId: 1;
  defaultId: 1;
}

/** The question to ask before quitting, or null when nothing is pending and no question is needed. */
export function quitPrompt(pendingCount: number): QuitPrompt | null {
  if (pendingCount <= 0) return null;
  const reviews = pendingCount === 1 ? '1 review is' : `${pendingCount} reviews are`;
  const them = pendingCount === 1 ? 'It is' : 'They are';
  return {
    message: `Quit DiffTray? ${reviews} still pending.`,
    detail: `${them} rejected and each agent is told "${QUIT_REJECT_REASON}".`,
    buttons: ['Quit and reject', 'Cancel'],
    quitButton: 0,
    cancelId: 1,
    defaultId: 1,
  };
}
