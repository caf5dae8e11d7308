/**
 * The review queue: every proposal from every client, in arrival order, with its decisions.
 *
 * Each review's `outcome` promise settles exactly once (submitted, rejected, superseded or cancelled);
 * adapters await it to answer on the wire. Ended reviews stay in the list as history, bounded by count
 * and by the bytes of their texts: past the budget, and at once for reviews nobody answered (cancelled,
 * superseded), a review keeps only its summary (history-texts.ts).
 */
import {
  clientPauseKey,
  type ApprovalRequest,
  type ClientInfo,
  type PausedClient,
  type ReviewFileContent,
  type ReviewFileSummary,
  type ReviewState,
  type ReviewSummary,
} from '../../shared/app-api';
import type { HunkDecision } from '../../shared/hunks';
import type { DiskSnapshot } from './disk-snapshot';
import { filesTextBytes, retainedBytes, snapshotText } from './history-texts';
import { boundedNote, boundedTitle } from './review-labels';
import { HISTORY_MAX_REVIEWS, HISTORY_MAX_TEXT_BYTES } from './limits';
import { checkRoomFor, TooManyPendingReviewsError } from './pending-caps';
import type { FileState, FinalFile, ProposedFile } from './review-file';
import * as reviewFile from './review-file';
import { ReviewError } from './review-file';

export { ReviewError };
export type { FinalFile, ProposedFile };

export { TooManyPendingReviewsError };

/** Asked for the texts of a review that keeps only its summary. */
export class ReviewTextsDroppedError extends ReviewError {
  constructor(id: string) {
    super(
      `The texts of review ${id} are no longer kept: History keeps only the summary of older reviews ` +
        'and of reviews nobody answered',
    );
  }
}

/** The person paused reviews for this client: nothing was queued, the client goes ahead unreviewed. */
export class ReviewsPausedError extends ReviewError {
  constructor(name: string) {
    super(`Reviews from ${name} are paused in DiffTray (Connections)`);
  }
}

export interface ReviewRequest {
  client: ClientInfo;
  title: string;
  description?: string;
  /** A CLI's name for the review; a new review with the same tab name from the same client supersedes it. */
  tabName?: string;
  files: ProposedFile[];
  /** An approval card (a command or tool to allow or deny) instead of files: then `files` is empty. */
  approval?: ApprovalRequest;
}

export type ReviewOutcome =
  | { kind: 'accepted'; files: FinalFile[]; note?: string }
  | { kind: 'rejected'; reason?: string }
  | { kind: 'superseded' }
  | { kind: 'cancelled'; reason: string };

/** The files an operation touched, as they were before it: one undo step. */
type UndoStep = Array<{ fileIndex: number; before: FileState }>;

interface Review {
  id: string;
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
  undo: UndoStep[];
  settle: (outcome: ReviewOutcome) => void;
  /** UTF-8 bytes of the texts an ended review keeps (counted once, when it ends). */
  textBytes: number;
  /** UTF-8 bytes of the proposal's texts, counted once when it arrives: what it holds while pending. */
  pendingBytes: number;
  /** Set once the texts are dropped: the files as History shows them, all that is left of them. */
  droppedFiles?: ReviewFileSummary[];
}

/** Undo steps kept per review. */
const UNDO_LIMIT = 500;

export class ReviewQueue {
  private readonly reviews: Review[] = [];
  private readonly listeners = new Set<() => void>();
  /** The latest content seen on disk per path, to re-judge files that an undo restores. */
  private readonly lastSeenOnDisk = new Map<string, DiskSnapshot>();
  /** Clients whose reviews the person paused, by clientPauseKey. */
  private readonly paused = new Map<string, PausedClient>();
  /** The sum of `textBytes` over ended reviews that still keep their texts. */
  private endedTextBytes = 0;
  private nextId = 1;

  constructor(private readonly now: () => number = Date.now) {}

