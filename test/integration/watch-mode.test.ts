/**
 * Watch mode with real files: an agent that writes directly (here, the test itself, as a script would)
 * gets its burst of changes reviewed after the fact, through the real runtime and its app API.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReviewSummary } from '../../shared/app-api';
import { connectClaudeClient, texts } from '../support/claude-client';
import type { TestRuntime } from '../support/test-runtime';
import { isWatchReview, startWatchingRuntime, watchReviews } from '../support/watch-runtime';
import { until, waitForReview } from '../support/wait';

const LINES = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
const BASE = LINES.join('\n') + '\n';
/** Two hunks: line 2 and line 11 changed. */
const EDITED = BASE.replace('line 2\n', 'line TWO\n').replace('line 11\n', 'line ELEVEN\n');

let t: TestRuntime | undefined;
/** What the runtime logged in the current test. */
const logged: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A runtime watching its whole workspace; `prepare` fills the workspace before watching starts. */
async function watching(prepare: (workspace: string) => void = () => {}): Promise<TestRuntime> {
  logged.length = 0;
  t = await startWatchingRuntime({ prepare, quietMs: 150, log: (line) => logged.push(line) });
  return t;
}

const api = (rt: TestRuntime) => rt.runtime.handler;
const relative = (rt: TestRuntime, review: ReviewSummary) =>
  review.files.map((file) => path.relative(rt.workspace, file.path));

function pendingWatchReview(rt: TestRuntime, count = 1): Promise<ReviewSummary> {
  return waitForReview(
    rt.runtime.core,
    (review) => isWatchReview(review) && review.state === 'pending' && watchReviews(rt).length >= count,
  );
}

