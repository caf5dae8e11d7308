/**
 * Attack: the watched agent tries to get changes past watch mode unreviewed, with real files and real
 * fs.watch through the real runtime. Many bursts (more than the 100 pending reviews a client may have)
 * and one burst of more files than one review holds. Every change must be in a pending review, or the
 * folder shown paused with the reason; no change may become the baseline without the person's decision.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReviewSummary, WatchFolderIssue } from '../../shared/app-api';
import { MAX_PENDING_REVIEWS_PER_CLIENT, WATCH_MAX_FILES_PER_REVIEW } from '../../shared/limits';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import type { TestRuntime } from '../support/test-runtime';
import { startWatchingRuntime, watchReviews } from '../support/watch-runtime';
import { until } from '../support/wait';

const BASE = 'one\ntwo\nthree\n';

let t: TestRuntime | undefined;
const logged: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A runtime watching its whole workspace; `prepare` fills the workspace before watching starts. */
async function watching(prepare: (workspace: string) => void): Promise<TestRuntime> {
  logged.length = 0;
  t = await startWatchingRuntime({ prepare, quietMs: 60, log: (line) => logged.push(line) });
  return t;
}

const pendingWatchReviews = (rt: TestRuntime) =>
  watchReviews(rt).filter((review) => review.state === 'pending');
const api = (rt: TestRuntime) => rt.runtime.handler;
const named = (rt: TestRuntime, review: ReviewSummary) =>
  review.files.map((file) => path.relative(rt.workspace, file.path));
/** What the window is told (the snapshot every window starts from and keeps up to date). */
const issueOf = (rt: TestRuntime): WatchFolderIssue | undefined =>
  rt.runtime.core.snapshot().watchIssues?.find((issue) => issue.folder === rt.workspace);

/** What `difftray status` is told: the native endpoint's `status` answer. */
async function nativeStatus(rt: TestRuntime): Promise<unknown> {
  const client = await RawNative.open(rt.runtime.native.port, { [NATIVE_HEADER]: rt.runtime.native.token });
  try {
    return (await client.request('status')).payload;
  } finally {
    client.close();
  }
}

async function contentOf(rt: TestRuntime, reviewId: string, file: string) {
  const contents = (await api(rt)('getReviewContent', { reviewId })) as Array<{
    path: string;
    baseText: string;
    proposedText: string;
  }>;
  return contents.find((content) => content.path === path.join(rt.workspace, file));
}

