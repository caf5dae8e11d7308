/**
 * The checks after every batch: the app process lives, a valid request on a fresh connection is answered
 * in time, the reviews hold nothing from outside the workspace (then the pending ones are cancelled, so
 * the next batch starts clean), and RSS is read.
 */
import type { AppProcess, ExitInfo } from './app-process';
import { AppApiClient } from './drivers/app-api';
import { LimitRefusal, type EndpointDriver } from './drivers/driver';
import type { FixtureTree } from './fixture-tree';
import { messageOf } from '../../../shared/error-message';

export interface Finding {
  /** First and last frame of the batch (or the frame) it showed after. */
  frames: [number, number];
  detail: string;
  /** The app's output around it (stderr for a crash). */
  log?: string;
}

export interface BatchVerdict {
  /** The app exited: how. */
  exit?: ExitInfo;
  /** The app lives but did not answer a valid request in time: what was not answered. */
  hang?: string;
  /** The valid request was refused at once by a stated limit the fuzz used up (not a hang). */
  limited?: string;
  rssKb?: number;
}

export interface CheckOptions {
  app: AppProcess;
  driver: EndpointDriver;
  tree: FixtureTree;
  probeTimeoutMs: number;
  scanForLeak: (text: string, where: string) => void;
  /** Reviews whose texts were read already (each is read once, pending or ended). */
  scanned: Set<string>;
}

/** Grace for an exit to be noticed once a request failed (the socket closes before the exit event). */
const EXIT_GRACE_MS = 1000;

export async function checkAfterBatch(options: CheckOptions): Promise<BatchVerdict> {
  const { app, driver } = options;
  const failed = async (what: string): Promise<BatchVerdict> => {
    const exit = await app.exitWithin(EXIT_GRACE_MS);
    return exit ? { exit } : { hang: what };
  };
  if (!app.alive()) return { exit: (await app.exitWithin(EXIT_GRACE_MS))! };
  let limited: string | undefined;
  try {
    await driver.probe(options.probeTimeoutMs);
  } catch (error) {
    if (!(error instanceof LimitRefusal)) {
      return failed(`valid request on a fresh connection: ${messageOf(error)}`);
    }
    limited = error.message;
  }
  try {
    await scanAndRejectPending(options);
  } catch (error) {
    return failed(`app API (getSnapshot / getReviewContent / reject): ${messageOf(error)}`);
  }
  if (!app.alive()) return { exit: (await app.exitWithin(EXIT_GRACE_MS))! };
  const rssKb = app.rssKb();
  return { ...(rssKb !== undefined && { rssKb }), ...(limited !== undefined && { limited }) };
}

/**
 * Reads every new review's texts (nothing from outside may be there), then ends the pending ones as a
 * person would without deciding: "Disconnect" on each client, which cancels its reviews. Not a reject:
 * rejecting a native change the agent had already written reverts it on disk, a write of its own.
 */
async function scanAndRejectPending({
  app,
  probeTimeoutMs,
  scanForLeak,
  scanned,
}: CheckOptions): Promise<void> {
  const api = await AppApiClient.open(app.endpoints, undefined, probeTimeoutMs);
  try {
    const snapshot = await api.snapshot();
    for (const review of snapshot.reviews) {
      if (scanned.has(review.id)) continue;
      scanned.add(review.id);
      const contents = await api.contents(review.id).catch(() => []);
      scanForLeak(JSON.stringify(contents), `the texts of review "${review.title}" (${review.client.name})`);
    }
    for (const client of snapshot.clients) {
      await api.call('disconnectClient', { clientId: client.id }, probeTimeoutMs).catch(() => undefined);
    }
    const after = await api.snapshot();
    for (const review of after.reviews) {
      if (review.state !== 'pending' || review.client.protocol === 'native') continue;
      await api
        .call('reject', { reviewId: review.id, reason: 'fuzz batch over' }, probeTimeoutMs)
        .catch(() => undefined);
    }
  } finally {
    api.close();
  }
}
