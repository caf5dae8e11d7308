/**
 * History's budgets: ended reviews stay listed, bounded by count (HISTORY_MAX_REVIEWS) and by the bytes
 * of the texts they keep (HISTORY_MAX_TEXT_BYTES). Past the byte budget, and at once for reviews nobody
 * answered (cancelled, superseded), a review keeps only its summary; past the count, it is gone. First
 * ended, first to go.
 */
import { reviewTextBytes } from '../history-texts';
import { HISTORY_MAX_REVIEWS, HISTORY_MAX_TEXT_BYTES } from '../../limits';
import { ReviewError } from '../review-file';
import * as reviewFile from '../review-file';
import type { Review } from '../review-record';

/** Asked for the texts of a review that keeps only its summary. */
export class ReviewTextsDroppedError extends ReviewError {
  constructor(id: string) {
    super(
      `The texts of review ${id} are no longer kept: History keeps only the summary of older reviews ` +
        'and of reviews nobody answered',
    );
  }
}

/** What trimming did to a review: its texts let go, or the review gone whole. */
export type Trimmed = { kind: 'texts dropped'; review: Review } | { kind: 'removed'; review: Review };

export class History {
  /** Ended reviews in the order they ended: the first ended leaves History first. */
  private readonly ended = new Map<string, Review>();
  /** Ended reviews that still keep their texts, in the order they ended. */
  private readonly withTexts = new Map<string, Review>();
  /** The sum of `textBytes` over ended reviews that still keep their texts. */
  private textBytes = 0;

  /** `review` just ended: kept with its texts counted, or (nobody answered it) with its summary only. */
  keep(review: Review): void {
    this.ended.set(review.id, review);
    if (review.state === 'cancelled' || review.state === 'superseded') {
      this.dropTexts(review);
      return;
    }
    review.textBytes = reviewTextBytes(review.files, review.request.files, review.pendingBytes);
    this.textBytes += review.textBytes;
    this.withTexts.set(review.id, review);
  }

  /** Ended reviews beyond the count go, then the texts of those beyond the byte budget; says which. */
  trim(): Trimmed[] {
    const trimmed: Trimmed[] = [];
    for (const review of this.ended.values()) {
      if (this.ended.size <= HISTORY_MAX_REVIEWS) break;
      // Gone whole: its texts are let go and uncounted, with no summary made for nobody to read.
      this.releaseTexts(review);
      this.ended.delete(review.id);
      trimmed.push({ kind: 'removed', review });
    }
    for (const review of this.withTexts.values()) {
      if (this.textBytes <= HISTORY_MAX_TEXT_BYTES) break;
      this.dropTexts(review);
      trimmed.push({ kind: 'texts dropped', review });
    }
    return trimmed;
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

  /** Lets the review's file texts go and takes them out of the byte count. */
  private releaseTexts(review: Review): void {
    review.files = [];
    this.textBytes -= review.textBytes;
    this.withTexts.delete(review.id);
    review.textBytes = 0;
  }
}