describe('watch mode takes nothing as reviewed', () => {
  it(`${MAX_PENDING_REVIEWS_PER_CLIENT + 20} bursts: every change waits in the folder's one growing review, none becomes the baseline unreviewed`, async () => {
    const rt = await watching((workspace) => writeFileSync(path.join(workspace, 'a.txt'), BASE));
    const a = path.join(rt.workspace, 'a.txt');
    const bursts = MAX_PENDING_REVIEWS_PER_CLIENT + 20;
    const name = (i: number) => `f${String(i).padStart(3, '0')}.txt`;
    for (let i = 0; i < bursts; i++) {
      // Each burst: a new file, and the same file once more.
      writeFileSync(path.join(rt.workspace, name(i)), `burst ${i}\n`);
      writeFileSync(a, `${BASE}burst ${i}\n`);
      // Handled before the next burst: in a review, held by a paused folder, or let through (logged).
      await until(
        () =>
          watchReviews(rt).some((review) => named(rt, review).includes(name(i))) ||
          (issueOf(rt)?.paused?.heldChanges ?? 0) > 0 ||
          logged.some((line) => line.includes(name(i)))
            ? true
            : undefined,
        `burst ${i} handled`,
      );
    }
    // The last text of a.txt is in too.
    await until(async () => {
      const review = pendingWatchReviews(rt)[0];
      const content = review && (await contentOf(rt, review.id, 'a.txt'));
      return content?.proposedText === `${BASE}burst ${bursts - 1}\n` ? true : undefined;
    }, 'the last a.txt in the review');

    expect(logged.filter((line) => /not reviewed/.test(line))).toEqual([]);
    const pending = pendingWatchReviews(rt);
    expect(pending).toHaveLength(1);
    const review = pending[0]!;
    expect(new Set(named(rt, review))).toEqual(
      new Set(['a.txt', ...Array.from({ length: bursts }, (_, i) => name(i))]),
    );
    expect(review.title).toBe(
      `Changes on disk: a.txt, f000.txt, f001.txt, f002.txt, f003.txt and ${bursts - 4} more`,
    );
    // a.txt keeps the baseline it had before the first burst.
    expect(await contentOf(rt, review.id, 'a.txt')).toMatchObject({ baseText: BASE });
    expect(issueOf(rt)).toBeUndefined();
    // The window sees the one review, grown, with every file.
    const shown = rt.runtime.core.snapshot().reviews.find((item) => item.id === review.id);
    expect(shown?.files).toHaveLength(bursts + 1);

    // Rejected: everything the agent wrote is taken back, since nothing had become the baseline.
    await api(rt)('reject', { reviewId: review.id });
    await until(
      () => (readFileSync(a, 'utf8') === BASE ? true : undefined),
      'a.txt back to its baseline',
      20_000,
    );
  });

  it(`a burst of more than ${WATCH_MAX_FILES_PER_REVIEW} files pauses the folder with the reason; resumed, the rest is reviewed against the old baselines`, async () => {
    const count = WATCH_MAX_FILES_PER_REVIEW + 20;
    const names = Array.from({ length: count }, (_, i) => `f${String(i).padStart(4, '0')}.txt`);
    const rt = await watching((workspace) => {
      for (const name of names) writeFileSync(path.join(workspace, name), `old ${name}\n`);
    });
    // A formatter's run over the tree, or an agent on purpose: every file rewritten in one burst.
    for (const name of names) writeFileSync(path.join(rt.workspace, name), `new ${name}\n`);
    const issue = await until(() => {
      const found = issueOf(rt);
      return found?.paused?.heldChanges === 20 ? found : undefined;
    }, 'the folder paused');
    expect(issue.paused?.reason).toMatch(
      new RegExp(`more than ${WATCH_MAX_FILES_PER_REVIEW} files changed while its review waits`),
    );
    const [review, ...others] = pendingWatchReviews(rt);
    expect(others).toEqual([]);
    expect(named(rt, review!)).toEqual(names.slice(0, WATCH_MAX_FILES_PER_REVIEW));
    expect(logged.filter((line) => /not reviewed/.test(line))).toEqual([]);
    expect(await nativeStatus(rt)).toMatchObject({
      watched_folders: [rt.workspace],
      watch_issues: [{ folder: rt.workspace, paused: { reason: issue.paused!.reason, held_changes: 20 } }],
    });

    // Paused, a new change is held too, not reviewed and not taken as reviewed.
    writeFileSync(path.join(rt.workspace, 'later.txt'), 'while paused\n');
    await until(() => (issueOf(rt)?.paused?.heldChanges === 21 ? true : undefined), 'later.txt held');
    expect(pendingWatchReviews(rt)).toHaveLength(1);

    // The person decides the review, then resumes: the held files are reviewed against their old texts.
    await api(rt)('submit', { reviewId: review!.id });
    await api(rt)('setFolderWatched', { folder: rt.workspace, watched: true });
    const rest = await until(() => {
      const next = pendingWatchReviews(rt).find((r) => r.id !== review!.id);
      return next && next.files.length === 21 ? next : undefined;
    }, 'the rest reviewed');
    expect(issueOf(rt)).toBeUndefined();
    expect(new Set(named(rt, rest))).toEqual(
      new Set([...names.slice(WATCH_MAX_FILES_PER_REVIEW), 'later.txt']),
    );
    for (const name of names.slice(WATCH_MAX_FILES_PER_REVIEW)) {
      expect(await contentOf(rt, rest.id, name)).toMatchObject({
        baseText: `old ${name}\n`,
        proposedText: `new ${name}\n`,
      });
    }
  });
});
