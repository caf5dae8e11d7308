/** A test runtime with watch mode on for its whole workspace, and the watch reviews it holds. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ReviewSummary } from '../../shared/app-api';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/** `prepare` fills the workspace before watching starts (its files are then the baseline). */
export function startWatchingRuntime(options: {
  prepare: (workspace: string) => void;
  quietMs: number;
  log: (line: string) => void;
}): Promise<TestRuntime> {
  return startTestRuntime({
    watchQuietMs: options.quietMs,
    log: options.log,
    beforeStart: (home) => {
      // The test runtime's workspace is beside its home.
      options.prepare(path.join(path.dirname(home), 'workspace'));
      mkdirSync(path.join(home, '.difftray'), { recursive: true });
      writeFileSync(path.join(home, '.difftray', 'settings.json'), JSON.stringify({ watchFolders: ['.'] }));
    },
  });
}

export const isWatchReview = (review: ReviewSummary) => review.client.name === 'Changes on disk';
export const watchReviews = (rt: TestRuntime) => rt.runtime.core.queue.summaries().filter(isWatchReview);
