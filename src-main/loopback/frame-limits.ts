/**
 * Limits every socket of every endpoint (and the headless API) applies, before and after a client has
 * proved its token. See README, Security.
 */
import { MAX_FILE_BYTES } from '../core/limits';

/**
 * Largest frame (or HTTP body) an authenticated client may send: two files of the 10 MB limit (a base and
 * a proposal), JSON-escaped, with room for the envelope. Anything larger closes the socket (1009).
 */
export const MAX_FRAME_BYTES = 6 * MAX_FILE_BYTES + 1024 * 1024;

/** Largest frame before authentication: enough for a connect/hello message, nothing more. */
export const MAX_PREAUTH_FRAME_BYTES = 64 * 1024;

/** A connection that has not proved its token within this time is closed. */
export const AUTH_DEADLINE_MS = 5_000;
