/**
 * (e) Idle: two DiffTray processes (the headless app, `node dist/main/headless.cjs`, each its own
 * child process so its CPU is its own), each with 20 Claude Code clients connected; one with 1,000
 * reviews pending, the other with none. Their CPU (% of one core, from /proc) and resident memory are
 * read over the same windows, side by side, while nothing happens.
 */
import { startHeadlessProcess, type HeadlessProcess } from '../test/support/headless-process';
import { claudeLock, cpuSeconds, pendingReviews, rssMb } from './support/app-process';
import {
  closeFleet,
  connectFleet,
  proposeAndLeavePending,
  SMALL_EDIT,
  writeFiles,
} from './support/claude-fleet';
import { figure } from './support/results';
import { sleep } from './support/stats';

const PENDING = 1000;
const CLIENTS = 20;
const WINDOWS = 3;
const WINDOW_MS = 10_000;
const SETTLE_MS = 3000;

/** Asks `difftray status` once a second (the app may be too busy to answer at first) until all are pending. */
async function allPending(app: HeadlessProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    await sleep(1000);
    const pending = await pendingReviews(app.env).catch(() => undefined);
    if (pending === PENDING) return;
    if (Date.now() > deadline) throw new Error(`${pending} of ${PENDING} reviews pending after 3 minutes`);
  }
}

async function connect(app: HeadlessProcess) {
  const { port, token } = claudeLock(app.home);
  return connectFleet(port, token, CLIENTS);
}

const none = await startHeadlessProcess('idle-none');
const many = await startHeadlessProcess('idle-many');
const fleets = [await connect(none), await connect(many)];
try {
  const files = writeFiles(many.workspace, 'pending', PENDING, SMALL_EDIT.base);
  proposeAndLeavePending(fleets[1]!, files, PENDING / CLIENTS, SMALL_EDIT.proposed, 'pending');
  await allPending(many);
  await sleep(SETTLE_MS);

  const cpu = { none: [] as number[], many: [] as number[] };
  const rss = { none: [] as number[], many: [] as number[] };
  const pids = { none: none.child.pid!, many: many.child.pid! };
  for (let w = 0; w < WINDOWS; w++) {
    const before = { none: cpuSeconds(pids.none), many: cpuSeconds(pids.many) };
    const start = performance.now();
    await sleep(WINDOW_MS);
    const seconds = (performance.now() - start) / 1000;
    for (const key of ['none', 'many'] as const) {
      cpu[key].push(((cpuSeconds(pids[key]) - before[key]) / seconds) * 100);
      rss[key].push(rssMb(pids[key]));
    }
  }
  figure(
    'e',
    `idle CPU, ${PENDING} pending vs 0`,
    '% of a core',
    cpu.many,
    '0 pending',
    cpu.none,
    '0.0 % at 1,000 pending',
  );
  figure('e', `RSS, ${PENDING} pending vs 0`, 'MB', rss.many, '0 pending', rss.none, '≤ 1.2×');
} finally {
  await Promise.all(fleets.map(closeFleet));
  await none.stop();
  await many.stop();
}
