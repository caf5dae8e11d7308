/**
 * The window tells main which file of the review on screen the person looks at (its tab), so an agent
 * asking for the active file (the native get_active_file_info) hears the truth. Driven through the real
 * app API handler over an in-process carrier, with the renderer's live state and store.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAppApi } from '../../../shared/app-api';
import { AppCore } from '../../../src-main/core/app-core';
import { startLiveState, type LiveState } from '../../../src-renderer/state/live-state';
import { useAppStore } from '../../../src-renderer/state/store';
import { inProcessCarrier } from '../../support/in-process-carrier';
import { until } from '../../support/wait';

let core: AppCore;
let live: LiveState;

beforeEach(async () => {
  core = new AppCore(['/ws']);
  live = startLiveState(createAppApi(inProcessCarrier(core)));
  await live.resync();
});
afterEach(() => live.stop());

const text = (t: string) => ({ exists: true as const, kind: 'text' as const, text: t });

it('names the review on screen and then the file tab the person moves to', async () => {
  const client = core.clients.connect('Agent', 'native');
  const { id } = core.queue.add({
    client,
    title: 'two files',
    files: [
      { path: '/ws/a.txt', base: text('a\n'), proposedText: 'A\n' },
      { path: '/ws/b.txt', base: text('b\n'), proposedText: 'B\n' },
    ],
  });
  await until(
    () => useAppStore.getState().snapshot?.reviews.find((review) => review.id === id),
    'the review',
  );
  useAppStore.getState().selectReview(id);
  await until(() => (core.onScreen.get()?.fileIndex === 0 ? true : undefined), 'the first file on screen');

  useAppStore.getState().setCursor(id, { fileIndex: 1, hunkIndex: 0 });
  await until(() => (core.onScreen.get()?.fileIndex === 1 ? true : undefined), 'the second file on screen');
  expect(core.onScreen.get()).toEqual({ reviewId: id, fileIndex: 1 });

  useAppStore.setState({ selectedReviewId: null });
  await until(() => (core.onScreen.get() === null ? true : undefined), 'nothing on screen');
});
