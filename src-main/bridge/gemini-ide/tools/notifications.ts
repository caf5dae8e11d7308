/** The notifications the Gemini CLI companion protocol sends to the CLI. */
export const DIFF_ACCEPTED = 'ide/diffAccepted';
export const DIFF_REJECTED = 'ide/diffRejected';
export const DIFF_CLOSED = 'ide/diffClosed';
export const CONTEXT_UPDATE = 'ide/contextUpdate';
