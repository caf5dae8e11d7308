import { beforeEach, describe, expect, it } from 'vitest';
import type { ReviewSummary } from '../../../shared/app-api';
import { chooseSelection, resolveCursor, shownFiles, useAppStore } from '../../../src-renderer/state/store';
import { applyFullState, type FullState } from './full-state';

const client = {
  id: 'c',
  name: 'Claude Code',
  protocol: 'claude-ide' as const,
  connectedAt: 0,
  connected: true,
};
const hunk = (index: number, decision: 'pending' | 'accepted' | 'rejected' = 'pending') => ({
  index,
  baseStart: index * 10,
  baseEnd: index * 10 + 1,
  proposedStart: index * 10,
  proposedEnd: index * 10 + 1,
  decision,
});
function review(
  id: string,
  createdAt: number,
  hunksPerFile: number[] = [2],
  state: ReviewSummary['state'] = 'pending',
): ReviewSummary {
  return {
    id,
    client,
    title: id,
    createdAt,
    state,
    files: hunksPerFile.map((count, f) => ({
      path: `f${f}.ts`,
      isNewFile: false,
      binary: false,
      fileDecision: 'pending' as const,
      disk: { state: 'unchanged' as const },
      conflicts: 0,
      contentRevision: 1,
      hunkCount: count,
      hunks: Array.from({ length: count }, (_, i) => hunk(i)),
    })),
    canUndo: false,
  };
}
const snap = (...reviews: ReviewSummary[]): FullState => ({
  version: 0,
  reviews,
  clients: [client],
  pausedClients: [],
  workspaceFolders: [],
  watchedFolders: [],
  connectionRequests: [],
  trustedPrograms: [],
});

describe('chooseSelection', () => {
  it('selects the oldest pending review when none is selected', () => {
    expect(chooseSelection(null, snap(review('b', 2), review('a', 1)), null)).toBe('a');
  });
  it('keeps the selected review when a new one arrives', () => {
    const before = snap(review('a', 1), review('b', 2));
    expect(chooseSelection(before, snap(review('a', 1), review('b', 2), review('c', 0)), 'b')).toBe('b');
  });
  it('moves to the next review in the queue when the selected one ends', () => {
    const before = snap(review('a', 1), review('b', 2), review('c', 3));
    const after = snap(review('a', 1), review('b', 2, [2], 'accepted'), review('c', 3));
    expect(chooseSelection(before, after, 'b')).toBe('c');
    const lastEnded = snap(review('a', 1), review('b', 2), review('c', 3, [2], 'rejected'));
    expect(chooseSelection(before, lastEnded, 'c')).toBe('b');
  });
  it('selects nothing when the queue is empty', () => {
    expect(chooseSelection(snap(review('a', 1)), snap(review('a', 1, [1], 'accepted')), 'a')).toBeNull();
    expect(chooseSelection(snap(review('a', 1)), snap(review('a', 1, [1], 'rejected')), 'a')).toBeNull();
  });

  describe('when the agent ends the selected review', () => {
    it.each(['cancelled', 'superseded'] as const)('a %s review stays selected', (state) => {
      const before = snap(review('a', 1), review('b', 2), review('c', 3));
      const after = snap(review('a', 1), review('b', 2, [2], state), review('c', 3));
      expect(chooseSelection(before, after, 'b')).toBe('b');
      // Also when it was the only one, and when the newer proposal arrives with it.
      expect(chooseSelection(snap(review('a', 1)), snap(review('a', 1, [2], state)), 'a')).toBe('a');
      const replaced = snap(review('a', 1, [2], state), review('a2', 5));
      expect(chooseSelection(snap(review('a', 1)), replaced, 'a')).toBe('a');
    });

    it('the person ending it still moves on', () => {
      const before = snap(review('a', 1), review('b', 2));
      expect(chooseSelection(before, snap(review('a', 1, [2], 'accepted'), review('b', 2)), 'a')).toBe('b');
      expect(chooseSelection(before, snap(review('a', 1, [2], 'rejected'), review('b', 2)), 'a')).toBe('b');
    });

    it('an ended review on screen is not pulled away by arrivals or by other reviews ending', () => {
      const before = snap(review('a', 1, [2], 'cancelled'), review('b', 2));
      const after = snap(review('a', 1, [2], 'cancelled'), review('b', 2, [2], 'accepted'), review('c', 3));
      expect(chooseSelection(before, after, 'a')).toBe('a');
    });
  });

  it('keeps an already ended review the person chose to look at, whatever its state', () => {
    for (const state of ['accepted', 'rejected', 'cancelled', 'superseded'] as const) {
      const before = snap(review('a', 1, [2], state), review('b', 2));
      const after = snap(review('a', 1, [2], state), review('b', 2), review('c', 3));
      expect(chooseSelection(before, after, 'a')).toBe('a');
    }
  });

  it('moves on when the selected ended review is gone from the history', () => {
    const before = snap(review('a', 1, [2], 'cancelled'), review('b', 2));
    expect(chooseSelection(before, snap(review('b', 2)), 'a')).toBe('b');
    expect(chooseSelection(before, snap(), 'a')).toBeNull();
  });
});

