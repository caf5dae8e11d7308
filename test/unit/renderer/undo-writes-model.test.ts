/** What History's "Undo changes on disk" asks and what the status line says after (undo-writes-model.ts). */
import { describe, expect, it } from 'vitest';
import type { UndoableWrites } from '../../../shared/app-api';
import {
  earlierUndoable,
  undoableOf,
  undoOutcomeText,
  undoQuestion,
} from '../../../src-renderer/views/undo-writes-model';

const folders = ['/ws'];
const set = (over: Partial<UndoableWrites>): UndoableWrites => ({
  id: 'r1',
  reviewId: 'r1',
  thisRun: true,
  writtenAt: 1,
  files: ['/ws/a.txt'],
  ...over,
});

describe('undo-writes model', () => {
  it('finds a review of this run by its id, and lists those of earlier runs apart', () => {
    const sets = [
      set({}),
      set({ id: 'abcd-r1', thisRun: false }),
      set({ id: 'x-r2', reviewId: 'r2', thisRun: false, spent: true }),
    ];
    expect(undoableOf(sets, 'r1')).toBe(sets[0]);
    expect(undoableOf(sets, 'r2')).toBeUndefined();
    expect(earlierUndoable(sets)).toEqual([sets[1]]);
  });

  it('asks about one file or several', () => {
    expect(undoQuestion(set({}))).toMatch(/^Put back this file as it was/);
    expect(undoQuestion(set({ files: ['/ws/a', '/ws/b'] }))).toMatch(/^Put back these 2 files/);
  });

  it('says what was put back, what changed since (and the merge), and what failed, with short paths', () => {
    expect(
      undoOutcomeText(
        {
          restored: ['/ws/a.txt'],
          changedSince: ['/ws/b.txt'],
          failed: [{ path: '/ws/c.txt', reason: 'A symbolic link, not a regular file' }],
          mergeReviewId: 'r9',
        },
        folders,
      ),
    ).toBe(
      'Put back a.txt. Changed on disk since, left as they are: b.txt; the undo waits as a merge review in ' +
        'the queue. Not put back: c.txt (A symbolic link, not a regular file). The undo of what was not ' +
        'put back stays available, to try again',
    );
    expect(undoOutcomeText({ restored: [], changedSince: [], failed: [] }, folders)).toBe(
      'Nothing to put back',
    );
  });
});
