/**
 * Reviews as the app API shows them: the small form every list carries (ReviewItem), the review on
 * screen with its hunks (ReviewSummary), and a review's texts.
 */
import { z } from 'zod';
import { fileTextField, noteField } from '../field-limits';
import type { Hunk } from '../hunks';
import type { ReviewComment } from '../review-comments';
import type { HunkLineDecisions, HunkState } from '../line-decisions';
import type { RemoteOrigin } from './access';
import type { ApprovalRequest } from './approvals';
import { answers, decisionField, fileIndexField, reviewIdField, type CallSpec } from './call-spec';
import type { ClientInfo } from './connections';
import { MAX_COMMENT_CHARS } from '../review-comments';

export type ReviewState = 'pending' | 'accepted' | 'rejected' | 'superseded' | 'cancelled';

export interface HunkView extends Hunk {
  /** 'mixed' when some of its lines are accepted and others rejected. */
  decision: HunkState;
  /** Per-line decisions; present only when `decision` is 'mixed'. */
  lines?: HunkLineDecisions;
}

/**
 * The file on disk compared with the base text the proposal was made against.
 * 'modified' / 'deleted' / 'created' mean someone changed it while the review waited.
 */
export type DiskState = 'unchanged' | 'modified' | 'deleted' | 'created';

/** One file of a review as every list shows it: small, without its hunks. */
export interface ReviewFileInfo {
  path: string;
  /** True when the file does not exist on disk yet. */
  isNewFile: boolean;
  /** The file on disk is binary: shown as such, never diffed; decided as a whole (`fileDecision`). */
  binary: boolean;
  /** Size on disk in bytes of a binary file. */
  binarySize?: number;
  /** Decision on the whole file; for binary files the only decision there is. */
  fileDecision: HunkState;
  /** Bumped whenever the base or proposed text changes (an edit, a rebase), so caches can be refreshed. */
  contentRevision: number;
  /** How many hunks the file has; the hunks themselves travel only for the review on screen. */
  hunkCount: number;
  disk: { state: DiskState; detectedAt?: number };
  /** Conflict blocks (<<<<<<< … >>>>>>>) left in the proposal by a rebase; submit waits until none remain. */
  conflicts: number;
  /** There is a second text to compare the proposal with (ReviewFileContent.otherBaseText), and which. */
  otherBase?: OtherBaseKind;
  /**
   * The change is already on disk, reviewed after the fact (the agent wrote it, `difftray review` of a
   * working tree, watch mode, a turn review): rejected, it is reverted. Absent: not written yet.
   */
  written?: true;
  /**
   * For a `written` file, what became of its rejected part on disk. 'client' from the start when the
   * client writes its own files (native `writer: 'client'`): DiffTray reverts nothing, the client is
   * told what was rejected. Once the review ended: 'reverted' (DiffTray put it back), 'conflict' (not
   * reverted: the file changed on disk since it was reviewed, and is never overwritten), 'failed' (not
   * reverted; the review's notes say why). Absent: nothing of it was to be put back, or not yet ended.
   */
  revert?: 'client' | 'reverted' | 'conflict' | 'failed';
}

/**
 * A turn review's file that the person already reviewed during the turn has a second text to compare
 * with: 'turnStart' when the review's base is what they last saw (the other is the file before the
 * turn), 'yourReview' when its base is the file before the turn (the other is what they last saw).
 */
export type OtherBaseKind = 'turnStart' | 'yourReview';

/** A file of the review on screen: its info and every hunk with its decision. */
export interface ReviewFileSummary extends ReviewFileInfo {
  hunks: HunkView[];
}

/** What every review carries, in the queue, History and on screen alike. */
interface ReviewFields {
  id: string;
  client: ClientInfo;
  /** Short title: the tab name a CLI gave, else the file name. */
  title: string;
  description?: string;
  createdAt: number;
  state: ReviewState;
  /** Why it ended, when it did not end by a person's accept: a reject reason, "client disconnected"... */
  reason?: string;
  decidedAt?: number;
  /** Present for an approval card (a command or tool to allow or deny): such a review has no files. */
  approval?: ApprovalRequest;
  /** The person's note to the agent, sent with the decision (kept in History). */
  agentNote?: string;
  /**
   * The person's comments on lines (one per line of a side of a file), sent to the agent with the
   * decision where its protocol can carry them; kept in History. Absent when there are none.
   */
  comments?: ReviewComment[];
  /** Whether `undo` has a decision or edit to take back. */
  canUndo: boolean;
  /** What happened after the decision that the person should know, e.g. a write that failed. */
  notes?: string[];
  /**
   * An ended review that keeps only this summary: its texts were let go (it was cancelled or
   * superseded, or is older than History's byte budget), so getReviewContent refuses it.
   */
  textsDropped?: true;
  /**
   * The files are on another host (a paired client's): their paths are the client's, DiffTray never
   * reads or writes them here, and the client writes the decided texts.
   */
  remote?: RemoteOrigin;
}

