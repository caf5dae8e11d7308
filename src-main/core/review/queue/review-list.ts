/**
 * The reviews as the queue keeps them, and everything read of them: the lists and summaries the windows
 * and adapters get, their texts, and what pending reviews hold of the disk. ReviewQueue (review-queue.ts)
 * adds every change to them on top.
 */
import type { ReviewFileContent, ReviewItem, ReviewSummary } from '../../../../shared/app-api';
import type { DiskSnapshot } from '../../disk/disk-snapshot';
import { filesTextBytes } from '../history-texts';
import { ReviewError, type FileState } from '../review-file';
import * as reviewFile from '../review-file';
import { toItem, toSummary, type Review } from '../review-record';
import { ReviewTextsDroppedError } from './history';
import { PendingReviews } from './pending-reviews';

export class ReviewList {
  /** Every review by id, in arrival order (a Map keeps insertion order, and deletes in O(1)). */
  protected readonly reviews = new Map<string, Review>();
  protected readonly pending = new PendingReviews();

  /** Whether a pending review other than `id` holds a file at `path`. */
  heldByOtherThan(id: string | undefined, path: string): boolean {
    return this.pending.heldByOtherThan(id, path);
  }

  /** Whether a pending review holds a file at `path`. */
  hasPendingPath(path: string): boolean {
    return this.pending.hasPath(path);
  }

  /** Paths of every file in a pending review: what must be watched on disk. */
  pendingPaths(): Set<string> {
    return this.pending.allPaths();
  }

  /**
   * What the queue holds of the disk at `path`: the latest snapshot noted, else what the newest pending
   * review of that path expects there (read when it was proposed).
   */
  knownDisk(path: string): DiskSnapshot | undefined {
    return this.pending.knownDisk(path);
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
    return [...this.pending.values()].map(toItem);
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
    return total + this.pending.seenTextBytes();
  }

  pendingCount(): number {
    return this.pending.count;
  }

  protected existing(id: string): Review {
    const review = this.reviews.get(id);
    if (!review) throw new ReviewError(`No review ${id}`);
    return review;
  }

  protected pendingReview(id: string): Review {
    const review = this.existing(id);
    if (review.state !== 'pending') throw new ReviewError(`Review ${id} is already ${review.state}`);
    return review;
  }
}
