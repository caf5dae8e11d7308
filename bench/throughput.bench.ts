/**
 * (a) Core throughput: 50 Claude Code clients (MCP SDK over WebSocket, the real bridge) each send
 * openDiff after openDiff while a driver accepts every review through the app API as it appears;
 * reviews per second. Raced against the same 50 clients calling a trivial tool of the same endpoint
 * (getDiagnostics, which answers an empty list) with the same arguments, so the same payload crosses
 * the socket, JSON and the SDK's validation; calls per second.
 */
import { texts } from '../test/support/claude-client';
import { startTestRuntime } from '../test/support/test-runtime';
import { connectFleet, closeFleet, openDiffArgs, SMALL_EDIT, writeFiles } from './support/claude-fleet';
import { onPendingReview } from './support/pending-reviews';
import { figure } from './support/results';
import { interleave, since } from './support/stats';

const CLIENTS = 50;
const REVIEWS_PER_CLIENT = 10;
const TRIVIAL_CALLS_PER_CLIENT = 100;
const REPS = 5;

const t = await startTestRuntime();
const { runtime } = t;
const stopDriver = onPendingReview(runtime, (review) => {
  void runtime.handler('submit', { reviewId: review.id });
});
const clients = await connectFleet(runtime.bridge.port, runtime.bridge.tokenFor('claude-ide'), CLIENTS);
const files = writeFiles(t.workspace, 'tp', CLIENTS, SMALL_EDIT.base);
let round = 0;

/** Every client proposes `count` edits one after another, all clients at once; per second. */
async function reviewsPerSecond(): Promise<number> {
  round++;
  const start = performance.now();
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = 0; i < REVIEWS_PER_CLIENT; i++) {
        const args = openDiffArgs(files[c]!, SMALL_EDIT.proposed, `tp-${round}-${c}-${i}`);
        const answer = await client.callTool('openDiff', args);
        if (texts(answer)[0] !== 'FILE_SAVED') throw new Error(`openDiff answered ${texts(answer)[0]}`);
      }
    }),
  );
  return (CLIENTS * REVIEWS_PER_CLIENT) / (since(start) / 1000);
}

async function trivialCallsPerSecond(): Promise<number> {
  const start = performance.now();
  await Promise.all(
    clients.map(async (client, c) => {
      const args = openDiffArgs(files[c]!, SMALL_EDIT.proposed, `trivial-${c}`);
      for (let i = 0; i < TRIVIAL_CALLS_PER_CLIENT; i++) {
        const answer = await client.callTool('getDiagnostics', args);
        if (answer.isError) throw new Error(`getDiagnostics failed: ${texts(answer).join(' ')}`);
      }
    }),
  );
  return (CLIENTS * TRIVIAL_CALLS_PER_CLIENT) / (since(start) / 1000);
}

try {
  const [reviews, trivial] = await interleave(REPS, reviewsPerSecond, trivialCallsPerSecond);
  figure(
    'a',
    `core throughput, ${CLIENTS} clients (openDiff decided vs getDiagnostics, same payload)`,
    'per s',
    reviews,
    'trivial tool',
    trivial,
    '≥ 0.30×',
  );
} finally {
  stopDriver();
  await closeFleet(clients);
  await t.close();
}
