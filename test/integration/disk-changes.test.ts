/**
 * A file edited on disk while its review waits: the watcher flags it, submit is refused until the
 * person rebases (three-way merge) or rejects, and the client never gets text composed against a
 * stale base. Real files, the real watcher, the real bridge.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { texts } from '../support/claude-client';
import { useClaudeSession } from '../support/claude-session';
import { waitForReview, waitForSnapshot } from '../support/wait';

const BASE = ['one', 'two', 'three', 'four', 'five', 'six', 'seven'].join('\n') + '\n';
const PROPOSED = BASE.replace('one', 'ONE');
const EDITED_ON_DISK = BASE.replace('seven', 'seven (edited by hand)');

const session = useClaudeSession('story.txt', BASE);

const api = () => session.t.runtime.handler;

function openDiff(proposed = PROPOSED) {
  return session.claude.openDiff(session.file, proposed, 'story');
}

describe('a file changed on disk while its review waits', () => {
  it('is flagged by the watcher, refuses submit, and after a rebase returns the merged text', async () => {
    const { t, file } = session;
    const answer = openDiff();
    const review = await waitForReview(t.runtime.core);
    writeFileSync(file, EDITED_ON_DISK);
    const flagged = await waitForReview(t.runtime.core, (r) => r.files[0]?.disk.state === 'modified');
    expect(flagged.files[0]?.disk.detectedAt).toBeTypeOf('number');
    const [content] = (await api()('getReviewContent', { reviewId: review.id })) as { diskText: string }[];
    expect(content?.diskText).toBe(EDITED_ON_DISK);

    await expect(api()('submit', { reviewId: review.id })).rejects.toThrow(/changed on disk/);
    expect(t.runtime.core.queue.summary(review.id).state).toBe('pending');

    await api()('rebase', { reviewId: review.id, fileIndex: 0 });
    const rebased = t.runtime.core.queue.summary(review.id);
    expect(rebased.files[0]).toMatchObject({ disk: { state: 'unchanged' }, conflicts: 0 });
    await api()('submit', { reviewId: review.id });
    expect(texts(await answer)).toEqual(['FILE_SAVED', EDITED_ON_DISK.replace('one', 'ONE')]);
    // DiffTray wrote nothing: the person's edit is on disk as they left it.
    expect(readFileSync(file, 'utf8')).toBe(EDITED_ON_DISK);
  });

  it('is caught at submit even when the watcher has not reported yet', async () => {
    const { t, file } = session;
    const answer = openDiff();
    const review = await waitForReview(t.runtime.core);
    writeFileSync(file, EDITED_ON_DISK);
    // Straight to submit: the disk is read again before anything is answered.
    await expect(api()('submit', { reviewId: review.id })).rejects.toThrow(/changed on disk/);
    await api()('reject', { reviewId: review.id, reason: 'file changed' });
    expect(texts(await answer)).toEqual(['DIFF_REJECTED', 'story']);
  });

  it('conflicting edits leave conflict markers that must be resolved before submit', async () => {
    const { t, file } = session;
    const answer = openDiff(BASE.replace('seven', 'SEVEN'));
    const review = await waitForReview(t.runtime.core);
    writeFileSync(file, EDITED_ON_DISK);
    await waitForReview(t.runtime.core, (r) => r.files[0]?.disk.state === 'modified');
    await api()('rebase', { reviewId: review.id, fileIndex: 0 });
    expect(t.runtime.core.queue.summary(review.id).files[0]?.conflicts).toBe(1);
    await expect(api()('submit', { reviewId: review.id })).rejects.toThrow(/conflict/);

    const resolved = EDITED_ON_DISK.replace('seven (edited by hand)', 'SEVEN (edited by hand)');
    await api()('editProposal', { reviewId: review.id, fileIndex: 0, proposedText: resolved });
    await api()('submit', { reviewId: review.id });
    expect(texts(await answer)).toEqual(['FILE_SAVED', resolved]);
  });

  it('a file deleted on disk is flagged as deleted', async () => {
    const { t, file } = session;
    void openDiff().catch(() => {});
    await waitForReview(t.runtime.core);
    const { rmSync } = await import('node:fs');
    rmSync(file);
    await waitForReview(t.runtime.core, (r) => r.files[0]?.disk.state === 'deleted');
  });
});

describe('line decisions and undo over the app API', () => {
  it('accepting some lines of a hunk returns exactly those lines', async () => {
    const { t } = session;
    const answer = openDiff(BASE.replace('two\nthree\n', 'TWO\nTHREE\n'));
    const review = await waitForReview(t.runtime.core);
    const hunk = review.files[0]!.hunks[0]!;
    expect(hunk).toMatchObject({ baseStart: 1, baseEnd: 3, proposedStart: 1, proposedEnd: 3 });
    // Accept replacing "two" by "TWO", keep "three".
    await api()('decideLines', {
      reviewId: review.id,
      fileIndex: 0,
      hunkIndex: 0,
      lines: { base: [1], proposed: [1] },
      decision: 'accepted',
    });
    await api()('decideLines', {
      reviewId: review.id,
      fileIndex: 0,
      hunkIndex: 0,
      lines: { base: [2], proposed: [2] },
      decision: 'rejected',
    });
    expect(t.runtime.core.queue.summary(review.id).files[0]?.hunks[0]?.decision).toBe('mixed');
    await api()('submit', { reviewId: review.id });
    expect(texts(await answer)).toEqual(['FILE_SAVED', BASE.replace('two\nthree\n', 'three\nTWO\n')]);
  });

  it('undo takes back reject-all', async () => {
    const { t } = session;
    const answer = openDiff();
    const review = await waitForReview(t.runtime.core);
    await api()('decideAll', { reviewId: review.id, decision: 'rejected' });
    expect(t.runtime.core.queue.summary(review.id).canUndo).toBe(true);
    await api()('undo', { reviewId: review.id });
    expect(t.runtime.core.queue.summary(review.id)).toMatchObject({
      canUndo: false,
      files: [{ fileDecision: 'pending' }],
    });
    await api()('submit', { reviewId: review.id });
    expect(texts(await answer)).toEqual(['FILE_SAVED', PROPOSED]);
  });
});

describe('connections', () => {
  it('the person can disconnect a client: its socket closes and its reviews are cancelled', async () => {
    const { t, claude } = session;
    void openDiff().catch(() => {});
    const review = await waitForReview(t.runtime.core);
    const closed = new Promise((resolve) => claude.socket.once('close', resolve));
    await api()('disconnectClient', { clientId: review.client.id });
    await closed;
    await waitForSnapshot(t.runtime.core, (s) => (s.clients.length === 0 ? true : undefined));
    expect(t.runtime.core.queue.summary(review.id)).toMatchObject({
      state: 'cancelled',
      reason: 'client disconnected',
    });
  });

  it('learns the client’s working folder from its pid', async () => {
    const { t } = session;
    const client = await waitForSnapshot(t.runtime.core, (s) => s.clients.find((c) => c.pid === process.pid));
    if (process.platform === 'linux') expect(client.workspace).toBe(process.cwd());
  });
});
