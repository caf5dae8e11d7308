import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DECISION_COMMANDS,
  ignoredDuringPause,
  KEY_PAUSE_MS,
  pauseForAutoSelection,
} from '../../../src-renderer/keys/key-pause';
import { REVIEW_COMMANDS, type Command } from '../../../src-renderer/keys/keyboard';
import { useAppStore } from '../../../src-renderer/state/store';
import { client, review, snapshot } from './fixtures-app-shell';
import { applyFullState } from './full-state';

const all: Command[] = [...REVIEW_COMMANDS];

describe('the key-pause rule', () => {
  it('holds decision keys (Ctrl/Cmd+Y/N, Ctrl/Cmd+Alt+Y/N, Ctrl/Cmd+Enter, u) for 700 ms', () => {
    const pause = pauseForAutoSelection(null, { id: 'r', title: 'a.ts' }, 1000);
    expect(pause).toEqual({ until: 1000 + KEY_PAUSE_MS, text: 'New review: a.ts — keys paused briefly' });
    expect(KEY_PAUSE_MS).toBe(700);
    const held = all.filter((command) => ignoredDuringPause(command, pause, 1000 + KEY_PAUSE_MS - 1));
    expect(held).toEqual(['acceptHunk', 'rejectHunk', 'acceptAll', 'rejectAll', 'undo', 'submit']);
    expect(new Set(held)).toEqual(DECISION_COMMANDS);
    // Moving around is never held, and the pause ends on time.
    expect(all.filter((command) => ignoredDuringPause(command, pause, 1000 + KEY_PAUSE_MS))).toEqual([]);
    expect(all.filter((command) => ignoredDuringPause(command, null, 1000))).toEqual([]);
  });

  it('starts only when a different review came up', () => {
    expect(pauseForAutoSelection('r', { id: 'r', title: 'a.ts' }, 0)).toBeNull();
    expect(pauseForAutoSelection('r', undefined, 0)).toBeNull();
    expect(pauseForAutoSelection('q', { id: 'r', title: 'a.ts' }, 0)).not.toBeNull();
  });
});

describe('the store pauses keys only when the review on screen changed by itself', () => {
  const c = client('c');
  const d = client('d', { name: 'NEXUS3' });
  beforeEach(() => {
    vi.useFakeTimers({ now: 10_000 });
    useAppStore.setState({ snapshot: null, selectedReviewId: null, keyPause: null, announcement: null });
  });
  afterEach(() => vi.useRealTimers());
  const state = () => useAppStore.getState();

  it('the first review arriving on an empty screen is paused and announced', () => {
    state().applySnapshot(snapshot([], [c]));
    expect(state().keyPause).toBeNull();
    state().applySnapshot(snapshot([review('a', 1, c)], [c]));
    expect(state().selectedReviewId).toBe('a');
    expect(state().keyPause).toEqual({
      until: 10_000 + KEY_PAUSE_MS,
      text: 'New review: a.ts — keys paused briefly',
    });
    expect(state().announcement?.text).toBe('New review: a.ts — keys paused briefly');
  });

  it('a new arrival while one is on screen changes nothing', () => {
    state().applySnapshot(snapshot([review('a', 1, c)], [c]));
    useAppStore.setState({ keyPause: null, announcement: null });
    state().applySnapshot(snapshot([review('a', 1, c), review('b', 2, d)], [c, d]));
    expect(state().selectedReviewId).toBe('a');
    expect(state().keyPause).toBeNull();
    expect(state().announcement).toBeNull();
  });

  it('the next review coming up after the person ended one is paused; what else is said keeps the notice', () => {
    state().applySnapshot(snapshot([review('a', 1, c), review('b', 2, c)], [c]));
    state().selectReview('a');
    expect(state().keyPause).toBeNull();
    state().applySnapshot(snapshot([review('a', 1, c, 'accepted'), review('b', 2, c)], [c]));
    expect(state().selectedReviewId).toBe('b');
    expect(state().keyPause?.text).toBe('New review: b.ts — keys paused briefly');
    // The submit's own announcement, arriving after the snapshot, does not hide the notice.
    state().announce('Review submitted (1 accepted, 0 rejected)');
    expect(state().announcement?.text).toBe(
      'Review submitted (1 accepted, 0 rejected). New review: b.ts — keys paused briefly',
    );
    vi.advanceTimersByTime(KEY_PAUSE_MS);
    state().announce('Hunk 1 accepted');
    expect(state().announcement?.text).toBe('Hunk 1 accepted');
  });

  it('reviews the person selects (click, ] / [) have no pause', () => {
    state().applySnapshot(snapshot([review('a', 1, c), review('b', 2, d)], [c, d]));
    expect(state().keyPause).not.toBeNull();
    state().selectAdjacentReview(1);
    expect(state().selectedReviewId).toBe('b');
    expect(state().keyPause).toBeNull();
    state().selectReview('a');
    expect(state().keyPause).toBeNull();
  });

  it('an agent-ended review stays on screen: no pause', () => {
    state().applySnapshot(snapshot([review('a', 1, c), review('b', 2, c)], [c]));
    useAppStore.setState({ keyPause: null });
    state().applySnapshot(snapshot([review('a', 1, c, 'cancelled'), review('b', 2, c)], [c]));
    expect(state().selectedReviewId).toBe('a');
    expect(state().keyPause).toBeNull();
  });

  it('] and [ walk the queue as shown, group by group', () => {
    // c's reviews at 1 and 3, d's at 2: shown c1, c3, d2.
    const snap = snapshot([review('c1', 1, c), review('d2', 2, d), review('c3', 3, c)], [c, d]);
    state().applySnapshot(snap);
    expect(state().selectedReviewId).toBe('c1');
    state().selectAdjacentReview(1);
    expect(state().selectedReviewId).toBe('c3');
    state().selectAdjacentReview(1);
    expect(state().selectedReviewId).toBe('d2');
    state().selectAdjacentReview(-1);
    expect(state().selectedReviewId).toBe('c3');
  });
});

