/**
 * The person's comments on lines of a pending review: one per line of a side of a file, at most
 * MAX_COMMENTS_PER_REVIEW, and how they go to the agent when the review ends (path, 1-based line and
 * the line quoted from the text as it is then).
 */
import {
  MAX_COMMENTS_PER_REVIEW,
  lineCount,
  quoteLine,
  type AgentComment,
  type ReviewComment,
} from '../../../../shared/review-comments';
import { boundedNote } from '../review-labels';
import { ReviewError, isBinary, type FileState } from '../review-file';
import type { Review } from '../review-record';

const sideText = (file: FileState, side: ReviewComment['side']) =>
  side === 'base' ? file.baseText : file.proposedText;

/**
 * Puts `comment` on its line, replacing the one there; an empty (or blank) text removes it. Throws
 * ReviewError for a file or line the review does not have, a binary file, or one comment too many.
 */
export function putComment(review: Review, comment: ReviewComment): void {
  const file = review.files[comment.fileIndex];
  if (!file) throw new ReviewError(`Review ${review.id} has no file ${comment.fileIndex}`);
  if (isBinary(file)) throw new ReviewError(`${file.path} is binary: its lines cannot be commented`);
  const lines = lineCount(sideText(file, comment.side));
  if (comment.line >= lines) {
    throw new ReviewError(
      `${file.path} has ${lines} line${lines === 1 ? '' : 's'} on the ${comment.side} side: no line ${comment.line + 1}`,
    );
  }
  const at = review.comments.findIndex(
    (c) => c.fileIndex === comment.fileIndex && c.side === comment.side && c.line === comment.line,
  );
  const text = comment.text.trim();
  if (text === '') {
    if (at >= 0) review.comments.splice(at, 1);
    return;
  }
  const kept: ReviewComment = { ...comment, text: boundedNote(text) };
  if (at >= 0) {
    review.comments[at] = kept;
    return;
  }
  if (review.comments.length >= MAX_COMMENTS_PER_REVIEW) {
    throw new ReviewError(`A review holds at most ${MAX_COMMENTS_PER_REVIEW} comments`);
  }
  review.comments.push(kept);
}

/**
 * The comments as the agent gets them, in file and line order, quoted from the texts as they are now;
 * undefined when there are none. A line the text no longer has (its proposal was edited shorter) is
 * named with an empty quote.
 */
export function agentComments(review: Review): AgentComment[] | undefined {
  if (review.comments.length === 0) return undefined;
  return [...review.comments]
    .sort((a, b) => a.fileIndex - b.fileIndex || a.side.localeCompare(b.side) || a.line - b.line)
    .flatMap((comment) => {
      const file = review.files[comment.fileIndex];
      if (!file) return [];
      return [
        {
          path: file.path,
          side: comment.side,
          line: comment.line + 1,
          quote: quoteLine(sideText(file, comment.side), comment.line),
          text: comment.text,
        },
      ];
    });
}