  /** Subscribe to any change; returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Queues a proposal; throws TooManyPendingReviewsError when its client has too many waiting, and
   * ReviewsPausedError when the person paused its reviews.
   */
  add(request: ReviewRequest): { id: string; outcome: Promise<ReviewOutcome> } {
    if (this.isPaused(request.client)) throw new ReviewsPausedError(request.client.name);
    const ofClient = this.pendingReviews().filter((other) => other.request.client.id === request.client.id);
    const superseded = ofClient.filter(
      (other) => request.tabName !== undefined && other.request.tabName === request.tabName,
    );
    // Judged before anything ends: a refused proposal supersedes nothing.
    const pendingBytes = filesTextBytes([], request.files);
    const remaining = this.pendingReviews().filter((other) => !superseded.includes(other));
    checkRoomFor(
      request.client,
      pendingBytes,
      remaining.map((other) => ({ clientId: other.request.client.id, bytes: other.pendingBytes })),
    );
    for (const other of superseded) {
      this.end(other, 'superseded', { kind: 'superseded' }, 'superseded by a newer proposal');
    }
    let settle!: (outcome: ReviewOutcome) => void;
    const outcome = new Promise<ReviewOutcome>((resolve) => (settle = resolve));
    const review: Review = {
      id: `r${this.nextId++}`,
      request,
      title: boundedTitle(request.title),
      ...(request.description !== undefined && { description: boundedNote(request.description) }),
      files: request.files.map(reviewFile.createFileState),
      createdAt: this.now(),
      state: 'pending',
      notes: [],
      undo: [],
      settle,
      textBytes: 0,
      pendingBytes,
    };
    this.reviews.push(review);
    this.trimHistory();
    this.emit();
    return { id: review.id, outcome };
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
    const review = this.pending(id);
    this.change(
      id,
      review.files.map((_, i) => i),
      (files) => files.forEach((f) => reviewFile.decideFile(f, decision)),
    );
  }

  /** The person edited the proposed side: hunks are recomputed, decisions carried over where unchanged. */
  editProposal(id: string, fileIndex: number, proposedText: string): void {
    const file = this.pendingFile(id, fileIndex);
    if (file.proposedText === proposedText) return;
    this.change(id, [fileIndex], ([f]) => reviewFile.editProposal(f!, proposedText));
  }

  /** Merges the proposal onto the text now on disk (see review-file.ts rebase). */
  rebase(id: string, fileIndex: number): void {
    this.change(id, [fileIndex], ([file]) => reviewFile.rebase(file!));
  }

  /** Takes back the last decision or edit. */
  undo(id: string): void {
    const review = this.pending(id);
    const step = review.undo.pop();
    if (!step) throw new ReviewError('Nothing to undo');
    for (const { fileIndex, before } of step) {
      const current = review.files[fileIndex]!;
      // Cached contents are keyed by revision: a restored text must never reuse a number.
      if (before.baseText !== current.baseText || before.proposedText !== current.proposedText) {
        before.contentRevision = current.contentRevision + 1;
      } else {
        before.contentRevision = current.contentRevision;
      }
      // The disk moved on independently of the person's decisions: judge the restored file against it.
      if (before.base === current.base) before.disk = current.disk;
      else {
        const seen = this.lastSeenOnDisk.get(before.path);
        if (seen) reviewFile.noteDisk(before, seen, this.now());
      }
      review.files[fileIndex] = before;
    }
    this.emit();
  }

  isPaused(client: Pick<ClientInfo, 'protocol' | 'name'>): boolean {
    return this.paused.has(clientPauseKey(client));
  }

  /** Pausing leaves what already waits in the queue alone: only new proposals pass through. */
  setPaused(client: Pick<ClientInfo, 'protocol' | 'name'>, paused: boolean): void {
    const key = clientPauseKey(client);
    if (paused === this.paused.has(key)) return;
    if (paused) this.paused.set(key, { key, name: client.name, protocol: client.protocol });
    else this.paused.delete(key);
    this.emit();
  }

  /** Resumes by key, as the UI names a paused client; an unknown key changes nothing. */
  resumeByKey(key: string): void {
    const client = this.paused.get(key);
    if (client) this.setPaused(client, false);
  }

  pausedClients(): PausedClient[] {
    return [...this.paused.values()];
  }

  /** Records what is on disk at `path` for every pending review of that file. */
  noteDisk(path: string, snapshot: DiskSnapshot): void {
    this.lastSeenOnDisk.set(path, snapshot);
    let changed = false;
    for (const review of this.pendingReviews()) {
      for (const file of review.files) {
        if (file.path === path) changed = reviewFile.noteDisk(file, snapshot, this.now()) || changed;
      }
    }
    if (changed) this.emit();
  }