/** A review as the queue and History list it: small, so thousands of them cost little to send. */
export interface ReviewItem extends ReviewFields {
  files: ReviewFileInfo[];
}

/** A review with every hunk: the review on screen (AppApi.focusReview), and core's own full view. */
export interface ReviewSummary extends ReviewFields {
  files: ReviewFileSummary[];
}

export interface ReviewFileContent {
  path: string;
  contentRevision: number;
  baseText: string;
  proposedText: string;
  /** What is on disk now, when it differs from `baseText` (see ReviewFileSummary.disk). */
  diskText?: string;
  /** The second text to compare the proposal with, shown read-only (ReviewFileInfo.otherBase). */
  otherBaseText?: string;
}

/** Lines chosen inside one hunk: 0-based line indices into the base and proposed texts. */
export interface LineSelection {
  base: number[];
  proposed: number[];
}

/**
 * The hunks of the review on screen, per file, at a revision that counts the changes sent for it.
 * Its other fields are its ReviewItem's.
 */
export interface ReviewDetail {
  reviewId: string;
  revision: number;
  files: HunkView[][];
}

const lineIndexes = z.array(z.number().int().min(0)).max(1_000_000);

/** The calls that read a review's texts and decide, edit and end it. */
export const reviewCalls = {
  getReviewContent: {
    params: z.object({ reviewId: reviewIdField }),
    result: answers<ReviewFileContent[]>(),
  },
  decideHunks: {
    params: z.object({
      reviewId: reviewIdField,
      fileIndex: fileIndexField,
      hunkIndexes: z.array(z.number().int().min(0)).max(100_000),
      decision: decisionField,
    }),
    result: answers<void>(),
  },
  /** Decides just the chosen lines of one hunk; the hunk becomes 'mixed' unless all its lines agree. */
  decideLines: {
    params: z.object({
      reviewId: reviewIdField,
      fileIndex: fileIndexField,
      hunkIndex: z.number().int().min(0),
      lines: z.object({ base: lineIndexes, proposed: lineIndexes }),
      decision: decisionField,
    }),
    result: answers<void>(),
  },
  decideFile: {
    params: z.object({ reviewId: reviewIdField, fileIndex: fileIndexField, decision: decisionField }),
    result: answers<void>(),
  },
  decideAll: {
    params: z.object({ reviewId: reviewIdField, decision: decisionField }),
    result: answers<void>(),
  },
  editProposal: {
    params: z.object({ reviewId: reviewIdField, fileIndex: fileIndexField, proposedText: fileTextField() }),
    result: answers<void>(),
  },
  /** Takes back the last decision or edit of this review (accept-all and reject-all included). */
  undo: {
    params: z.object({ reviewId: reviewIdField }),
    result: answers<void>(),
  },
  /** Adopts the text now on disk as the base and merges the proposal onto it (three-way). */
  rebase: {
    params: z.object({ reviewId: reviewIdField, fileIndex: fileIndexField }),
    result: answers<void>(),
  },
  /**
   * Fails, without ending the review, when a file changed on disk or conflicts remain. `note` goes to
   * the agent with the decision where its protocol can carry it. For an approval card: allow.
   */
  submit: {
    params: z.object({ reviewId: reviewIdField, note: noteField().optional() }),
    result: answers<void>(),
  },
  /** For an approval card: deny; `reason` is the note. */
  reject: {
    params: z.object({ reviewId: reviewIdField, reason: noteField().optional() }),
    result: answers<void>(),
  },
  /**
   * Puts the person's comment on line `line` (0-based) of one side of a pending review's file, replacing
   * the comment there; an empty `text` removes it. Refused for a line the file does not have, or once
   * the review holds MAX_COMMENTS_PER_REVIEW comments.
   */
  putComment: {
    params: z.object({
      reviewId: reviewIdField,
      fileIndex: fileIndexField,
      side: z.enum(['base', 'proposed']),
      line: z.number().int().min(0),
      text: z.string().max(MAX_COMMENT_CHARS),
    }),
    result: answers<void>(),
  },
  /**
   * Sends lines `startLine`..`endLine` (0-based, inclusive) of one side of a review's file to the review's
   * agent as context, where its protocol can carry them (protocolTakesSelections).
   */
  sendSelection: {
    params: z.object({
      reviewId: reviewIdField,
      fileIndex: fileIndexField,
      side: z.enum(['base', 'proposed']),
      startLine: z.number().int().min(0),
      endLine: z.number().int().min(0),
    }),
    result: answers<void>(),
  },
} satisfies Record<string, CallSpec>;
