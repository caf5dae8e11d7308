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
  type ClientInfo,
  type PausedClient,
  type ReviewFileContent,
  type ReviewItem,
  type ReviewState,
  type ReviewSummary,
} from '../../shared/app-api';
import type { HunkDecision } from '../../shared/hunks';
import { agentControlHold, withAutoAppliedNote } from './auto-apply';
import type { DiskSnapshot } from './disk-snapshot';
import { filesTextBytes, retainedBytes, reviewTextBytes, snapshotText } from './history-texts';
import { boundedNote, boundedTitle } from './review-labels';
import { HISTORY_MAX_REVIEWS, HISTORY_MAX_TEXT_BYTES } from './limits';
import { checkRoomFor, TooManyPendingReviewsError } from './pending-caps';
import { PendingPaths, type PendingPathListener } from './pending-paths';
import type { FileState, FinalFile, ProposedFile } from './review-file';
import * as reviewFile from './review-file';
import { ReviewError } from './review-file';
import { toItem, toSummary, type Review, type ReviewOutcome, type ReviewRequest } from './review-record';

export { ReviewError };
export type { FinalFile, ProposedFile, ReviewOutcome, ReviewRequest };

export { TooManyPendingReviewsError };

/**
 * What changed, for whoever follows the queue: a review added or changed, a review gone from History,
 * or the paused clients.
 */
export type QueueChange =
  { kind: 'review'; id: string } | { kind: 'removed'; id: string } | { kind: 'paused' };

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

/** What an ended review's `settle` becomes: it settles once, and keeps nothing of its outcome. */
const settled = (): void => {};

/** Undo steps kept per review. */
const UNDO_LIMIT = 500;

export class ReviewQueue {
  /** Every review by id, in arrival order (a Map keeps insertion order, and deletes in O(1)). */
  private readonly reviews = new Map<string, Review>();
  /** Pending reviews by id, in arrival order. */
  private readonly pendingById = new Map<string, Review>();
  /** Each client's pending reviews, for superseding and its caps without a scan of the queue. */
  private readonly pendingOfClient = new Map<string, Set<Review>>();
  /** The sum of `pendingBytes` over pending reviews. */
  private pendingTextBytes = 0;
  /** Ended reviews in the order they ended: the first ended leaves History first. */
  private readonly ended = new Map<string, Review>();
  /** Ended reviews that still keep their texts, in the order they ended. */
  private readonly endedWithTexts = new Map<string, Review>();
  private readonly listeners = new Set<(change: QueueChange) => void>();
  private readonly endedListeners = new Set<(request: ReviewRequest, outcome: ReviewOutcome) => void>();
  /** The latest content seen on disk per path, to re-judge files that an undo restores. */
  private readonly lastSeenOnDisk = new Map<string, DiskSnapshot>();
  /** The paths of pending reviews' files, each with its pending reviews. */
  private readonly pathsOfPending = new PendingPaths<Review>();
  /** Clients whose reviews the person paused, by clientPauseKey. */
  private readonly paused = new Map<string, PausedClient>();
  /** The sum of `textBytes` over ended reviews that still keep their texts. */
  private endedTextBytes = 0;
  private nextId = 1;
  /** Whether a client's reviews are accepted whole as they arrive (settings `autoApply`); none by default. */
  private autoApplies: (client: ClientInfo) => boolean = () => false;

