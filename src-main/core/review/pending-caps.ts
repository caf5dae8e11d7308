/**
 * How much may wait for the person at once. Pending reviews hold their full texts, so they are capped by
 * bytes as well as by count: per client (one busy agent cannot crowd out the others) and in all (many
 * connections cannot add up to more than the app can hold).
 */
import { describeBytes } from '../../../shared/limits';
import {
  MAX_PENDING_REVIEWS_PER_CLIENT,
  MAX_PENDING_TEXT_BYTES,
  MAX_PENDING_TEXT_BYTES_PER_CLIENT,
} from '../limits';

/** A proposal refused because too much already waits; each adapter says so in its protocol. */
export class TooManyPendingReviewsError extends Error {
  constructor(
    message: string,
    /** The limit that was reached (a count of reviews, or bytes). */
    readonly limit: number,
  ) {
    super(message);
  }
}

/** What waits already: the client's pending reviews and bytes, and the bytes of all pending reviews. */
export interface Waiting {
  clientCount: number;
  clientBytes: number;
  totalBytes: number;
}

/**
 * Throws TooManyPendingReviewsError unless a proposal of `bytes` from `client` fits beside what waits
 * (the pending reviews that will remain: those it supersedes already left out).
 */
export function checkRoomFor(client: { name: string }, bytes: number, waiting: Waiting): void {
  const wait = 'wait for the person to decide (or close some) before proposing more';
  if (waiting.clientCount >= MAX_PENDING_REVIEWS_PER_CLIENT) {
    throw new TooManyPendingReviewsError(
      `Too many pending reviews: ${client.name} already has ${MAX_PENDING_REVIEWS_PER_CLIENT} proposals ` +
        `waiting for a decision; ${wait}`,
      MAX_PENDING_REVIEWS_PER_CLIENT,
    );
  }
  if (waiting.clientBytes + bytes > MAX_PENDING_TEXT_BYTES_PER_CLIENT) {
    throw new TooManyPendingReviewsError(
      `Too many pending reviews: ${client.name}'s proposals waiting for a decision would hold more than ` +
        `${describeBytes(MAX_PENDING_TEXT_BYTES_PER_CLIENT)} of text; ${wait}`,
      MAX_PENDING_TEXT_BYTES_PER_CLIENT,
    );
  }
  if (waiting.totalBytes + bytes > MAX_PENDING_TEXT_BYTES) {
    throw new TooManyPendingReviewsError(
      `Too many pending reviews: the proposals waiting for a decision would hold more than ` +
        `${describeBytes(MAX_PENDING_TEXT_BYTES)} of text in all; ${wait}`,
      MAX_PENDING_TEXT_BYTES,
    );
  }
}
