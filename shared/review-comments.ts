/**
 * Comments a person puts on lines of a review, and how they read for an agent. A comment belongs to one
 * line of one side of one file; the agent is told the file, the line as a person counts it (1-based, in
 * the text the agent wrote unless the comment is on the earlier text) and the line itself, quoted, so it
 * can find the place even after other lines moved.
 */
export type CommentSide = 'base' | 'proposed';

/** A comment as the review keeps it. */
export interface ReviewComment {
  fileIndex: number;
  side: CommentSide;
  /** 0-based line of that side's text. */
  line: number;
  text: string;
}

/** A comment as it goes to an agent (native protocol `comments`, hook answers, turn reviews). */
export interface AgentComment {
  path: string;
  side: CommentSide;
  /** 1-based. */
  line: number;
  /** The line's text when the review ended (trimmed, shortened when long). */
  quote: string;
  text: string;
}

/** The person's note to the agent, as the model reads it. */
export const noteLine = (note: string) => `Note from the reviewer: ${note}`;

/** A quoted line longer than this is cut, with an ellipsis. */
const MAX_QUOTE_CHARS = 160;

/** `text`'s line `line` (0-based) as quoted to an agent: trimmed, cut when long; '' when out of range. */
export function quoteLine(text: string, line: number): string {
  let start = 0;
  for (let i = 0; i < line; i++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return '';
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  const whole = (end < 0 ? text.slice(start) : text.slice(start, end)).trim();
  return whole.length > MAX_QUOTE_CHARS ? `${whole.slice(0, MAX_QUOTE_CHARS)}…` : whole;
}

/** One comment as a line of text for the model: `src/a.ts:12 ("const x = 1;"): use a constant`. */
export function commentSentence(comment: AgentComment): string {
  const where = `${comment.path}:${comment.line}${comment.side === 'base' ? ' (before your change)' : ''}`;
  const quoted = comment.quote === '' ? '' : ` (${JSON.stringify(comment.quote)})`;
  return `${where}${quoted}: ${comment.text}`;
}

/** The comments as a block for the model, or '' when there are none. */
export function commentsBlock(comments: readonly AgentComment[]): string {
  if (comments.length === 0) return '';
  return ['Comments from the reviewer:', ...comments.map((c) => `- ${commentSentence(c)}`)].join('\n');
}

/** Everything the person said (comments, then the note) as one text for the model; '' when nothing. */
export function reviewerWords(comments: readonly AgentComment[], note: string | undefined): string {
  return [commentsBlock(comments), note === undefined ? '' : noteLine(note)].filter(Boolean).join('\n');
}

/** Comments one review may hold; one more is refused. */
export const MAX_COMMENTS_PER_REVIEW = 200;
/**
 * Characters of one comment: a few paragraphs. Every list item carries a review's comments, so 200 of
 * them stay under a megabyte.
 */
export const MAX_COMMENT_CHARS = 4_000;

/** How many lines `text` has as an editor shows it (an empty text, or a final line break, adds one). */
export function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** "1 comment", "2 comments". */
export const commentCount = (count: number) => `${count} comment${count === 1 ? '' : 's'}`;
