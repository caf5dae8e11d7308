/**
 * A History entry whose texts main let go (finding 4 of issue 7): the renderer does not ask for texts it
 * cannot get, and says so instead of showing an empty or broken diff. Driven through the real app API
 * handler over an in-process carrier, as the headless and Electron carriers deliver it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createAppApi, type AppApi } from '../../../shared/app-api';
import { AppCore } from '../../../src-main/core/app-core';
import { createActions } from '../../../src-renderer/state/actions';
import { contentKey, droppedTextsText } from '../../../src-renderer/review/review-model';
import { useAppStore } from '../../../src-renderer/state/store';
import { inProcessCarrier } from '../../support/in-process-carrier';

let core: AppCore;
let api: AppApi;

beforeEach(() => {
  core = new AppCore(['/ws']);
  api = createAppApi(inProcessCarrier(core));
  useAppStore.setState({ contents: {} });
});

/** Puts the review on screen: texts are kept for that review only. */
function show(reviewId: string): void {
  useAppStore.getState().applySnapshot(core.snapshot());
  useAppStore.getState().selectReview(reviewId);
}

function propose(tabName: string): string {
  const client = core.clients.connect('Claude Code', 'claude-ide', () => {});
  return core.queue.add({
    client,
    title: 'a.txt',
    tabName,
    files: [{ path: '/ws/a.txt', base: { exists: true, kind: 'text', text: 'a\n' }, proposedText: 'A\n' }],
  }).id;
}

describe('a review whose texts are no longer kept', () => {
  it('is marked in the snapshot; getReviewContent says why instead of answering empty texts', async () => {
    const id = propose('t');
    core.queue.cancelWhere(() => true, 'closed by the client');
    const summary = (await api.call('getSnapshot', {})).reviews.find((review) => review.id === id)!;
    expect(summary).toMatchObject({ state: 'cancelled', textsDropped: true });
    await expect(api.call('getReviewContent', { reviewId: id })).rejects.toThrow(
      /texts of review .* are no longer kept/,
    );
  });

  it('is not fetched: its content entry says the texts are gone, and the view says so in words', async () => {
    const id = propose('t');
    core.queue.cancelWhere(() => true, 'closed by the client');
    const summary = core.snapshot().reviews.find((review) => review.id === id)!;
    show(id);
    await createActions(api).loadContents(summary);
    expect(useAppStore.getState().contents[contentKey(summary)]).toEqual({ status: 'dropped' });
    expect(droppedTextsText(summary)).toBe(
      'The texts of this review are no longer kept: nobody answered this review, so DiffTray let them go. ' +
        'Its outcome and the decision on each hunk are kept.',
    );
    expect(droppedTextsText({ ...summary, state: 'accepted' })).toMatch(
      /no longer kept: History keeps the full texts of recent reviews only/,
    );
  });

  it('an ended review that keeps its texts still loads them', async () => {
    const id = propose('t');
    core.queue.reject(id, 'no');
    const summary = core.snapshot().reviews.find((review) => review.id === id)!;
    expect(summary.textsDropped).toBeUndefined();
    show(id);
    await createActions(api).loadContents(summary);
    expect(useAppStore.getState().contents[contentKey(summary)]).toMatchObject({
      status: 'ready',
      files: [{ baseText: 'a\n', proposedText: 'A\n' }],
    });
  });
});