  constructor(private readonly now: () => number = Date.now) {}

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
    return this.pathsOfPending.onChange(listener);
  }

  /**
   * Queues a proposal; throws TooManyPendingReviewsError when its client has too many waiting, and
   * ReviewsPausedError when the person paused its reviews.
   */
  add(request: ReviewRequest): { id: string; outcome: Promise<ReviewOutcome> } {
    if (this.isPaused(request.client)) throw new ReviewsPausedError(request.client.name);
    const ofClient = [...(this.pendingOfClient.get(request.client.id) ?? [])];
    const superseded = ofClient.filter(
      (other) => request.tabName !== undefined && other.request.tabName === request.tabName,
    );
    // Judged before anything ends: a refused proposal supersedes nothing.
    const pendingBytes = filesTextBytes([], request.files);
    const leaving = superseded.reduce((total, other) => total + other.pendingBytes, 0);
    const clientBytes = ofClient.reduce((total, other) => total + other.pendingBytes, 0) - leaving;
    checkRoomFor(request.client, pendingBytes, {
      clientCount: ofClient.length - superseded.length,
      clientBytes,
      totalBytes: this.pendingTextBytes - leaving,
    });
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
      undo: [],
      settle,
      textBytes: 0,
      pendingBytes,
    };
    this.reviews.set(review.id, review);
    this.pendingById.set(review.id, review);
    let ofThisClient = this.pendingOfClient.get(request.client.id);
    if (!ofThisClient) this.pendingOfClient.set(request.client.id, (ofThisClient = new Set()));
    ofThisClient.add(review);
    this.pendingTextBytes += pendingBytes;
    // A remote review's paths are another host's: no local path is pending for it.
    if (!request.remote) for (const file of review.files) this.pathsOfPending.hold(file.path, review);
    this.emit({ kind: 'review', id: review.id });
    if (autoApply) this.acceptAtOnce(review.id);
    if (held !== undefined) this.addNote(review.id, held);
    return { id: review.id, outcome };
  }

  /**
   * Watch mode: one pending review per watched folder grows while it waits. A file already in it takes
   * the new proposal in place (its base stays: the baseline has not moved), and its decisions start
   * over, as a decision made on one text is never applied to another; the review's notes say so. Other
   * files are added. Refused whole (TooManyPendingReviewsError, nothing changed) when the grown review
   * would not fit the byte caps. `title` names the grown review. Answers the paths whose decisions were reset.
   */
  growReview(id: string, files: readonly ProposedFile[], title: string): string[] {
    const review = this.pending(id);
    const states = [...review.files];
    const proposed = [...review.request.files];
    const indexOf = new Map(states.map((state, index) => [state.path, index]));
    const replaced = new Set<number>();
    const reset: string[] = [];
    let pendingBytes = review.pendingBytes;
    for (const file of files) {
      const state = reviewFile.createFileState(file);
      pendingBytes += filesTextBytes([], [file]);
      const index = indexOf.get(file.path);
      if (index === undefined) {
        indexOf.set(file.path, states.length);
        states.push(state);
        proposed.push(file);
        continue;
      }
      const before = states[index]!;
      pendingBytes -= filesTextBytes([], [proposed[index]!]);
      // Cached contents are keyed by revision: the new text must never reuse a number.
      state.contentRevision = before.contentRevision + 1;
      if (reviewFile.hasDecisions(before) && !reset.includes(file.path)) reset.push(file.path);
      states[index] = state;
      proposed[index] = file;
      replaced.add(index);
    }
    const ofClient = this.pendingOfClient.get(review.request.client.id) ?? new Set<Review>();
    const others = [...ofClient].filter((other) => other !== review);
    checkRoomFor(review.request.client, pendingBytes, {
      // The review is there already: growing it adds no review to the count.
      clientCount: 0,
      clientBytes: others.reduce((total, other) => total + other.pendingBytes, 0),
      totalBytes: this.pendingTextBytes - review.pendingBytes,
    });
    const added = states.slice(review.files.length);
    review.files = states;
    review.request.files = proposed;
    review.request.title = title;
    review.title = boundedTitle(title);
    this.pendingTextBytes += pendingBytes - review.pendingBytes;
    review.pendingBytes = pendingBytes;
    for (const file of added) this.pathsOfPending.hold(file.path, review);
    // An undo step would bring back a decision on a text that is gone.
    review.undo = review.undo.filter((step) => step.every(({ fileIndex }) => !replaced.has(fileIndex)));
    if (reset.length > 0) {
      review.notes.push(
        boundedNote(
          `Changed again on disk while waiting; what was decided in it was reset: ${reset.join(', ')}`,
        ),
      );
    }
    this.emit({ kind: 'review', id });
    return reset;
  }

  /** Whether a pending review other than `id` holds a file at `path`. */
  heldByOtherThan(id: string | undefined, path: string): boolean {
    for (const review of this.pathsOfPending.holders(path)) if (review.id !== id) return true;
    return false;
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
      else if (!review.request.remote) {
        const seen = this.lastSeenOnDisk.get(before.path);
        if (seen) reviewFile.noteDisk(before, seen, this.now());
      }
      review.files[fileIndex] = before;
    }
    this.emit({ kind: 'review', id });
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
    this.emit({ kind: 'paused' });
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
    if (!this.pathsOfPending.has(path)) return;
    this.lastSeenOnDisk.set(path, snapshot);
    for (const review of this.pathsOfPending.holders(path)) {
      let changed = false;
      for (const file of review.files) {
        if (file.path === path) changed = reviewFile.noteDisk(file, snapshot, this.now()) || changed;
      }
      if (changed) this.emit({ kind: 'review', id: review.id });
    }
  }

  /** Whether a pending review holds a file at `path`. */
  hasPendingPath(path: string): boolean {
    return this.pathsOfPending.has(path);
  }

  /** Told of every review's outcome as it ends (watch mode moves its baselines by them). */
  onEnded(listener: (request: ReviewRequest, outcome: ReviewOutcome) => void): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  /** Paths of every file in a pending review: what must be watched on disk. */
  pendingPaths(): Set<string> {
    return new Set(this.pathsOfPending.paths());
  }

  /**
   * What the queue holds of the disk at `path`: the latest snapshot noted, else what the newest pending
   * review of that path expects there (read when it was proposed).
   */
  knownDisk(path: string): DiskSnapshot | undefined {
    const seen = this.lastSeenOnDisk.get(path);
    if (seen) return seen;
    let newest: Review | undefined;
    for (const review of this.pathsOfPending.holders(path)) newest = review;
    return newest?.files.find((file) => file.path === path)?.expectedOnDisk;
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
    for (const review of [...this.pendingById.values()]) {
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

  /** Every review with every hunk, in arrival order. Costly: tests and diagnostics, not the UI. */
  summaries(): ReviewSummary[] {
    return [...this.reviews.values()].map(toSummary);
  }

  /** Every review as lists show it (no hunks), in arrival order. */
  items(): ReviewItem[] {
    return [...this.reviews.values()].map(toItem);
  }

  /** One review as lists show it, or undefined when it is gone from History. */
  item(id: string): ReviewItem | undefined {
    const review = this.reviews.get(id);
    return review && toItem(review);
  }

  /** Pending reviews as lists show them, in arrival order. */
  pendingItems(): ReviewItem[] {
    return [...this.pendingById.values()].map(toItem);
  }

  /** The review's summary, or undefined when there is no such review (never was, or gone from history). */
  find(id: string): ReviewSummary | undefined {
    const review = this.reviews.get(id);
    return review && toSummary(review);
  }

  /**
   * The review's files as the queue holds them, for following its hunks by identity (state-feed.ts):
   * unchanged files and decisions stay the same objects. Read only.
   */
  fileStates(id: string): readonly FileState[] | undefined {
    const review = this.reviews.get(id);
    return review && !review.droppedFiles ? review.files : undefined;
  }

  /** Ids of the reviews of a client, pending or in History: what shows the client when it changes. */
  reviewIdsOf(clientId: string): string[] {
    const ids: string[] = [];
    for (const review of this.reviews.values())
      if (review.request.client.id === clientId) ids.push(review.id);
    return ids;
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

  /** The review's paths on this machine's disk: none for a remote review (its files are elsewhere). */
  paths(id: string): string[] {
    const review = this.existing(id);
    if (review.request.remote) return [];
    return (review.droppedFiles ?? review.files).map((file) => file.path);
  }

  /**
   * UTF-8 bytes of every text the queue keeps: pending and ended reviews' files, and the disk contents
   * it remembers. What bounds its memory, by HISTORY_MAX_TEXT_BYTES beyond the pending reviews.
   */
  retainedTextBytes(): number {
    let total = 0;
    for (const review of this.reviews.values()) {
      if (review.droppedFiles) continue;
      total +=
        review.state === 'pending' ? filesTextBytes(review.files, review.request.files) : review.textBytes;
    }
    for (const snapshot of this.lastSeenOnDisk.values()) total += retainedBytes([snapshotText(snapshot)]);
    return total;
  }

  pendingCount(): number {
    return this.pendingById.size;
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
    // Before the request can be trimmed below (dropTexts): listeners read its files.
    for (const listener of this.endedListeners) listener(review.request, outcome);
    this.pendingById.delete(review.id);
    const ofClient = this.pendingOfClient.get(review.request.client.id);
    ofClient?.delete(review);
    if (ofClient?.size === 0) this.pendingOfClient.delete(review.request.client.id);
    this.pendingTextBytes -= review.pendingBytes;
    for (const file of review.request.remote ? [] : review.files) {
      if (this.pathsOfPending.release(file.path, review)) this.lastSeenOnDisk.delete(file.path);
    }
    this.ended.set(review.id, review);
    // Nobody answered: no text went to the agent, and nobody needs it back.
    if (state === 'cancelled' || state === 'superseded') this.dropTexts(review);
    else {
      review.textBytes = reviewTextBytes(review.files, review.request.files, review.pendingBytes);
      this.endedTextBytes += review.textBytes;
      this.endedWithTexts.set(review.id, review);
    }
    this.emit({ kind: 'review', id: review.id });
    this.trimHistory();
  }

  /** Keeps the summary of an ended review and lets go of every text it holds. */
  private dropTexts(review: Review): void {
    if (review.droppedFiles) return;
    review.droppedFiles = review.files.map(reviewFile.fileSummary);
    this.releaseTexts(review);
    // The request goes too (it holds the files and the full description); its labels are kept.
    const { client, tabName, approval } = review.request;
    review.request = {
      client,
      title: review.title,
      ...(tabName !== undefined && { tabName }),
      ...(approval && { approval }),
      files: [],
    };
  }

  /** Lets the review's file texts go and takes them out of History's byte count. */
  private releaseTexts(review: Review): void {
    review.files = [];
    this.endedTextBytes -= review.textBytes;
    this.endedWithTexts.delete(review.id);
    review.textBytes = 0;
  }

  private existing(id: string): Review {
    const review = this.reviews.get(id);
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

  /** First ended first: ended reviews beyond the count go, then the texts of those beyond the byte budget. */
  private trimHistory(): void {
    for (const review of this.ended.values()) {
      if (this.ended.size <= HISTORY_MAX_REVIEWS) break;
      // Gone whole: its texts are let go and uncounted, with no summary made for nobody to read.
      this.releaseTexts(review);
      this.ended.delete(review.id);
      this.reviews.delete(review.id);
      this.emit({ kind: 'removed', id: review.id });
    }
    for (const review of this.endedWithTexts.values()) {
      if (this.endedTextBytes <= HISTORY_MAX_TEXT_BYTES) break;
      this.dropTexts(review);
      this.emit({ kind: 'review', id: review.id });
    }
  }

  private emit(change: QueueChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