describe('selectAdjacentReview', () => {
  beforeEach(() => {
    useAppStore.setState({ snapshot: null, selectedReviewId: null, cursors: {}, contents: {} });
  });

  it('walks pending reviews only; from an ended one, ] goes to the first pending', () => {
    applyFullState(snap(review('a', 1), review('x', 2, [1], 'accepted'), review('b', 3)));
    expect(useAppStore.getState().selectedReviewId).toBe('a');
    useAppStore.getState().selectAdjacentReview(1);
    expect(useAppStore.getState().selectedReviewId).toBe('b');
    useAppStore.getState().selectAdjacentReview(1);
    expect(useAppStore.getState().selectedReviewId).toBe('b');
    useAppStore.getState().selectAdjacentReview(-1);
    expect(useAppStore.getState().selectedReviewId).toBe('a');
    useAppStore.getState().selectReview('x');
    useAppStore.getState().selectAdjacentReview(1);
    expect(useAppStore.getState().selectedReviewId).toBe('a');
  });

  it('stays on an ended review when nothing is pending', () => {
    applyFullState(snap(review('a', 1)));
    applyFullState(snap(review('a', 1, [1], 'cancelled')));
    useAppStore.getState().selectAdjacentReview(1);
    useAppStore.getState().selectAdjacentReview(-1);
    expect(useAppStore.getState().selectedReviewId).toBe('a');
  });
});

describe('cursor', () => {
  beforeEach(() => {
    useAppStore.setState({ snapshot: null, selectedReviewId: null, cursors: {}, contents: {} });
  });

  it('starts on the first hunk of the first file that has hunks', () => {
    expect(resolveCursor(review('a', 1, [0, 3]), undefined)).toEqual({ fileIndex: 1, hunkIndex: 0 });
    expect(resolveCursor(review('a', 1, [0]), undefined)).toEqual({ fileIndex: 0, hunkIndex: null });
  });

  it('walks hunks across files and stops at the ends', () => {
    applyFullState(snap(review('a', 1, [2, 1])));
    const moves = [1, 1, 1, -1, -1, -1, -1].map((d) => useAppStore.getState().moveCursor(d as 1 | -1));
    expect(moves).toEqual([
      { fileIndex: 0, hunkIndex: 1 },
      { fileIndex: 1, hunkIndex: 0 },
      { fileIndex: 1, hunkIndex: 0 },
      { fileIndex: 0, hunkIndex: 1 },
      { fileIndex: 0, hunkIndex: 0 },
      { fileIndex: 0, hunkIndex: 0 },
      { fileIndex: 0, hunkIndex: 0 },
    ]);
  });

  it('forgets cursors and cached contents of ended reviews', () => {
    applyFullState(snap(review('a', 1), review('b', 2)));
    useAppStore.getState().setCursor('a', { fileIndex: 0, hunkIndex: 1 });
    useAppStore.getState().setContent('a@1', { status: 'loading' });
    applyFullState(snap(review('a', 1, [2], 'accepted'), review('b', 2)));
    const state = useAppStore.getState();
    expect(state.selectedReviewId).toBe('b');
    expect(state.cursors).toEqual({});
    expect(state.contents).toEqual({});
  });

  it('keeps the cursor and contents of the review the agent ended while it is on screen', () => {
    applyFullState(snap(review('a', 1), review('b', 2)));
    useAppStore.getState().setCursor('a', { fileIndex: 0, hunkIndex: 1 });
    useAppStore.getState().setContent('a@1', { status: 'ready', files: [] });
    useAppStore.getState().setCursor('b', { fileIndex: 0, hunkIndex: 1 });
    applyFullState(snap(review('a', 1, [2], 'cancelled'), review('b', 2)));
    let state = useAppStore.getState();
    expect(state.selectedReviewId).toBe('a');
    expect(state.cursors).toEqual({
      a: { fileIndex: 0, hunkIndex: 1 },
      b: { fileIndex: 0, hunkIndex: 1 },
    });
    expect(state.contents).toEqual({ 'a@1': { status: 'ready', files: [] } });
    // j/k still move through its hunks.
    expect(state.moveCursor(-1)).toEqual({ fileIndex: 0, hunkIndex: 0 });
    // Once the person moves on, what was kept for it goes at the next snapshot.
    state.selectReview('b');
    applyFullState(snap(review('a', 1, [2], 'cancelled'), review('b', 2)));
    state = useAppStore.getState();
    expect(state.selectedReviewId).toBe('b');
    expect(Object.keys(state.cursors)).toEqual(['b']);
    expect(state.contents).toEqual({});
  });

  it('holds texts for the review on screen only', () => {
    applyFullState(snap(review('a', 1), review('b', 2)));
    const files = [{ path: 'f0.ts', contentRevision: 1, baseText: 'a\n', proposedText: 'b\n' }];
    useAppStore.getState().setContent('a@1', { status: 'ready', files });
    // Texts of a review that is not on screen are not kept, even if they come back.
    useAppStore.getState().setContent('b@1', { status: 'ready', files });
    expect(useAppStore.getState().contents).toEqual({ 'a@1': { status: 'ready', files } });
    useAppStore.getState().selectReview('b');
    useAppStore.getState().setContent('b@1', { status: 'loading' });
    expect(useAppStore.getState().contents).toEqual({ 'b@1': { status: 'loading' } });
  });

  it('keeps the last texts on screen while a newer content revision loads', () => {
    const revised = (revision: number): ReviewSummary => {
      const a = review('a', 1);
      return { ...a, files: a.files.map((file) => ({ ...file, contentRevision: revision })) };
    };
    const older = [{ path: 'f0.ts', contentRevision: 1, baseText: 'a\n', proposedText: 'b\n' }];
    const newer = [{ path: 'f0.ts', contentRevision: 2, baseText: 'a\n', proposedText: 'c\n' }];
    applyFullState(snap(revised(1)));
    useAppStore.getState().setContent('a@1', { status: 'ready', files: older });
    applyFullState(snap(revised(2)));
    useAppStore.getState().setContent('a@2', { status: 'loading' });
    expect(shownFiles(useAppStore.getState().contents, revised(2))).toBe(older);
    useAppStore.getState().setContent('a@2', { status: 'ready', files: newer });
    expect(shownFiles(useAppStore.getState().contents, revised(2))).toBe(newer);
    // Once the newer texts are in, the older ones go.
    expect(Object.keys(useAppStore.getState().contents)).toEqual(['a@2']);
  });

  it('announces once when the agent ends the review on screen, not when the person ends one', () => {
    useAppStore.setState({ announcement: null });
    applyFullState(snap(review('a', 1), review('b', 2)));
    const cancelled = { ...review('a', 1, [2], 'cancelled'), reason: 'client disconnected' };
    applyFullState(snap(cancelled, review('b', 2)));
    expect(useAppStore.getState().announcement?.text).toBe(
      'Cancelled: client disconnected — nothing was sent to Claude Code.',
    );
    const id = useAppStore.getState().announcement?.id;
    applyFullState(snap(cancelled, review('b', 2), review('c', 3)));
    expect(useAppStore.getState().announcement?.id).toBe(id);
    useAppStore.getState().selectReview('b');
    applyFullState(snap(cancelled, review('b', 2, [2], 'accepted'), review('c', 3)));
    expect(useAppStore.getState().selectedReviewId).toBe('c');
    // Not "ended" news: only the notice that the next review came up (key-pause.test.ts).
    expect(useAppStore.getState().announcement?.text).toBe('New review: c — keys paused briefly');
  });
});

