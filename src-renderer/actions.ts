/**
 * Everything the UI asks main to do. Decisions live in main: we send the request, announce the
 * outcome, and let the next pushed snapshot re-render the view. Nothing here changes a decision locally.
 */
import type { AppApi, ReviewSummary } from '../shared/app-api';
import type { HunkDecision } from '../shared/hunks';
import { contentKey, countDecisions, decisionVerb, findReview, submittedSummary } from './review-model';
import { resolveCursor, useAppStore, type UndoEntry } from './store';

export interface Actions {
  loadContents(review: ReviewSummary): Promise<void>;
  /** refresh() after every (re)connect: snapshots pushed while we were away are lost. */
  refresh(): Promise<void>;
  decideHunk(fileIndex: number, hunkIndex: number, decision: HunkDecision): Promise<void>;
  decideCurrent(decision: HunkDecision): Promise<void>;
  decideAll(decision: HunkDecision): Promise<void>;
  undo(): Promise<void>;
  submit(): Promise<void>;
  reject(reason: string): Promise<void>;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function createActions(api: AppApi): Actions {
  const store = useAppStore;
  let pushesSeen = 0;
  api.onSnapshot(() => {
    pushesSeen += 1;
  });

  const selected = (): ReviewSummary | undefined => {
    const { snapshot, selectedReviewId } = store.getState();
    const review = findReview(snapshot, selectedReviewId);
    return review?.state === 'pending' ? review : undefined;
  };

  /** Sends decisions grouped by value, one decideHunks call per (file, decision). */
  const send = async (
    reviewId: string,
    changes: Array<{ fileIndex: number; hunkIndex: number; decision: HunkDecision }>,
    review: ReviewSummary,
  ): Promise<void> => {
    const groups = new Map<string, { fileIndex: number; decision: HunkDecision; indexes: number[] }>();
    for (const change of changes) {
      const hunk = review.files[change.fileIndex]?.hunks[change.hunkIndex];
      if (!hunk) continue;
      const key = `${change.fileIndex}:${change.decision}`;
      const group = groups.get(key) ?? {
        fileIndex: change.fileIndex,
        decision: change.decision,
        indexes: [],
      };
      // The API names hunks by the index main gave them.
      group.indexes.push(hunk.index);
      groups.set(key, group);
    }
    for (const group of groups.values()) {
      await api.decideHunks(reviewId, group.fileIndex, group.indexes, group.decision);
    }
  };

  const previousDecisions = (
    review: ReviewSummary,
    fileIndex?: number,
    hunkIndex?: number,
  ): UndoEntry['previous'] =>
    review.files.flatMap((file, f) =>
      file.hunks
        .map((hunk, h) => ({ fileIndex: f, hunkIndex: h, decision: hunk.decision }))
        .filter(
          (entry) =>
            (fileIndex === undefined || entry.fileIndex === fileIndex) &&
            (hunkIndex === undefined || entry.hunkIndex === hunkIndex),
        ),
    );

  const actions: Actions = {
    async loadContents(review) {
      const key = contentKey(review);
      const existing = store.getState().contents[key];
      if (existing && existing.status !== 'error') return;
      store.getState().setContent(key, { status: 'loading' });
      try {
        const files = await api.getReviewContent(review.id);
        store.getState().setContent(key, { status: 'ready', files });
      } catch (error) {
        store.getState().setContent(key, { status: 'error', message: errorText(error) });
      }
    },

    async refresh() {
      const before = pushesSeen;
      try {
        const snapshot = await api.getSnapshot();
        // A push that arrived meanwhile is at least as new as this answer.
        if (pushesSeen === before) store.getState().applySnapshot(snapshot);
      } catch (error) {
        store.getState().announce(`Could not load reviews: ${errorText(error)}`);
      }
    },

    async decideHunk(fileIndex, hunkIndex, decision) {
      const review = selected();
      if (!review) return;
      const state = store.getState();
      state.setCursor(review.id, { fileIndex, hunkIndex });
      const label = `Hunk ${hunkIndex + 1}`;
      try {
        const previous = previousDecisions(review, fileIndex, hunkIndex);
        await send(review.id, [{ fileIndex, hunkIndex, decision }], review);
        state.pushUndo({ reviewId: review.id, description: `${label} ${decisionVerb[decision]}`, previous });
        state.announce(`${label} ${decisionVerb[decision]}`);
      } catch (error) {
        state.announce(`Could not update ${label.toLowerCase()}: ${errorText(error)}`);
      }
    },

    async decideCurrent(decision) {
      const review = selected();
      if (!review) return;
      const cursor = resolveCursor(review, store.getState().cursors[review.id]);
      if (cursor.hunkIndex === null) return;
      await actions.decideHunk(cursor.fileIndex, cursor.hunkIndex, decision);
    },

    async decideAll(decision) {
      const review = selected();
      if (!review) return;
      const state = store.getState();
      try {
        const previous = previousDecisions(review);
        await api.decideAll(review.id, decision);
        const text = `All hunks ${decisionVerb[decision]}`;
        state.pushUndo({ reviewId: review.id, description: text, previous });
        state.announce(text);
      } catch (error) {
        state.announce(`Could not update all hunks: ${errorText(error)}`);
      }
    },

    async undo() {
      const review = selected();
      if (!review) return;
      const state = store.getState();
      const entry = state.popUndo(review.id);
      if (!entry) {
        state.announce('Nothing to undo');
        return;
      }
      // Only hunks whose decision differs from what they had then need to be sent again.
      const changed = entry.previous.filter(
        (prev) => review.files[prev.fileIndex]?.hunks[prev.hunkIndex]?.decision !== prev.decision,
      );
      try {
        await send(review.id, changed, review);
        state.announce(`Undone: ${entry.description}`);
      } catch (error) {
        state.pushUndo(entry);
        state.announce(`Could not undo: ${errorText(error)}`);
      }
    },

    async submit() {
      const review = selected();
      if (!review) return;
      const summary = submittedSummary(countDecisions(review));
      try {
        await api.submit(review.id);
        store.getState().announce(`Review submitted (${summary})`);
      } catch (error) {
        store.getState().announce(`Could not submit: ${errorText(error)}`);
      }
    },

    async reject(reason) {
      const review = selected();
      if (!review) return;
      const trimmed = reason.trim();
      try {
        await api.reject(review.id, trimmed === '' ? undefined : trimmed);
        store.getState().announce('Review rejected');
      } catch (error) {
        store.getState().announce(`Could not reject: ${errorText(error)}`);
      }
    },
  };
  return actions;
}