describe('when the pause ends, the status line stops saying keys are paused', () => {
  const c = client('c');
  const state = () => useAppStore.getState();
  beforeEach(() => {
    vi.useFakeTimers({ now: 10_000 });
    useAppStore.setState({
      snapshot: null,
      selectedReviewId: null,
      keyPause: null,
      announcement: null,
      beforePause: null,
    });
  });
  afterEach(() => vi.useRealTimers());

  it('a notice alone is cleared', () => {
    state().applySnapshot(snapshot([review('a', 1, c)], [c]));
    const pause = state().keyPause!;
    state().endKeyPause(pause);
    expect(state().announcement).toBeNull();
    expect(state().keyPause).toBeNull();
  });

  it('what was said before the notice comes back, shown but not read out again', () => {
    state().applySnapshot(snapshot([review('a', 1, c), review('b', 2, c)], [c]));
    state().selectReview('a');
    state().announce('Review submitted (1 accepted, 0 rejected)');
    state().applySnapshot(snapshot([review('a', 1, c, 'accepted'), review('b', 2, c)], [c]));
    expect(state().announcement?.text).toBe('New review: b.ts — keys paused briefly');
    state().endKeyPause(state().keyPause!);
    expect(state().announcement).toMatchObject({
      text: 'Review submitted (1 accepted, 0 rejected)',
      quiet: true,
    });
  });

  it('what was said alongside the notice stays; a later announcement is read as usual', () => {
    state().applySnapshot(snapshot([review('a', 1, c)], [c]));
    state().announce('Hunk 1 accepted');
    expect(state().announcement?.text).toBe('Hunk 1 accepted. New review: a.ts — keys paused briefly');
    state().endKeyPause(state().keyPause!);
    expect(state().announcement).toMatchObject({ text: 'Hunk 1 accepted', quiet: true });
    state().announce('Hunk 2 accepted');
    expect(state().announcement).toEqual({ id: expect.any(Number), text: 'Hunk 2 accepted' });
  });

  it('an older pause ending does not touch a newer notice; a second notice does not bring back the first', () => {
    state().applySnapshot(snapshot([review('a', 1, c), review('b', 2, c)], [c]));
    const first = state().keyPause!;
    state().applySnapshot(snapshot([review('a', 1, c, 'accepted'), review('b', 2, c)], [c]));
    const second = state().keyPause!;
    expect(second).not.toBe(first);
    state().endKeyPause(first);
    expect(state().announcement?.text).toBe('New review: b.ts — keys paused briefly');
    state().endKeyPause(second);
    expect(state().announcement).toBeNull();
  });

  it('choosing a review cuts the pause short, and its notice with it', () => {
    state().applySnapshot(snapshot([review('a', 1, c), review('b', 2, c)], [c]));
    state().selectReview('b');
    expect(state().keyPause).toBeNull();
    expect(state().announcement).toBeNull();
  });
});

describe('a paused review the agent ends at once', () => {
  it('drops the pause notice: the announcement says only what happened', () => {
    const c = client('c');
    useAppStore.setState({ snapshot: null, selectedReviewId: null, keyPause: null, announcement: null });
    applyFullState(snapshot([review('a', 1, c)], [c]));
    expect(useAppStore.getState().keyPause).not.toBeNull();
    const cancelled = review('a', 1, c, 'cancelled', { reason: 'client disconnected' });
    applyFullState(snapshot([cancelled], [c]));
    expect(useAppStore.getState().keyPause).toBeNull();
    expect(useAppStore.getState().announcement?.text).toBe(
      'Cancelled: client disconnected — nothing was sent to Claude Code.',
    );
  });
});
