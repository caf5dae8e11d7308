/**
 * The review queue: every proposal from every client, in arrival order, with its decisions.
 *
 * Each review's `outcome` promise settles exactly once (submitted, rejected, superseded or cancelled);
 * adapters await it to answer on the wire. Ended reviews stay in the list as history, bounded by count
 * and by the bytes of their texts (queue/history.ts).
 *
 * This class makes every change and tells its listeners; its parts live in queue/: the reviews and
 * what is read of them (review-list.ts, which it extends), the pending reviews' indexes and caps
 * (pending-reviews.ts), History's budgets (history.ts), watch mode's growing review (grow-review.ts),
 * the person's edits and their undo (review-edits.ts), what a submit decides (submit.ts), and paused
 * clients (client-pauses.ts).
 */
import type { ClientInfo, PausedClient, ReviewState } from '../../../shared/app-api';
import type { HunkDecision } from '../../../shared/hunks';
import type { ReviewComment } from '../../../shared/review-comments';
import { agentControlHold, withAutoAppliedNote } from './auto-apply';
import type { DiskSnapshot } from '../disk/disk-snapshot';
import { filesTextBytes } from './history-texts';
import { boundedNote, boundedTitle } from './review-labels';
import { TooManyPendingReviewsError } from './pending-caps';
import type { PendingPathListener } from './pending-paths';
import { ClientPauses, ReviewsPausedError } from './queue/client-pauses';
import { applyGrowth, growthOf } from './queue/grow-review';
import { History, ReviewTextsDroppedError } from './queue/history';
import { ReviewList } from './queue/review-list';
import { editFiles, undoLastEdit } from './queue/review-edits';
import { agentComments, putComment } from './queue/line-comments';
import { submittedOutcome } from './queue/submit';
import type { FileState, FinalFile, ProposedFile } from './review-file';
import * as reviewFile from './review-file';
import { ReviewError } from './review-file';
import type { FileRevert, Review, ReviewOutcome, ReviewRequest } from './review-record';

export { ReviewError, ReviewsPausedError, ReviewTextsDroppedError, TooManyPendingReviewsError };
export type { FileRevert, FinalFile, ProposedFile, ReviewOutcome, ReviewRequest };

/**
 * What changed, for whoever follows the queue: a review added or changed, a review gone from History,
 * or the paused clients.
 */
export type QueueChange =
  { kind: 'review'; id: string } | { kind: 'removed'; id: string } | { kind: 'paused' };

/** What an ended review's `settle` becomes: it settles once, and keeps nothing of its outcome. */
const settled = (): void => {};

export class ReviewQueue extends ReviewList {
  private readonly history = new History();
  private readonly paused = new ClientPauses();
  private readonly listeners = new Set<(change: QueueChange) => void>();
  private readonly endedListeners = new Set<(request: ReviewRequest, outcome: ReviewOutcome) => void>();
  private nextId = 1;
  /** Whether a client's reviews are accepted whole as they arrive (settings `autoApply`); none by default. */
  private autoApplies: (client: ClientInfo) => boolean = () => false;

  constructor(private readonly now: () => number = Date.now) {
    super();
  }

  /** Asked as each review arrives whether it is accepted whole at once (auto-apply.ts). */
  autoApplyWhen(rule: (client: ClientInfo) => boolean): void {
    this.autoApplies = rule;
  }

