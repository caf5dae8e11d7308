/**
 * (b) Scale: one Claude Code client's openDiff round trip (proposal sent, accepted through the app API
 * as soon as it is pending, answer back) with no other review pending, and with 1,000 pending from 20
 * other clients. Blocks of round trips alternate between the two states in the same runtime.
 */
import { texts } from '../test/support/claude-client';
import { startTestRuntime } from '../test/support/test-runtime';
import { closeFleet, connectFleet, openDiffArgs, SMALL_EDIT, writeFiles } from './support/claude-fleet';
import { fillPending } from './support/pending-fill';
import { onPendingReview } from './support/pending-reviews';
import { figure } from './support/results';
import { since, sleep } from './support/stats';

const PENDING = 1000;
const FILLER_CLIENTS = 20;
const ROUNDS = 3;
const PER_BLOCK = 15;
/** Fills History (200 ended reviews) first, so both states have the same history behind them. */
const WARMUP = 220;
const SETTLE_MS = 500;

const t = await startTestRuntime();
const { runtime } = t;
const port = runtime.bridge.port;
const token = runtime.bridge.tokenFor('claude-ide');
const stopDriver = onPendingReview(runtime, (review) => {
  if (review.description?.startsWith('rt-')) void runtime.handler('submit', { reviewId: review.id });
});
const [measured] = await connectFleet(port, token, 1);
const fillers = await connectFleet(port, token, FILLER_CLIENTS);
const [file] = writeFiles(t.workspace, 'rt', 1, SMALL_EDIT.base);
const fillerFiles = writeFiles(t.workspace, 'pending', PENDING, SMALL_EDIT.base);
let sent = 0;

async function roundTrips(count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const answer = await measured!.callTool(
      'openDiff',
      openDiffArgs(file!, SMALL_EDIT.proposed, `rt-${sent++}`),
    );
    samples.push(since(start));
    if (texts(answer)[0] !== 'FILE_SAVED') throw new Error(`openDiff answered ${texts(answer)[0]}`);
  }
  return samples;
}

try {
  await roundTrips(WARMUP);
  const none: number[] = [];
  const many: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    none.push(...(await roundTrips(PER_BLOCK)));
    const fill = await fillPending(runtime, fillers, fillerFiles, SMALL_EDIT.proposed, `pending${round}`);
    // Each state measured settled: the file watcher's work for the burst is not the round trip's.
    await sleep(SETTLE_MS);
    many.push(...(await roundTrips(PER_BLOCK)));
    await fill.clear();
    await sleep(SETTLE_MS);
  }
  figure('b', `openDiff round trip, ${PENDING} pending vs 0`, 'ms', many, '0 pending', none, '≤ 1.2×');
} finally {
  stopDriver();
  await closeFleet([measured!, ...fillers]);
  await t.close();
}
