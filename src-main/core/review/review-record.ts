/**
 * One review as the queue keeps it, and the two views of it the app sends: the small item every list
 * shows (queue, History) and the full summary with every hunk (the review on screen, tests, adapters).
 */
import type {
  ApprovalRequest,
  ClientInfo,
  ReviewFileInfo,
  ReviewFileSummary,
  RemoteOrigin,
  ReviewItem,
  ReviewState,
  ReviewSummary,
} from '../../../shared/app-api';
import type { AgentComment, ReviewComment } from '../../../shared/review-comments';
import type { DiskSnapshot } from '../disk/disk-snapshot';
import type { FileState, ProposedFile } from './review-file';
import * as reviewFile from './review-file';

export interface ReviewRequest {
  client: ClientInfo;
  title: string;
  description?: string;
  /** A CLI's name for the review; a new review with the same tab name from the same client supersedes it. */
  tabName?: string;
  files: ProposedFile[];
  /** An approval card (a command or tool to allow or deny) instead of files: then `files` is empty. */
  approval?: ApprovalRequest;
  /**
   * The files are on a paired client's host, named as it named them: nothing of this machine's disk is
   * read, watched or written for them (no pending path, no disk check, no watch-mode baseline).
   */
  remote?: RemoteOrigin;
  /**
   * Accept it whole as it arrives (true) or never (false): for a protocol that decides this itself (Clio:
   * its applyDiff only). Absent, the settings' `autoApply` decides by the client's name.
   */
  autoApply?: boolean;
}

/** `comments`: the person's comments on lines, for the agent (queue/line-comments.ts). */
export type ReviewOutcome =
  | { kind: 'accepted'; files: reviewFile.FinalFile[]; note?: string; comments?: AgentComment[] }
  | { kind: 'rejected'; reason?: string; comments?: AgentComment[] }
  | { kind: 'superseded' }
  | { kind: 'cancelled'; reason: string };

/** The files an operation touched, as they were before it: one undo step. */
export type UndoStep = Array<{ fileIndex: number; before: FileState }>;

export interface Review {
  id: string;
  /** Arrival order: reviews are listed by it. */
  seq: number;
  /** As the adapter gave it: adapters find their reviews again by this very object. */
  request: ReviewRequest;
  /** The request's title and description held to their limits: they go to every snapshot. */
  title: string;
  description?: string;
  files: FileState[];
  createdAt: number;
  state: ReviewState;
  reason?: string;
  decidedAt?: number;
  notes: string[];
  /** The person's note to the agent, sent with the decision. */
  agentNote?: string;
  /** The person's comments on lines, sent with the decision; kept in History. */
  comments: ReviewComment[];
  undo: UndoStep[];
  settle: (outcome: ReviewOutcome) => void;
  /** UTF-8 bytes of the texts an ended review keeps (counted once, when it ends). */
  textBytes: number;
  /** UTF-8 bytes of the proposal's texts, counted once when it arrives: what it holds while pending. */
  pendingBytes: number;
  /** Set once the texts are dropped: the files as History shows them, all that is left of them. */
  droppedFiles?: ReviewFileSummary[];
  /**
   * By file path: what became on disk of each already-written file's rejected part, once the review
   * ended and was carried out (ReviewFileInfo.revert). Kept apart from the files: their texts may be
   * dropped before the disk is done.
   */
  reverts?: Map<string, FileRevert>;
}

/** What the writer did with a written file's rejected part (the ended review's ReviewFileInfo.revert). */
export type FileRevert = Exclude<ReviewFileInfo['revert'], 'client' | undefined>;

/** A file as a list shows it, with what became of its revert once known. */
function withRevert<T extends ReviewFileInfo>(file: T, reverts: Review['reverts']): T {
  const revert = reverts?.get(file.path);
  return revert === undefined ? file : { ...file, revert };
}

export type { DiskSnapshot };

/**
 * The client as a review shows it. Its status line is left out: it changes often and is shown from the
 * clients list, so a status never has to touch every review of its client.
 */
function clientOfItem(client: ClientInfo): ClientInfo {
  const { status: _status, ...rest } = client;
  return rest;
}

/** Everything but the files, shared by both views. */
function reviewFields(review: Review): Omit<ReviewItem, 'files'> {
  const { request } = review;
  return {
    id: review.id,
    client: clientOfItem(request.client),
    title: review.title,
    ...(review.description !== undefined && { description: review.description }),
    createdAt: review.createdAt,
    state: review.state,
    ...(review.reason !== undefined && { reason: review.reason }),
    ...(review.decidedAt !== undefined && { decidedAt: review.decidedAt }),
    ...(request.approval && { approval: request.approval }),
    ...(review.agentNote !== undefined && { agentNote: review.agentNote }),
    ...(review.comments.length > 0 && { comments: review.comments.map((comment) => ({ ...comment })) }),
    canUndo: review.undo.length > 0,
    ...(review.notes.length > 0 && { notes: [...review.notes] }),
    ...(review.droppedFiles && { textsDropped: true }),
    ...(request.remote && { remote: { ...request.remote } }),
  };
}

export function toSummary(review: Review): ReviewSummary {
  return {
    ...reviewFields(review),
    files: (review.droppedFiles ?? review.files.map(reviewFile.fileSummary)).map((file) =>
      withRevert(file, review.reverts),
    ),
  };
}

export function toItem(review: Review): ReviewItem {
  return {
    ...reviewFields(review),
    files: (review.droppedFiles
      ? review.droppedFiles.map(({ hunks: _hunks, ...info }): ReviewFileInfo => info)
      : review.files.map(reviewFile.fileInfo)
    ).map((file) => withRevert(file, review.reverts)),
  };
}
