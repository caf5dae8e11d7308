/** The texts most end-to-end reviews propose: nine Greek letters, and three hunks. */
import { lines } from '../../test/support/fixtures';

export { lines };

export const BASE = lines(...'alpha beta gamma delta epsilon zeta eta theta iota'.split(' '));
/** Three hunks: line 1 changed, line 5 changed, a line added after line 9. */
export const PROPOSED = lines(...'ALPHA beta gamma delta EPSILON zeta eta theta iota kappa'.split(' '));
/** Hunks 1 and 3 accepted, hunk 2 rejected. */
export const COMPOSED = lines(...'ALPHA beta gamma delta epsilon zeta eta theta iota kappa'.split(' '));
