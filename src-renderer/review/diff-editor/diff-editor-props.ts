/** What DiffEditor is given; apart, so the hooks it composes (use-diff-session) can name it too. */
import type { HunkView, ReviewFileContent } from '../../../shared/app-api';
import type { HunkDecision } from '../../../shared/hunks';
import type { CommentSide, ReviewComment } from '../../../shared/review-comments';
import type { ViewPrefs } from '../../state/prefs';

export interface DiffEditorProps {
  reviewId: string;
  fileIndex: number;
  /**
   * Undefined while the review's contents load: the editor is created meanwhile, so creating it and
   * filling it with a big file do not block the page in one piece.
   */
  content: ReviewFileContent | undefined;
  /**
   * The file's content revision in the newest snapshot. `content` can be older while the newer one
   * loads; the editor then keeps what it shows rather than going back to the older text.
   */
  revision: number;
  /** Exactly the hunks main sent; positions in this list are what "Hunk N" counts. */
  hunks: HunkView[];
  currentHunk: number | null;
  prefs: ViewPrefs;
  /** An ended review: hunk states are shown, without Accept/Reject buttons, nothing is editable. */
  readOnly?: boolean;
  /** The proposed (modified) side takes typing; edits go to `onEdit`, debounced. */
  editable?: boolean;
  onDecide: (hunkIndex: number, decision: HunkDecision) => void;
  onSelectHunk: (hunkIndex: number) => void;
  /** The person's comments on lines of this file, each shown in a box under its line. */
  comments?: readonly ReviewComment[];
  /** Saves a comment on a line ('' removes it); without it, no comment can be added or changed. */
  onComment?: (side: CommentSide, line: number, text: string) => Promise<boolean>;
  /** Sends the edited proposed text of a file; resolves false when main refused it. */
  onEdit?: (fileIndex: number, proposedText: string) => Promise<boolean>;
}
