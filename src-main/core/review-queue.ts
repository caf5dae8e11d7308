/**
 * The review queue: every proposal from every client, in arrival order, with per-hunk decisions.
 *
 * Each review's `outcome` promise settles exactly once (submitted, rejected, superseded or cancelled);
 * adapters await it to answer on the wire. Ended reviews stay in the list as history.
 */
import type { ClientInfo, ReviewFileContent, ReviewState, ReviewSummary } from '../../shared/app-api';
import type { Hunk, HunkDecision } from '../../shared/hunks';
import { composeText, computeHunks, remapDecisions } from '../../shared/hunks';

export interface ProposedFile {
  /** Absolute path on disk. */
  path: string;
  baseText: string;
  proposedText: string;
  isNewFile: boolean;
}

export interface ReviewRequest {
  client: ClientInfo;
  title: string;
  description?: string;
  /** A CLI's name for the review; a new review with the same tab name from the same client supersedes it. */
  tabName?: string;
  files: ProposedFile[];
}

export interface FinalFile {
  path: string;
  baseText: string;
  finalText: string;
}

export type ReviewOutcome =
  | { kind: 'accepted'; files: FinalFile[] }
  | { kind: 'rejected'; reason?: string }
  | { kind: 'superseded' }
  | { kind: 'cancelled'; reason: string };

interface FileState extends ProposedFile {
  hunks: Hunk[];
  decisions: HunkDecision[];
  contentRevision: number;
}

interface Review {
  id: string;
  request: ReviewRequest;
  files: FileState[];
  createdAt: number;
  state: ReviewState;
  reason?: string;
  decidedAt?: number;
  settle: (outcome: ReviewOutcome) => void;
}

export class ReviewError extends Error {}

/** How many ended reviews are kept for history. */
const HISTORY_LIMIT = 200;

export class ReviewQueue {
  private readonly reviews: Review[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  constructor(private readonly now: () => number = Date.now) {}

  /** Subscribe to any change; returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  add(request: ReviewRequest): { id: string; outcome: Promise<ReviewOutcome> } {
    if (request.tabName !== undefined) {
      for (const other of this.pendingReviews()) {
        if (other.request.client.id === request.client.id && other.request.tabName === request.tabName) {
          this.end(other, 'superseded', { kind: 'superseded' }, 'superseded by a newer proposal');
        }
      }
    }
    let settle!: (outcome: ReviewOutcome) => void;
    const outcome = new Promise<ReviewOutcome>((resolve) => (settle = resolve));
    const review: Review = {
      id: `r${this.nextId++}`,
      request,
      files: request.files.map((file) => {
        const hunks = computeHunks(file.baseText, file.proposedText);
        return { ...file, hunks, decisions: hunks.map(() => 'pending' as const), contentRevision: 1 };
      }),
      createdAt: this.now(),
      state: 'pending',
      settle,
    };
    this.reviews.push(review);
    this.trimHistory();
    this.emit();
    return { id: review.id, outcome };
  }

  decideHunks(id: string, fileIndex: number, hunkIndexes: readonly number[], decision: HunkDecision): void {
    const file = this.pendingFile(id, fileIndex);
    for (const index of hunkIndexes) {
      if (!Number.isInteger(index) || index < 0 || index >= file.hunks.length) {
        throw new ReviewError(`No hunk ${index} in ${file.path}`);
      }
    }
    for (const index of hunkIndexes) file.decisions[index] = decision;
    this.emit();
  }

  decideAll(id: string, decision: HunkDecision): void {
    const review = this.pending(id);
    for (const file of review.files) file.decisions.fill(decision);
    this.emit();
  }

  /** The person edited the proposed side: hunks are recomputed, decisions carried over where unchanged. */
  editProposal(id: string, fileIndex: number, proposedText: string): void {
    const file = this.pendingFile(id, fileIndex);
    const hunks = computeHunks(file.baseText, proposedText);
    file.decisions = remapDecisions(file.proposedText, file.hunks, file.decisions, proposedText, hunks);
    file.hunks = hunks;
    file.proposedText = proposedText;
    file.contentRevision++;
    this.emit();
  }

  /** Compose every file from its decisions (undecided hunks count as accepted) and end the review. */
  submit(id: string): ReviewOutcome {
    const review = this.pending(id);
    const files = review.files.map((file) => ({
      path: file.path,
      baseText: file.baseText,
      finalText: composeText(
        file.baseText,
        file.proposedText,
        file.hunks,
        file.decisions.map((d) => d !== 'rejected'),
      ),
    }));
    // A submit that keeps nothing of the proposal is a rejection, and is recorded as one.
    const outcome: ReviewOutcome = files.every((f) => f.finalText === f.baseText)
      ? { kind: 'rejected', reason: 'every hunk rejected' }
      : { kind: 'accepted', files };
    this.end(review, outcome.kind, outcome, outcome.kind === 'rejected' ? outcome.reason : undefined);
    return outcome;
  }

  reject(id: string, reason?: string): void {
    const review = this.pending(id);
    const trimmed = reason?.trim() || undefined;
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

  summaries(): ReviewSummary[] {
    return this.reviews.map((review) => toSummary(review));
  }

  summary(id: string): ReviewSummary {
    return toSummary(this.find(id));
  }

  contents(id: string): ReviewFileContent[] {
    return this.find(id).files.map((file) => ({
      path: file.path,
      contentRevision: file.contentRevision,
      baseText: file.baseText,
      proposedText: file.proposedText,
    }));
  }

  pendingCount(): number {
    return this.pendingReviews().length;
  }

  private end(review: Review, state: ReviewState, outcome: ReviewOutcome, reason?: string): void {
    review.state = state;
    review.decidedAt = this.now();
    if (reason !== undefined) review.reason = reason;
    review.settle(outcome);
    this.trimHistory();
    this.emit();
  }

  private pendingReviews(): Review[] {
    return this.reviews.filter((review) => review.state === 'pending');
  }

  private find(id: string): Review {
    const review = this.reviews.find((r) => r.id === id);
    if (!review) throw new ReviewError(`No review ${id}`);
    return review;
  }

  private pending(id: string): Review {
    const review = this.find(id);
    if (review.state !== 'pending') throw new ReviewError(`Review ${id} is already ${review.state}`);
    return review;
  }

  private pendingFile(id: string, fileIndex: number): FileState {
    const file = this.pending(id).files[fileIndex];
    if (!file) throw new ReviewError(`Review ${id} has no file ${fileIndex}`);
    return file;
  }

  private trimHistory(): void {
    let ended = this.reviews.filter((r) => r.state !== 'pending').length;
    for (let i = 0; i < this.reviews.length && ended > HISTORY_LIMIT;) {
      if (this.reviews[i]!.state !== 'pending') {
        this.reviews.splice(i, 1);
        ended--;
      } else i++;
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
    title: request.title,
    ...(request.description !== undefined && { description: request.description }),
    createdAt: review.createdAt,
    state: review.state,
    ...(review.reason !== undefined && { reason: review.reason }),
    ...(review.decidedAt !== undefined && { decidedAt: review.decidedAt }),
    files: review.files.map((file) => ({
      path: file.path,
      isNewFile: file.isNewFile,
      contentRevision: file.contentRevision,
      hunks: file.hunks.map((hunk, i) => ({ ...hunk, decision: file.decisions[i] ?? 'pending' })),
    })),
  };
}
