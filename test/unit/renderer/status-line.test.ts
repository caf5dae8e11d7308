/**
 * When the status line's message goes (status-line.ts): when the person opens another review than the
 * one it was said about, and STATUS_STALE_MS after it was said; not when a review comes up by itself.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KEY_PAUSE_MS } from '../../../src-renderer/keys/key-pause';
import { STATUS_STALE_MS, staleIn } from '../../../src-renderer/state/status-line';
import { useAppStore } from '../../../src-renderer/state/store';
import { client, review, snapshot } from './fixtures-app-shell';

const c = client('c');
const state = () => useAppStore.getState();
const shown = () => state().announcement?.text ?? null;

describe('the status line clears when its message no longer applies', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 50_000 });
    useAppStore.setState({
      snapshot: null,
      selectedReviewId: null,
      keyPause: null,
      beforePause: null,
      announcement: null,
      said: null,
    });
  });
  afterEach(() => vi.useRealTimers());

  it('"Review submitted" goes when the person opens another review', () => {
    state().applySnapshot(
      snapshot([review('a', 1, c), review('b', 2, c), review('x', 0, c, 'accepted')], [c]),
    );
    state().selectReview('a');
    state().announce('Review submitted (1 accepted, 0 rejected)');
    // Opening the review it was said about again changes nothing.
    state().selectReview('a');
    expect(shown()).toBe('Review submitted (1 accepted, 0 rejected)');
    // Opening another one, from the queue or History, or with ] / [, clears it.
    state().selectReview('x');
    expect(shown()).toBeNull();
    state().announce('Hunk 1 accepted');
    state().selectAdjacentReview(1);
    expect(state().selectedReviewId).toBe('a');
    expect(shown()).toBeNull();
  });

  it('a message said with no review on screen goes when the person opens one', () => {
    state().applySnapshot(snapshot([review('x', 0, c, 'accepted')], [c]));
    expect(state().selectedReviewId).toBeNull();
    state().announce('Copied: claude --ide');
    state().selectReview('x');
    expect(shown()).toBeNull();
  });

  it('the next review coming up by itself keeps it, alongside the pause notice, until it is stale', () => {
    state().applySnapshot(snapshot([review('a', 1, c), review('b', 2, c)], [c]));
    state().selectReview('a');
    state().applySnapshot(snapshot([review('a', 1, c, 'accepted'), review('b', 2, c)], [c]));
    state().announce('Review submitted (1 accepted, 0 rejected)');
    expect(shown()).toBe('Review submitted (1 accepted, 0 rejected). New review: b.ts — keys paused briefly');
    vi.advanceTimersByTime(KEY_PAUSE_MS);
    state().endKeyPause(state().keyPause!);
    expect(shown()).toBe('Review submitted (1 accepted, 0 rejected)');
    vi.advanceTimersByTime(STATUS_STALE_MS - KEY_PAUSE_MS - 1);
    state().clearStaleStatus(Date.now());
    expect(shown()).toBe('Review submitted (1 accepted, 0 rejected)');
    vi.advanceTimersByTime(1);
    state().clearStaleStatus(Date.now());
    expect(shown()).toBeNull();
    expect(state().said).toBeNull();
  });

  it('any message goes STATUS_STALE_MS after it was said; a newer one starts its own time', () => {
    state().announce('Hunk 1 accepted');
    expect(staleIn(state(), Date.now())).toBe(STATUS_STALE_MS);
    vi.advanceTimersByTime(STATUS_STALE_MS / 2);
    state().announce('Hunk 2 accepted');
    vi.advanceTimersByTime(STATUS_STALE_MS / 2);
    state().clearStaleStatus(Date.now());
    expect(shown()).toBe('Hunk 2 accepted');
    expect(staleIn(state(), Date.now())).toBe(STATUS_STALE_MS / 2);
    vi.advanceTimersByTime(STATUS_STALE_MS / 2);
    state().clearStaleStatus(Date.now());
    expect(shown()).toBeNull();
    expect(staleIn(state(), Date.now())).toBeNull();
  });
});
