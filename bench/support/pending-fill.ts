/**
 * A queue of many pending reviews in an in-process runtime, made by real clients and cleared again
 * through the app API (each rejected, so every client gets its answer and the queue is empty again).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Runtime } from '../../src-main/runtime';
import type { ClaudeTestClient } from '../../test/support/claude-client';
import { openDiffArgs } from './claude-fleet';
import { onPendingReview } from './pending-reviews';

export interface PendingFill {
  /** Rejects every review of the fill; resolves once each client has its answer. */
  clear(): Promise<void>;
}

/**
 * Sends `files.length` openDiffs spread over `clients` (tab names `<prefix>-<n>`, at most
 * files/clients each) and resolves once all of them are pending.
 */
export async function fillPending(
  runtime: Runtime,
  clients: readonly ClaudeTestClient[],
  files: readonly string[],
  proposed: string,
  prefix: string,
): Promise<PendingFill> {
  const ids: string[] = [];
  let allPending!: () => void;
  const pending = new Promise<void>((resolve) => (allPending = resolve));
  const stop = onPendingReview(runtime, (review) => {
    if (!review.description?.startsWith(`${prefix}-`)) return;
    ids.push(review.id);
    if (ids.length === files.length) allPending();
  });
  const answers: Promise<CallToolResult>[] = files.map((file, n) =>
    clients[n % clients.length]!.callTool('openDiff', openDiffArgs(file, proposed, `${prefix}-${n}`)),
  );
  await pending;
  stop();
  return {
    clear: async () => {
      await Promise.all(ids.map((reviewId) => runtime.handler('reject', { reviewId })));
      await Promise.all(answers);
    },
  };
}
