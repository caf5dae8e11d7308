/**
 * State of the review view that is the renderer's own and short-lived: what the person selected in
 * the diff, whether they are editing the proposal, which panels are open, the last submit error.
 * Kept apart from store.ts (the snapshot and the queue) so the two evolve independently.
 */
import { create } from 'zustand';
import type { CommentSide } from '../../shared/review-comments';
import type { EditorLineSelection } from './line-selection';

export interface LineSelectionState {
  reviewId: string;
  fileIndex: number;
  selection: EditorLineSelection;
}

/** The line whose comment the person is writing or editing (0-based line of that side's text). */
export interface CommentPlace {
  reviewId: string;
  fileIndex: number;
  side: CommentSide;
  line: number;
}

export interface ReviewUiState {
  /** The last selection the person made in one editor of the diff (null: none, or only a caret moved by code). */
  lineSelection: LineSelectionState | null;
  /**
   * Edits of the proposal that main has not answered yet (waiting for the debounce or in flight):
   * main's hunks do not describe the text on screen, so line decisions wait.
   */
  editsPending: boolean;
  /** The modified side of the diff is editable. */
  editing: boolean;
  /** The diff area shows base → disk instead of base → proposed. */
  showDiskChanges: boolean;
  /** The diff area shows, read-only, the file's other starting point → proposed (other-base.ts). */
  showOtherBase: boolean;
  /** The reject-with-reason dialog is open (opened from the toolbar or the disk banner). */
  rejectOpen: boolean;
  submitError: { reviewId: string; message: string } | null;
  /** Bumped to ask the diff to focus the proposed side on its first conflict marker. */
  conflictEditRequest: number;
  /** The comment being written or edited, in a box under its line (comment-zones.ts); null: none. */
  commentDraft: CommentPlace | null;

  setLineSelection(value: LineSelectionState | null): void;
  setEditsPending(value: boolean): void;
  setEditing(value: boolean): void;
  setShowDiskChanges(value: boolean): void;
  setShowOtherBase(value: boolean): void;
  setRejectOpen(value: boolean): void;
  setSubmitError(value: ReviewUiState['submitError']): void;
  setCommentDraft(value: CommentPlace | null): void;
  /** Turns editing on and moves the cursor to the first conflict marker in the proposal. */
  requestConflictEdit(): void;
  /** A different review came on screen: nothing of the previous one's view state applies. */
  resetForReview(): void;
}

export const useReviewUi = create<ReviewUiState>()((set) => ({
  lineSelection: null,
  editsPending: false,
  editing: false,
  showDiskChanges: false,
  showOtherBase: false,
  rejectOpen: false,
  submitError: null,
  conflictEditRequest: 0,
  commentDraft: null,

  setLineSelection: (lineSelection) => set({ lineSelection }),
  setEditsPending: (editsPending) => set({ editsPending }),
  setEditing: (editing) => set({ editing }),
  setShowDiskChanges: (showDiskChanges) => set({ showDiskChanges }),
  setShowOtherBase: (showOtherBase) => set({ showOtherBase }),
  setRejectOpen: (rejectOpen) => set({ rejectOpen }),
  setSubmitError: (submitError) => set({ submitError }),
  setCommentDraft: (commentDraft) => set({ commentDraft }),
  requestConflictEdit: () => set((s) => ({ editing: true, conflictEditRequest: s.conflictEditRequest + 1 })),
  resetForReview: () =>
    set({
      lineSelection: null,
      editing: false,
      showDiskChanges: false,
      showOtherBase: false,
      rejectOpen: false,
      commentDraft: null,
    }),
}));

/**
 * Sends of debounced proposal edits that have not gone out yet. Submit and undo flush them first,
 * so an edit typed just before clicking Submit is part of what is submitted.
 */
const flushers = new Set<() => Promise<void>>();

export function registerEditFlusher(flush: () => Promise<void>): () => void {
  flushers.add(flush);
  return () => flushers.delete(flush);
}

export async function flushPendingEdits(): Promise<void> {
  await Promise.all([...flushers].map((flush) => flush()));
}

/** What opens a comment on the line of the diff's cursor (the comment key); the diff on screen sets it. */
let commentOpener: (() => void) | null = null;

export function registerCommentOpener(open: () => void): () => void {
  commentOpener = open;
  return () => {
    if (commentOpener === open) commentOpener = null;
  };
}

export function openCommentAtCursor(): void {
  commentOpener?.();
}

/** What gives the note to the agent focus (the note key); the note box on screen sets it. */
let noteFocuser: (() => void) | null = null;

export function registerNoteFocuser(focus: () => void): () => void {
  noteFocuser = focus;
  return () => {
    if (noteFocuser === focus) noteFocuser = null;
  };
}

export function focusAgentNote(): void {
  noteFocuser?.();
}
