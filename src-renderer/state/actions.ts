/**
 * Everything the UI asks main to do. Decisions, edits and the undo stack live in main: we send the
 * request, announce the outcome, and let the next pushed snapshot re-render the view. Nothing here
 * changes a decision locally.
 */
import type { AppApi, ReviewItem, ReviewSummary } from '../../shared/app-api';
import type { HunkDecision } from '../../shared/hunks';
import type { CommentSide } from '../../shared/review-comments';
import { noteToSend, useNoteDrafts } from '../review/agent-note';
import { baseName, fileDecisionAnnouncement } from '../review/file-status';
import {
  lineDecisionAnnouncement,
  NO_SELECTION_REASON,
  resolveLineSelection,
} from '../review/line-selection';
import {
  contentKey,
  countDecisions,
  decisionVerb,
  errorMessage,
  submittedSummary,
} from '../review/review-model';
import { partialDecisionBlocker } from '../review/whole-proposal';
import { flushPendingEdits, useReviewUi } from '../review/review-ui';
import {
  linesToSend,
  NOTHING_TO_SEND_REASON,
  sendUnavailableText,
  sentAnnouncement,
} from '../review/send-to-agent';
import { resolveCursor, useAppStore } from './store';

export interface Actions {
  loadContents(review: ReviewItem): Promise<void>;
  decideHunk(fileIndex: number, hunkIndex: number, decision: HunkDecision): Promise<void>;
  decideCurrent(decision: HunkDecision): Promise<void>;
  /** Decides the lines the person selected in the diff (one hunk's worth; see line-selection.ts). */
  decideSelectedLines(decision: 'accepted' | 'rejected'): Promise<void>;
  decideFile(fileIndex: number, decision: HunkDecision): Promise<void>;
  decideAll(decision: HunkDecision): Promise<void>;
  /** Sends the person's edited proposed text of one file; resolves false when main refused it. */
  editProposal(fileIndex: number, proposedText: string): Promise<boolean>;
  /**
   * Puts the person's comment on a line of a file of the review on screen (an empty text removes it);
   * resolves false when main refused it.
   */
  putComment(fileIndex: number, side: CommentSide, line: number, text: string): Promise<boolean>;
  /** Main's undo: the last decision or edit of the review on screen, whatever it was. */
  undo(): Promise<void>;
  rebase(fileIndex: number): Promise<void>;
  /** Sends the lines selected in the diff to the review's agent, pending or ended (send-to-agent.ts). */
  sendSelectedLines(): Promise<void>;
  /** Submits (allows, for an approval card) with the review's draft note to the agent. */
  submit(): Promise<void>;
  /** Rejects (denies, for an approval card); the reason is the note to the agent. */
  reject(reason: string): Promise<void>;
}