  /** Subscribe to every change; returns an unsubscribe function. */
  onChange(listener: (change: QueueChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Told when a path gets its first pending review or loses its last one; returns an unsubscribe function. */
  onPendingPath(listener: PendingPathListener): () => void {
    return this.pending.onPath(listener);
  }

  /**
   * Queues a proposal; throws TooManyPendingReviewsError when its client has too many waiting, and
   * ReviewsPausedError when the person paused its reviews.
   */
  add(request: ReviewRequest): { id: string; outcome: Promise<ReviewOutcome> } {
    if (this.isPaused(request.client)) throw new ReviewsPausedError(request.client.name);
    const superseded = this.pending
      .ofClientId(request.client.id)
      .filter((other) => request.tabName !== undefined && other.request.tabName === request.tabName);
    // Judged before anything ends: a refused proposal supersedes nothing.
    const pendingBytes = filesTextBytes([], request.files);
    this.pending.checkRoom(request.client, pendingBytes, superseded, true);
    for (const other of superseded) {
      this.end(other, 'superseded', { kind: 'superseded' }, 'superseded by a newer proposal');
    }
    // An approval card is a question about a command, never a proposal to apply: it is always asked.
    const wanted = !request.approval && (request.autoApply ?? this.autoApplies(request.client));
    // An edit to an agent's settings, hooks or instructions always waits for the person.
    const held = wanted ? agentControlHold(request.files) : undefined;
    const autoApply = wanted && held === undefined;
    const description = autoApply ? withAutoAppliedNote(request.description) : request.description;
    let settle!: (outcome: ReviewOutcome) => void;
    const outcome = new Promise<ReviewOutcome>((resolve) => (settle = resolve));
    const seq = this.nextId++;
    const review: Review = {
      id: `r${seq}`,
      seq,
      request,
      title: boundedTitle(request.title),
      ...(description !== undefined && { description: boundedNote(description) }),
      files: request.files.map(reviewFile.createFileState),
      createdAt: this.now(),
      state: 'pending',
      notes: [],
      comments: [],
      undo: [],
      settle,
      textBytes: 0,
      pendingBytes,
    };
    this.reviews.set(review.id, review);
    this.pending.add(review);
    this.emit({ kind: 'review', id: review.id });
    if (autoApply) this.acceptAtOnce(review.id);
    if (held !== undefined) this.addNote(review.id, held);
    return { id: review.id, outcome };
  }

  /**
   * Watch mode: one pending review per watched folder grows while it waits (queue/grow-review.ts).
   * Refused whole (TooManyPendingReviewsError, nothing changed) when the grown review would not fit the
   * byte caps. `title` names the grown review. Answers the paths whose decisions were reset.
   */
  growReview(id: string, files: readonly ProposedFile[], title: string): string[] {
    const review = this.pendingReview(id);
    const growth = growthOf(review, files);
    // The review is there already: growing it adds no review to the count.
    this.pending.checkRoom(review.request.client, growth.pendingBytes, [review], false);
    const added = applyGrowth(review, growth, title);
    this.pending.grew(review, growth.pendingBytes, added);
    this.emit({ kind: 'review', id });
    return growth.reset;
  }

  /** Auto-apply: accepted whole, as if submitted; what cannot be (conflict markers...) waits for the person. */
  private acceptAtOnce(id: string): void {
    try {
      this.submit(id);
    } catch (error) {
      if (!(error instanceof ReviewError)) throw error;
      this.addNote(id, `Auto-apply left this for review: ${error.message}`);
    }
  }

  decideHunks(id: string, fileIndex: number, hunkIndexes: readonly number[], decision: HunkDecision): void {
    this.change(id, [fileIndex], ([file]) => reviewFile.decideHunks(file!, hunkIndexes, decision));
  }

  decideLines(
    id: string,
    fileIndex: number,
    hunkIndex: number,
    lines: { base: readonly number[]; proposed: readonly number[] },
    decision: HunkDecision,
  ): void {
    this.change(id, [fileIndex], ([file]) => reviewFile.decideLines(file!, hunkIndex, lines, decision));
  }

  decideFile(id: string, fileIndex: number, decision: HunkDecision): void {
    this.change(id, [fileIndex], ([file]) => reviewFile.decideFile(file!, decision));
  }

  decideAll(id: string, decision: HunkDecision): void {
    const review = this.pendingReview(id);
    this.change(
      id,
      review.files.map((_, i) => i),
      (files) => files.forEach((f) => reviewFile.decideFile(f, decision)),
    );
  }

  /** The person edited the proposed side: hunks are recomputed, decisions carried over where unchanged. */
  editProposal(id: string, fileIndex: number, proposedText: string): void {
    const file = this.pendingReview(id).files[fileIndex];
    if (!file) throw new ReviewError(`Review ${id} has no file ${fileIndex}`);
    if (file.proposedText === proposedText) return;
    this.change(id, [fileIndex], ([f]) => reviewFile.editProposal(f!, proposedText));
  }

  /**
   * The person's comment on a line of a pending review's file (queue/line-comments.ts); an empty text
   * removes it. Comments are not decisions: undo leaves them alone.
   */
  putComment(id: string, comment: ReviewComment): void {
    putComment(this.pendingReview(id), comment);
    this.emit({ kind: 'review', id });
  }

  /** Merges the proposal onto the text now on disk (see review-file.ts rebase). */
  rebase(id: string, fileIndex: number): void {
    this.change(id, [fileIndex], ([file]) => reviewFile.rebase(file!));
  }

  /** Takes back the last decision or edit. */
  undo(id: string): void {
    undoLastEdit(this.pendingReview(id), (path) => this.pending.seenOnDisk(path), this.now());
    this.emit({ kind: 'review', id });
  }

  isPaused(client: Pick<ClientInfo, 'protocol' | 'name'>): boolean {
    return this.paused.has(client);
  }

  /** Pausing leaves what already waits in the queue alone: only new proposals pass through. */
  setPaused(client: Pick<ClientInfo, 'protocol' | 'name'>, paused: boolean): void {
    if (this.paused.set(client, paused)) this.emit({ kind: 'paused' });
  }

  /** Resumes by key, as the UI names a paused client; an unknown key changes nothing. */
  resumeByKey(key: string): void {
    const client = this.paused.byKey(key);
    if (client) this.setPaused(client, false);
  }

  pausedClients(): PausedClient[] {
    return this.paused.list();
  }

  /** Records what is on disk at `path` for every pending review of that file. */
  noteDisk(path: string, snapshot: DiskSnapshot): void {
    for (const review of this.pending.noteDisk(path, snapshot, this.now())) {
      this.emit({ kind: 'review', id: review.id });
    }
  }

  /** Told of every review's outcome as it ends (watch mode moves its baselines by them). */
  onEnded(listener: (request: ReviewRequest, outcome: ReviewOutcome) => void): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  /**
   * Compose every file from its decisions and end the review (queue/submit.ts). Refused, leaving the
   * review pending, while a file differs on disk from its base or holds conflicts.
   */
  submit(id: string, note?: string): ReviewOutcome {
    const review = this.pendingReview(id);
    const agentNote = note?.trim() || undefined;
    if (agentNote !== undefined) review.agentNote = boundedNote(agentNote);
    const outcome = submittedOutcome(review, agentNote);
    this.end(review, outcome.kind, outcome, outcome.kind === 'rejected' ? outcome.reason : undefined);
    return outcome;
  }

  reject(id: string, reason?: string): void {
    const review = this.pendingReview(id);
    const trimmed = reason?.trim() || undefined;
    if (trimmed !== undefined) review.agentNote = boundedNote(trimmed);
    const comments = agentComments(review);
    const outcome: ReviewOutcome = {
      kind: 'rejected',
      ...(trimmed && { reason: trimmed }),
      ...(comments && { comments }),
    };
    this.end(review, 'rejected', outcome, trimmed);
  }

  /** The client closed its tab(s) or went away: its pending reviews end, but stay visible. */
  cancelWhere(predicate: (request: ReviewRequest) => boolean, reason: string): number {
    let count = 0;
    for (const review of [...this.pending.values()]) {
      if (predicate(review.request)) {
        this.end(review, 'cancelled', { kind: 'cancelled', reason }, reason);
        count++;
      }
    }
    return count;
  }

  /**
   * Records what happened after a decision (an adapter could not write a file, say), so History tells
   * the truth about it. A review already dropped from history is ignored.
   */
  addNote(id: string, note: string): void {
    const review = this.reviews.get(id);
    if (!review) return;
    review.notes.push(boundedNote(note));
    this.emit({ kind: 'review', id });
  }

  /**
   * Records what became on disk of the rejected part of an ended review's already-written file `path`
   * (reverted, or not and why), so History says it. A review already dropped from History is ignored.
   */
  noteRevert(id: string, path: string, revert: FileRevert): void {
    const review = this.reviews.get(id);
    if (!review) return;
    (review.reverts ??= new Map()).set(path, revert);
    this.emit({ kind: 'review', id });
  }

  /** A person's edit of a pending review's files, kept to be undone (queue/review-edits.ts). */
  private change(id: string, fileIndexes: readonly number[], operation: (files: FileState[]) => void): void {
    editFiles(this.pendingReview(id), fileIndexes, operation);
    this.emit({ kind: 'review', id });
  }

  private end(review: Review, state: ReviewState, outcome: ReviewOutcome, reason?: string): void {
    review.state = state;
    review.decidedAt = this.now();
    review.undo = [];
    if (reason !== undefined) review.reason = reason;
    review.settle(outcome);
    // The resolver holds its promise, and the promise its outcome (the final texts) for as long as the
    // review is in History, counted nowhere: once settled it is let go, so only what is counted stays.
    review.settle = settled;
    // Before the request can be trimmed below: listeners read its files.
    for (const listener of this.endedListeners) listener(review.request, outcome);
    this.pending.remove(review);
    this.history.keep(review);
    this.emit({ kind: 'review', id: review.id });
    for (const trimmed of this.history.trim()) {
      if (trimmed.kind === 'removed') {
        this.reviews.delete(trimmed.review.id);
        this.emit({ kind: 'removed', id: trimmed.review.id });
      } else this.emit({ kind: 'review', id: trimmed.review.id });
    }
  }

  private emit(change: QueueChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