  /** Paths of every file in a pending review: what must be watched on disk. */
  pendingPaths(): Set<string> {
    const paths = new Set(this.pendingReviews().flatMap((review) => review.files.map((file) => file.path)));
    for (const path of this.lastSeenOnDisk.keys()) if (!paths.has(path)) this.lastSeenOnDisk.delete(path);
    return paths;
  }

  /**
   * Compose every file from its decisions (undecided lines count as accepted) and end the review.
   * Refused, leaving the review pending, while a file differs on disk from its base or holds conflicts:
   * a decision made against one text must never be applied to another.
   */
  submit(id: string, note?: string): ReviewOutcome {
    const review = this.pending(id);
    const agentNote = note?.trim() || undefined;
    if (agentNote !== undefined) review.agentNote = boundedNote(agentNote);
    if (review.request.approval) {
      const allowed: ReviewOutcome = { kind: 'accepted', files: [], ...(agentNote && { note: agentNote }) };
      this.end(review, 'accepted', allowed);
      return allowed;
    }
    for (const file of review.files) {
      if (file.disk.state !== 'unchanged') {
        throw new ReviewError(
          `${file.path} changed on disk (${file.disk.state}) since it was proposed: rebase or reject`,
        );
      }
      if (file.conflicts > 0) {
        throw new ReviewError(
          `${file.path} has ${file.conflicts} unresolved conflict${file.conflicts === 1 ? '' : 's'}`,
        );
      }
    }
    const files = review.files.map(reviewFile.composeFinal);
    // A submit that keeps nothing of the proposal is a rejection, and is recorded as one; the note,
    // if any, is then its reason.
    const outcome: ReviewOutcome = files.every((f) => !f.changed)
      ? { kind: 'rejected', reason: agentNote ?? 'every hunk rejected' }
      : { kind: 'accepted', files, ...(agentNote && { note: agentNote }) };
    this.end(review, outcome.kind, outcome, outcome.kind === 'rejected' ? outcome.reason : undefined);
    return outcome;
  }

  reject(id: string, reason?: string): void {
    const review = this.pending(id);
    const trimmed = reason?.trim() || undefined;
    if (trimmed !== undefined) review.agentNote = boundedNote(trimmed);
    this.end(
      review,
      'rejected',
      trimmed ? { kind: 'rejected', reason: trimmed } : { kind: 'rejected' },
      trimmed,
    );
  }

