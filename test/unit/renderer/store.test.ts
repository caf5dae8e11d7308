import { beforeEach, describe, expect, it } from 'vitest';
import type { AppSnapshot, ReviewSummary } from '../../../shared/app-api';
import { chooseSelection, resolveCursor, useAppStore } from '../../../src-renderer/store';

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
      contentRevision: 1,
      hunks: Array.from({ length: count }, (_, i) => hunk(i)),
    })),
  };
}
const snap = (...reviews: ReviewSummary[]): AppSnapshot => ({
  reviews,
  clients: [client],
  workspaceFolders: [],
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
    expect(chooseSelection(snap(review('a', 1)), snap(review('a', 1, [1], 'cancelled')), 'a')).toBeNull();
  });
});

describe('cursor', () => {
  beforeEach(() => {
    useAppStore.setState({ snapshot: null, selectedReviewId: null, cursors: {}, contents: {}, undo: [] });
  });

  it('starts on the first hunk of the first file that has hunks', () => {
    expect(resolveCursor(review('a', 1, [0, 3]), undefined)).toEqual({ fileIndex: 1, hunkIndex: 0 });
    expect(resolveCursor(review('a', 1, [0]), undefined)).toEqual({ fileIndex: 0, hunkIndex: null });
  });

  it('walks hunks across files and stops at the ends', () => {
    const store = useAppStore.getState();
    store.applySnapshot(snap(review('a', 1, [2, 1])));
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

  it('forgets cursors, cached contents and undo of ended reviews', () => {
    const store = useAppStore.getState();
    store.applySnapshot(snap(review('a', 1), review('b', 2)));
    store.setCursor('a', { fileIndex: 0, hunkIndex: 1 });
    store.setContent('a@1', { status: 'loading' });
    store.pushUndo({ reviewId: 'a', description: 'x', previous: [] });
    useAppStore.getState().applySnapshot(snap(review('a', 1, [2], 'accepted'), review('b', 2)));
    const state = useAppStore.getState();
    expect(state.selectedReviewId).toBe('b');
    expect(state.cursors).toEqual({});
    expect(state.contents).toEqual({});
    expect(state.undo).toEqual([]);
  });
});
