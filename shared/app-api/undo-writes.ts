/** "Undo changes on disk": the writes DiffTray journaled, review by review, and taking them back. */
import { z } from 'zod';
import { answers, type CallSpec } from './call-spec';

/** One review's writes kept in the undo journal (also those of earlier runs, whose review is gone). */
export interface UndoableWrites {
  /** What `undoWrites` takes: the review id for a review of this run. */
  id: string;
  /** The review's id in the run that wrote them. */
  reviewId: string;
  /** Written by this run: the review is in History under `reviewId`. */
  thisRun: boolean;
  writtenAt: number;
  /** The files written, deleted or reverted. */
  files: string[];
  /** Already undone. */
  spent?: true;
}

/** What `undoWrites` did, file by file. */
export interface UndoWritesResult {
  /** Put back as they were before the review's writes. */
  restored: string[];
  /** Changed on disk since DiffTray wrote them: left alone, and offered as a merge (mergeReviewId). */
  changedSince: string[];
  /** Not put back, and why (a write refused: a symlink swapped in, outside the workspace...). */
  failed: Array<{ path: string; reason: string }>;
  /** The pending review that merges the undo onto the files changed since, when there are any. */
  mergeReviewId?: string;
}

export const undoWriteCalls = {
  /**
   * "Undo changes on disk": puts back what a review's writes replaced (UndoableWrites.id), each file only
   * if it still holds exactly what DiffTray wrote; the others are offered as a merge review.
   */
  undoWrites: {
    params: z.object({ id: z.string().min(1).max(400) }),
    result: answers<UndoWritesResult>(),
  },
} satisfies Record<string, CallSpec>;