describe('files changed on disk', () => {
  const onDisk = (
    base: ReviewSummary,
    states: ReviewSummary['files'][number]['disk']['state'][],
  ): ReviewSummary => ({
    ...base,
    files: base.files.map((file, i) => ({ ...file, disk: { state: states[i] ?? 'unchanged' } })),
  });
  const withFolders = (...reviews: ReviewSummary[]): FullState => ({
    ...snap(...reviews),
    workspaceFolders: ['/w'],
    watchedFolders: [],
    connectionRequests: [],
    trustedPrograms: [],
  });
  const located = (r: ReviewSummary): ReviewSummary => ({
    ...r,
    files: r.files.map((file) => ({ ...file, path: `/w/src/${file.path}` })),
  });

  beforeEach(() => {
    useAppStore.setState({ snapshot: null, selectedReviewId: null, announcement: null, keyPause: null });
  });

  it('are announced once, as they change, by their workspace path', () => {
    const a = located(review('a', 1, [1, 1, 1]));
    applyFullState(withFolders(a));
    useAppStore.setState({ announcement: null, keyPause: null });
    applyFullState(withFolders(onDisk(a, ['modified', 'unchanged', 'deleted'])));
    expect(useAppStore.getState().announcement?.text).toBe(
      'src/f0.ts changed on disk. src/f2.ts deleted on disk',
    );
    const id = useAppStore.getState().announcement?.id;
    // Still changed: nothing new to say.
    applyFullState(withFolders(onDisk(a, ['modified', 'unchanged', 'deleted'])));
    expect(useAppStore.getState().announcement?.id).toBe(id);
  });

  it('only for the review on screen, and not for one that came up already changed', () => {
    const a = located(review('a', 1));
    const b = located(review('b', 2));
    applyFullState(withFolders(a, b));
    useAppStore.setState({ announcement: null, keyPause: null });
    applyFullState(withFolders(a, onDisk(b, ['modified'])));
    expect(useAppStore.getState().announcement).toBeNull();
    useAppStore.getState().selectReview('b');
    applyFullState(withFolders(a, onDisk(b, ['modified'])));
    expect(useAppStore.getState().announcement).toBeNull();
  });
});
