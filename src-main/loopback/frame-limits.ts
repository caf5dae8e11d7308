/**
 * Limits every socket of every endpoint (and the headless API) applies, before and after a client has
 * proved its token. See README, Security.
 */
/** Largest frame an authenticated client may send (stated in shared/limits.ts, with the other limits). */
export { MAX_FRAME_BYTES } from '../core/limits';

/** Largest frame before authentication: enough for a connect/hello message, nothing more. */
export const MAX_PREAUTH_FRAME_BYTES = 64 * 1024;

/** A connection that has not proved its token within this time is closed. */
export const AUTH_DEADLINE_MS = 5_000;