describe('watch mode', () => {
  it('reviews a burst as one change set, leaves out ignored files, and reverts exactly the rejected hunk', async () => {
    const rt = await watching((workspace) => {
      writeFileSync(path.join(workspace, '.gitignore'), 'ignored.txt\n');
      writeFileSync(path.join(workspace, 'a.txt'), BASE);
    });
    const a = path.join(rt.workspace, 'a.txt');
    const b = path.join(rt.workspace, 'sub', 'b.txt');
    // A script's burst: three files, one in a new subfolder, one ignored by .gitignore.
    writeFileSync(a, EDITED);
    mkdirSync(path.dirname(b));
    writeFileSync(b, 'new file\n');
    writeFileSync(path.join(rt.workspace, 'ignored.txt'), 'not reviewed\n');

    const review = await pendingWatchReview(rt);
    expect(review.title).toBe('Changes on disk: a.txt, sub/b.txt');
    expect(relative(rt, review)).toEqual(['a.txt', path.join('sub', 'b.txt')]);
    expect(review.client.protocol).toBe('watch');
    expect(review.files.map((file) => file.hunkCount)).toEqual([2, 1]);
    expect(review.files[1]?.isNewFile).toBe(true);

    await api(rt)('decideHunks', {
      reviewId: review.id,
      fileIndex: 0,
      hunkIndexes: [0],
      decision: 'rejected',
    });
    await api(rt)('submit', { reviewId: review.id });
    const kept = BASE.replace('line 11\n', 'line ELEVEN\n');
    await until(() => (readFileSync(a, 'utf8') === kept ? true : undefined), 'the rejected hunk reverted');
    expect(readFileSync(b, 'utf8')).toBe('new file\n');

    // DiffTray's own write is not reviewed again; a later change is reviewed against the decided text.
    writeFileSync(a, kept.replace('line 5\n', 'line FIVE\n'));
    const next = await pendingWatchReview(rt, 2);
    expect(relative(rt, next)).toEqual(['a.txt']);
    expect(watchReviews(rt)).toHaveLength(2);
    const [content] = (await api(rt)('getReviewContent', { reviewId: next.id })) as { baseText: string }[];
    expect(content?.baseText).toBe(kept);
  });

  it('rejecting a whole review puts the files back and removes a created one', async () => {
    const rt = await watching((workspace) => writeFileSync(path.join(workspace, 'a.txt'), BASE));
    const a = path.join(rt.workspace, 'a.txt');
    const created = path.join(rt.workspace, 'created.txt');
    writeFileSync(a, EDITED);
    writeFileSync(created, 'made by the agent\n');
    const review = await pendingWatchReview(rt);
    expect(review.files).toHaveLength(2);
    await api(rt)('reject', { reviewId: review.id });
    await until(() => (readFileSync(a, 'utf8') === BASE ? true : undefined), 'a.txt reverted');
    await until(() => (readFileSyncOrNull(created) === null ? true : undefined), 'created.txt removed');
  });

  it('an edit made while the review waits joins it: proposed against the same base, its decisions reset and said so', async () => {
    const rt = await watching((workspace) => writeFileSync(path.join(workspace, 'a.txt'), BASE));
    const a = path.join(rt.workspace, 'a.txt');
    writeFileSync(a, EDITED);
    const review = await pendingWatchReview(rt);
    await api(rt)('decideHunks', {
      reviewId: review.id,
      fileIndex: 0,
      hunkIndexes: [0],
      decision: 'rejected',
    });
    const byHand = EDITED.replace('line 6\n', 'line 6 (by hand)\n');
    writeFileSync(a, byHand);
    const grown = await waitForReview(
      rt.runtime.core,
      (r) => r.id === review.id && r.files[0]?.hunkCount === 3 && r.files[0].disk.state === 'unchanged',
    );
    expect(grown.state).toBe('pending');
    expect(grown.files[0]?.hunks.map((hunk) => hunk.decision)).toEqual(['pending', 'pending', 'pending']);
    expect(grown.notes?.join('\n')).toMatch(/Changed again on disk while waiting.*reset: .*a\.txt/);
    const [content] = (await api(rt)('getReviewContent', { reviewId: review.id })) as {
      baseText: string;
      proposedText: string;
    }[];
    expect(content).toMatchObject({ baseText: BASE, proposedText: byHand });
    expect(watchReviews(rt)).toHaveLength(1);

    // Rejecting the grown review puts back the text last decided.
    await api(rt)('reject', { reviewId: review.id });
    await until(() => (readFileSync(a, 'utf8') === BASE ? true : undefined), 'a.txt reverted');
  });

  it('a deleted file is reviewed; rejecting it puts the file back', async () => {
    const rt = await watching((workspace) => writeFileSync(path.join(workspace, 'a.txt'), BASE));
    const a = path.join(rt.workspace, 'a.txt');
    rmSync(a);
    const review = await pendingWatchReview(rt);
    const [content] = (await api(rt)('getReviewContent', { reviewId: review.id })) as {
      baseText: string;
      proposedText: string;
    }[];
    expect(content).toMatchObject({ baseText: BASE, proposedText: '' });
    await api(rt)('reject', { reviewId: review.id });
    await until(() => (readFileSyncOrNull(a) === BASE ? true : undefined), 'a.txt put back');
  });

  it('a file swapped for a symlink mid-review is not written through', async () => {
    const rt = await watching((workspace) => writeFileSync(path.join(workspace, 'a.txt'), BASE));
    const a = path.join(rt.workspace, 'a.txt');
    const outside = path.join(rt.home, 'outside.txt');
    writeFileSync(outside, 'not in the workspace\n');
    writeFileSync(a, EDITED);
    const review = await pendingWatchReview(rt);
    rmSync(a);
    symlinkSync(outside, a);
    await api(rt)('reject', { reviewId: review.id });
    await until(() => (rt.runtime.core.queue.summary(review.id).notes ? true : undefined), 'the note');
    expect(rt.runtime.core.queue.summary(review.id).notes?.join('\n')).toMatch(/a\.txt: not written/);
    expect(readFileSync(outside, 'utf8')).toBe('not in the workspace\n');
  });

  it("a file accepted through another client's review is not reviewed again when the agent writes it", async () => {
    const rt = await watching((workspace) => writeFileSync(path.join(workspace, 'a.txt'), BASE));
    const a = path.join(rt.workspace, 'a.txt');
    const claude = await connectClaudeClient(
      rt.runtime.bridge.port,
      rt.runtime.bridge.tokenFor('claude-ide'),
    );
    try {
      const answer = claude.openDiff(a, EDITED, 'a');
      const proposal = await waitForReview(rt.runtime.core, (r) => r.client.protocol === 'claude-ide');
      await api(rt)('submit', { reviewId: proposal.id });
      expect(texts(await answer)).toEqual(['FILE_SAVED', EDITED]);
      // Claude Code writes the accepted text itself.
      writeFileSync(a, EDITED);
      writeFileSync(path.join(rt.workspace, 'later.txt'), 'later\n');
      const review = await pendingWatchReview(rt);
      expect(relative(rt, review)).toEqual(['later.txt']);
      expect(watchReviews(rt)).toHaveLength(1);
    } finally {
      await claude.close();
    }
  });

  it('paused, changes go through unreviewed and stand as the baseline', async () => {
    const rt = await watching((workspace) => writeFileSync(path.join(workspace, 'a.txt'), BASE));
    const a = path.join(rt.workspace, 'a.txt');
    await api(rt)('setClientPaused', { key: 'watch:Changes on disk', paused: true });
    writeFileSync(a, EDITED);
    // Written after a.txt: once it is let through, so is a.txt.
    const canary = path.join(rt.workspace, 'canary.txt');
    writeFileSync(canary, 'while paused\n');
    await until(
      () => (logged.some((line) => line.includes('canary.txt')) ? true : undefined),
      'the canary let through',
    );
    await api(rt)('setClientPaused', { key: 'watch:Changes on disk', paused: false });
    writeFileSync(a, EDITED.replace('line 5\n', 'line FIVE\n'));
    const review = await pendingWatchReview(rt);
    expect(relative(rt, review)).toEqual(['a.txt']);
    const [content] = (await api(rt)('getReviewContent', { reviewId: review.id })) as { baseText: string }[];
    expect(content?.baseText).toBe(EDITED);
  });

  it('in a git work tree, the first baseline is the index text, or the start snapshot for an untracked file', async () => {
    const rt = await watching((workspace) => {
      git(workspace, 'init', '-q');
      writeFileSync(path.join(workspace, 'tracked.txt'), BASE);
      git(workspace, 'add', 'tracked.txt');
      git(workspace, 'commit', '-qm', 'base');
      // Not staged before watching: part of what is reviewed.
      writeFileSync(path.join(workspace, 'tracked.txt'), BASE.replace('line 1\n', 'line ONE\n'));
      writeFileSync(path.join(workspace, 'untracked.txt'), 'not in git\n');
    });
    const tracked = path.join(rt.workspace, 'tracked.txt');
    writeFileSync(tracked, readFileSync(tracked, 'utf8').replace('line 11\n', 'line ELEVEN\n'));
    const review = await pendingWatchReview(rt);
    const [content] = (await api(rt)('getReviewContent', { reviewId: review.id })) as { baseText: string }[];
    expect(content?.baseText).toBe(BASE);
    expect(review.files[0]?.hunkCount).toBe(2);

    // A file git does not track: its baseline is its text when watching began.
    await api(rt)('submit', { reviewId: review.id });
    writeFileSync(path.join(rt.workspace, 'untracked.txt'), 'changed\n');
    const next = await pendingWatchReview(rt, 2);
    const [untracked] = (await api(rt)('getReviewContent', { reviewId: next.id })) as { baseText: string }[];
    expect(untracked?.baseText).toBe('not in git\n');
  });

  it('in a git work tree, a burst of tracked files is reviewed against their index texts', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `t${i}.txt`);
    const rt = await watching((workspace) => {
      git(workspace, 'init', '-q');
      for (const name of names) writeFileSync(path.join(workspace, name), `${name}\n${BASE}`);
      git(workspace, 'add', '-A');
      git(workspace, 'commit', '-qm', 'base');
      writeFileSync(path.join(workspace, 't0.txt'), 'staged\n');
      git(workspace, 'add', 't0.txt');
    });
    for (const name of names) writeFileSync(path.join(rt.workspace, name), `${name}\n${EDITED}`);
    const review = await pendingWatchReview(rt);
    expect(relative(rt, review)).toEqual(names);
    const content = (await api(rt)('getReviewContent', { reviewId: review.id })) as { baseText: string }[];
    expect(content.map((file) => file.baseText)).toEqual(
      names.map((name) => (name === 't0.txt' ? 'staged\n' : `${name}\n${BASE}`)),
    );
  });

  it("in a git work tree, leaves out a file only the person's global excludes file (core.excludesFile) ignores", async () => {
    const rt = await watching((workspace) => {
      git(workspace, 'init', '-q');
      const excludes = path.join(path.dirname(workspace), 'global-ignore');
      writeFileSync(excludes, '*.secret\n');
      git(workspace, 'config', 'core.excludesFile', excludes);
    });
    writeFileSync(path.join(rt.workspace, 'api.secret'), 'not reviewed\n');
    writeFileSync(path.join(rt.workspace, 'a.txt'), 'reviewed\n');
    const review = await pendingWatchReview(rt);
    expect(relative(rt, review)).toEqual(['a.txt']);
  });
});

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'ignore' });
}

function readFileSyncOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