  /** The client closed its tab(s) or went away: its pending reviews end, but stay visible. */
  cancelWhere(predicate: (request: ReviewRequest) => boolean, reason: string): number {
    let count = 0;
    for (const review of this.pendingReviews()) {
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
    const review = this.reviews.find((r) => r.id === id);
    if (!review) return;
    review.notes.push(boundedNote(note));
    this.emit();
  }

  summaries(): ReviewSummary[] {
    return this.reviews.map(toSummary);
  }

  /** The review's summary, or undefined when there is no such review (never was, or gone from history). */
  find(id: string): ReviewSummary | undefined {
    const review = this.reviews.find((r) => r.id === id);
    return review && toSummary(review);
  }

  summary(id: string): ReviewSummary {
    return toSummary(this.existing(id));
  }

  /** Throws ReviewTextsDroppedError for a review that keeps only its summary. */
  contents(id: string): ReviewFileContent[] {
    const review = this.existing(id);
    if (review.droppedFiles) throw new ReviewTextsDroppedError(id);
    return review.files.map(reviewFile.fileContent);
  }

  paths(id: string): string[] {
    const review = this.existing(id);
    return (review.droppedFiles ?? review.files).map((file) => file.path);
  }

  /**
   * UTF-8 bytes of every text the queue keeps: pending and ended reviews' files, and the disk contents
   * it remembers. What bounds its memory, by HISTORY_MAX_TEXT_BYTES beyond the pending reviews.
   */
  retainedTextBytes(): number {
    let total = 0;
    for (const review of this.reviews) {
      if (review.droppedFiles) continue;
      total +=
        review.state === 'pending' ? filesTextBytes(review.files, review.request.files) : review.textBytes;
    }
    for (const snapshot of this.lastSeenOnDisk.values()) total += retainedBytes([snapshotText(snapshot)]);
    return total;
  }

  pendingCount(): number {
    return this.pendingReviews().length;
  }

  /**
   * Applies `operation` to copies of the named files and commits them only if it succeeds, so a
   * refused operation changes nothing; the originals become the undo step.
   */
  private change(id: string, fileIndexes: readonly number[], operation: (files: FileState[]) => void): void {
    const review = this.pending(id);
    const originals = fileIndexes.map((fileIndex) => {
      const file = review.files[fileIndex];
      if (!file) throw new ReviewError(`Review ${id} has no file ${fileIndex}`);
      return file;
    });
    const copies = originals.map(reviewFile.cloneFileState);
    operation(copies);
    fileIndexes.forEach((fileIndex, i) => (review.files[fileIndex] = copies[i]!));
    review.undo.push(fileIndexes.map((fileIndex, i) => ({ fileIndex, before: originals[i]! })));
    if (review.undo.length > UNDO_LIMIT) review.undo.shift();
    this.emit();
  }

  private end(review: Review, state: ReviewState, outcome: ReviewOutcome, reason?: string): void {
    review.state = state;
    review.decidedAt = this.now();
    review.undo = [];
    if (reason !== undefined) review.reason = reason;
    review.settle(outcome);
    // Nobody answered: no text went to the agent, and nobody needs it back.
    if (state === 'cancelled' || state === 'superseded') this.dropTexts(review);
    else {
      review.textBytes = filesTextBytes(review.files, review.request.files);
      this.endedTextBytes += review.textBytes;
    }
    this.forgetDiskOfEndedPaths();
    this.trimHistory();
    this.emit();
  }

  /** Keeps the summary of an ended review and lets go of every text it holds. */
  private dropTexts(review: Review): void {
    if (review.droppedFiles) return;
    review.droppedFiles = review.files.map(reviewFile.fileSummary);
    review.files = [];
    // The request goes too (it holds the files and the full description); its labels are kept.
    const { client, tabName, approval } = review.request;
    review.request = {
      client,
      title: review.title,
      ...(tabName !== undefined && { tabName }),
      ...(approval && { approval }),
      files: [],
    };
    this.endedTextBytes -= review.textBytes;
    review.textBytes = 0;
  }

  private forgetDiskOfEndedPaths(): void {
    const pending = new Set(this.pendingReviews().flatMap((r) => r.files.map((file) => file.path)));
    for (const path of this.lastSeenOnDisk.keys()) if (!pending.has(path)) this.lastSeenOnDisk.delete(path);
  }

  private pendingReviews(): Review[] {
    return this.reviews.filter((review) => review.state === 'pending');
  }

  private existing(id: string): Review {
    const review = this.reviews.find((r) => r.id === id);
    if (!review) throw new ReviewError(`No review ${id}`);
    return review;
  }

  private pending(id: string): Review {
    const review = this.existing(id);
    if (review.state !== 'pending') throw new ReviewError(`Review ${id} is already ${review.state}`);
    return review;
  }

  private pendingFile(id: string, fileIndex: number): FileState {
    const file = this.pending(id).files[fileIndex];
    if (!file) throw new ReviewError(`Review ${id} has no file ${fileIndex}`);
    return file;
  }

  /** Oldest first: ended reviews beyond the count go, then the texts of those beyond the byte budget. */
  private trimHistory(): void {
    let ended = this.reviews.filter((r) => r.state !== 'pending').length;
    for (let i = 0; i < this.reviews.length && ended > HISTORY_MAX_REVIEWS;) {
      const review = this.reviews[i]!;
      if (review.state !== 'pending') {
        this.dropTexts(review);
        this.reviews.splice(i, 1);
        ended--;
      } else i++;
    }
    for (const review of this.reviews) {
      if (this.endedTextBytes <= HISTORY_MAX_TEXT_BYTES) break;
      if (review.state !== 'pending') this.dropTexts(review);
    }
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

function toSummary(review: Review): ReviewSummary {
  const { request } = review;
  return {
    id: review.id,
    client: request.client,
    title: review.title,
    ...(review.description !== undefined && { description: review.description }),
    createdAt: review.createdAt,
    state: review.state,
    ...(review.reason !== undefined && { reason: review.reason }),
    ...(review.decidedAt !== undefined && { decidedAt: review.decidedAt }),
    files: review.droppedFiles ?? review.files.map(reviewFile.fileSummary),
    ...(request.approval && { approval: request.approval }),
    ...(review.agentNote !== undefined && { agentNote: review.agentNote }),
    canUndo: review.undo.length > 0,
    ...(review.notes.length > 0 && { notes: [...review.notes] }),
    ...(review.droppedFiles && { textsDropped: true }),
  };
}
