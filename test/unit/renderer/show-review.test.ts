/**
 * A review chosen in the tray menu or a notification reaches the window as a `show` state event: the
 * window selects it, and main hears it is the one on screen. Real app API handler, in-process carrier.
 */
import { afterEach, expect, it } from 'vitest';
import { createAppApi, type AppApiCarrier, type StateEvent } from '../../../shared/app-api';
import { AppCore } from '../../../src-main/core/app-core';
import { startLiveState, type LiveState } from '../../../src-renderer/state/live-state';
import { useAppStore } from '../../../src-renderer/state/store';
import { inProcessCarrier } from '../../support/in-process-carrier';
import { until } from '../../support/wait';

let live: LiveState | undefined;
afterEach(() => live?.stop());

const text = (t: string) => ({ exists: true as const, kind: 'text' as const, text: t });

it('selects the review main asks to show', async () => {
  const core = new AppCore(['/ws']);
  const base = inProcessCarrier(core);
  const listeners = new Set<(event: StateEvent) => void>();
  const carrier: AppApiCarrier = {
    call: base.call,
    onState: (listener) => {
      listeners.add(listener);
      const stop = base.onState(listener);
      return () => {
        listeners.delete(listener);
        stop();
      };
    },
  };
  live = startLiveState(createAppApi(carrier));
  await live.resync();
  const client = core.clients.connect('Agent', 'native');
  const add = (name: string) =>
    core.queue.add({
      client,
      title: name,
      files: [{ path: `/ws/${name}`, base: text('a\n'), proposedText: 'b\n' }],
    }).id;
  const first = add('a.txt');
  const second = add('b.txt');
  await until(
    () => (useAppStore.getState().snapshot?.reviews.length === 2 ? true : undefined),
    'both reviews',
  );
  useAppStore.getState().selectReview(first);

  for (const listener of listeners) listener({ show: { reviewId: second } });
  expect(useAppStore.getState().selectedReviewId).toBe(second);
  await until(
    () => (core.onScreen.get()?.reviewId === second ? true : undefined),
    'main to hear it is on screen',
  );
});