export function createActions(api: AppApi): Actions {
  const store = useAppStore;
  const ui = useReviewUi;

  const announce = (text: string): void => store.getState().announce(text);
  /** An error as the person reads it: paths relative to the workspace, as the rest of the window names files. */
  const errorText = (error: unknown): string =>
    errorMessage(error, store.getState().snapshot?.workspaceFolders ?? []);

  const selected = (): ReviewSummary | undefined => {
    const review = store.getState().selected;
    return review?.state === 'pending' ? review : undefined;
  };

  /** A change went through: an earlier submit error no longer describes the review. */
  const clearSubmitError = (reviewId: string): void => {
    if (ui.getState().submitError?.reviewId === reviewId) ui.getState().setSubmitError(null);
  };

  const fileName = (review: ReviewSummary, fileIndex: number): string =>
    baseName(review.files[fileIndex]?.path ?? `file ${fileIndex + 1}`);

  const actions: Actions = {
    async loadContents(review) {
      const key = contentKey(review);
      const existing = store.getState().contents[key];
      if (existing && existing.status !== 'error') return;
      if (review.textsDropped) {
        store.getState().setContent(key, { status: 'dropped' });
        return;
      }
      store.getState().setContent(key, { status: 'loading' });
      try {
        const files = await api.call('getReviewContent', { reviewId: review.id });
        store.getState().setContent(key, { status: 'ready', files });
      } catch (error) {
        store.getState().setContent(key, { status: 'error', message: errorText(error) });
      }
    },

    async decideHunk(fileIndex, hunkIndex, decision) {
      const review = selected();
      const hunk = review?.files[fileIndex]?.hunks[hunkIndex];
      if (!review || !hunk) return;
      store.getState().setCursor(review.id, { fileIndex, hunkIndex });
      const label = `Hunk ${hunkIndex + 1}`;
      try {
        // The API names hunks by the index main gave them.
        await api.call('decideHunks', {
          reviewId: review.id,
          fileIndex,
          hunkIndexes: [hunk.index],
          decision,
        });
        clearSubmitError(review.id);
        announce(`${label} ${decisionVerb[decision]}`);
      } catch (error) {
        announce(`Could not update ${label.toLowerCase()}: ${errorText(error)}`);
      }
    },

    async decideCurrent(decision) {
      const review = selected();
      if (!review) return;
      const cursor = resolveCursor(review, store.getState().cursors[review.id]);
      if (cursor.hunkIndex === null) return;
      await actions.decideHunk(cursor.fileIndex, cursor.hunkIndex, decision);
    },

    async decideSelectedLines(decision) {
      const review = selected();
      if (!review) return;
      const { lineSelection, editsPending } = ui.getState();
      if (editsPending) {
        announce('Your edit is still being saved: decide lines once the diff is up to date');
        return;
      }
      if (!lineSelection || lineSelection.reviewId !== review.id) {
        announce(NO_SELECTION_REASON);
        return;
      }
      const { fileIndex } = lineSelection;
      const hunks = review.files[fileIndex]?.hunks ?? [];
      const resolved = resolveLineSelection(hunks, lineSelection.selection);
      if (!resolved.ok) {
        announce(resolved.reason);
        return;
      }
      const hunk = hunks[resolved.hunkPosition];
      if (!hunk) return;
      store.getState().setCursor(review.id, { fileIndex, hunkIndex: resolved.hunkPosition });
      try {
        await api.call('decideLines', {
          reviewId: review.id,
          fileIndex,
          hunkIndex: hunk.index,
          lines: resolved.lines,
          decision,
        });
        clearSubmitError(review.id);
        announce(lineDecisionAnnouncement(resolved.hunkPosition, resolved.count, decision));
      } catch (error) {
        announce(`Could not decide the selected lines: ${errorText(error)}`);
      }
    },

    async decideFile(fileIndex, decision) {
      const review = selected();
      if (!review?.files[fileIndex]) return;
      const name = fileName(review, fileIndex);
      try {
        await api.call('decideFile', { reviewId: review.id, fileIndex, decision });
        clearSubmitError(review.id);
        announce(fileDecisionAnnouncement(name, decision));
      } catch (error) {
        announce(`Could not update file ${name}: ${errorText(error)}`);
      }
    },

    async decideAll(decision) {
      const review = selected();
      if (!review) return;
      try {
        await api.call('decideAll', { reviewId: review.id, decision });
        clearSubmitError(review.id);
        announce(`All hunks ${decisionVerb[decision]}`);
      } catch (error) {
        announce(`Could not update all hunks: ${errorText(error)}`);
      }
    },

    async editProposal(fileIndex, proposedText) {
      const review = selected();
      if (!review?.files[fileIndex]) return false;
      try {
        await api.call('editProposal', { reviewId: review.id, fileIndex, proposedText });
        clearSubmitError(review.id);
        return true;
      } catch (error) {
        announce(`Could not save your edit of ${fileName(review, fileIndex)}: ${errorText(error)}`);
        return false;
      }
    },

    async putComment(fileIndex, side, line, text) {
      const review = selected();
      if (!review?.files[fileIndex]) return false;
      try {
        await api.call('putComment', { reviewId: review.id, fileIndex, side, line, text });
        announce(
          text.trim() === '' ? `Comment on line ${line + 1} removed` : `Comment on line ${line + 1} saved`,
        );
        return true;
      } catch (error) {
        announce(`Could not save your comment: ${errorText(error)}`);
        return false;
      }
    },

    async undo() {
      const before = selected();
      if (!before) return;
      // An edit still waiting for its debounce is the newest change: send it, so undo takes it back.
      await flushPendingEdits();
      const review = selected();
      if (!review || review.id !== before.id) return;
      if (!review.canUndo && !before.canUndo) {
        announce('Nothing to undo');
        return;
      }
      try {
        await api.call('undo', { reviewId: review.id });
        clearSubmitError(review.id);
        announce('Undone');
      } catch (error) {
        announce(`Could not undo: ${errorText(error)}`);
      }
    },

    async rebase(fileIndex) {
      const review = selected();
      if (!review?.files[fileIndex]) return;
      const name = fileName(review, fileIndex);
      try {
        await api.call('rebase', { reviewId: review.id, fileIndex });
        clearSubmitError(review.id);
        ui.getState().setShowDiskChanges(false);
        announce(`Rebased ${name} onto the file on disk`);
      } catch (error) {
        announce(`Could not rebase ${name}: ${errorText(error)}`);
      }
    },

    async sendSelectedLines() {
      const review = store.getState().selected;
      if (!review || review.approval) return;
      const unavailable = sendUnavailableText(review);
      if (unavailable) {
        announce(unavailable);
        return;
      }
      const { lineSelection, editsPending } = ui.getState();
      const ours = lineSelection?.reviewId === review.id ? lineSelection : null;
      const lines = linesToSend(ours?.selection ?? null);
      if (!ours || !lines.ok) {
        announce(lines.ok ? NOTHING_TO_SEND_REASON : lines.reason);
        return;
      }
      // Until main has the edit, its proposal is not the text the lines were selected in.
      if (editsPending && lines.side === 'proposed') {
        announce('Your edit is still being saved: send lines once it is');
        return;
      }
      const { side, startLine, endLine } = lines;
      try {
        await api.call('sendSelection', {
          reviewId: review.id,
          fileIndex: ours.fileIndex,
          side,
          startLine,
          endLine,
        });
        announce(sentAnnouncement(lines, fileName(review, ours.fileIndex), review.client.name));
      } catch (error) {
        announce(`Could not send the lines to ${review.client.name}: ${errorText(error)}`);
      }
    },

    async submit() {
      const before = selected();
      if (!before) return;
      // The person's last keystrokes in the proposal are part of what they submit.
      await flushPendingEdits();
      const review = selected() ?? before;
      const counts = countDecisions(review);
      const summary = submittedSummary(counts);
      // The keyboard reaches here too: a client that applies proposals whole gets no partial decision.
      const partial = review.approval ? null : partialDecisionBlocker(review.client, counts);
      if (partial) {
        ui.getState().setSubmitError({ reviewId: review.id, message: partial });
        announce(`Could not submit: ${partial}`);
        return;
      }
      try {
        const note = noteToSend(review.id);
        // Without a note the key is left out, not sent as undefined.
        await api.call('submit', { reviewId: review.id, ...(note !== undefined && { note }) });
        useNoteDrafts.getState().clearDraft(review.id);
        clearSubmitError(review.id);
        announce(review.approval ? 'Allowed' : `Review submitted (${summary})`);
      } catch (error) {
        // Main refuses while a file changed on disk or conflicts remain; the review stays open.
        const message = errorText(error);
        ui.getState().setSubmitError({ reviewId: review.id, message });
        announce(`Could not submit: ${message}`);
      }
    },

    async reject(reason) {
      const review = selected();
      if (!review) return;
      const trimmed = reason.trim();
      try {
        await api.call('reject', { reviewId: review.id, ...(trimmed !== '' && { reason: trimmed }) });
        useNoteDrafts.getState().clearDraft(review.id);
        announce(review.approval ? 'Denied' : 'Review rejected');
      } catch (error) {
        announce(`Could not ${review.approval ? 'deny' : 'reject'}: ${errorText(error)}`);
      }
    },
  };
  return actions;
}
