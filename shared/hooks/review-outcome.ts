/**
 * What the person decided about one file of a hook's review, read from the native protocol's result,
 * for every agent's hook answer (Claude Code's in shared/claude-code/hook-answer.ts, the others through
 * their codecs). The texts go to the model: short, concrete, with line numbers as a person says them.
 */
import { computeHunks } from '../hunks';
import { composeText, uniformLineDecisions } from '../line-decisions';
import type { ChangeSetResult, FileResult, HunkResult } from '../native-protocol';
import { commentsBlock, noteLine, reviewerWords, type AgentComment } from '../review-comments';

export type FileOutcome =
  /** No decision the agent can be given (cancelled, a conflict, an error): it asks the person itself. */
  | { kind: 'none' }
  /** Accepted as proposed. `context`: the comments on its lines and the note, for the model. */
  | { kind: 'allow'; context?: string }
  /** Write `composed` instead; `context` says what was kept and left, the comments and the note. */
  | { kind: 'rewrite'; composed: string; context: string }
  /**
   * Nothing of it: `reason` is the note, or a sentence saying the reviewer rejected it, then the
   * comments on its lines.
   */
  | { kind: 'deny'; reason: string };

/** At most this many hunks are named one by one; the rest are counted. */
const MAX_NAMED_HUNKS = 20;

export { noteLine };

/** A note as the person typed it, or undefined when it is missing or blank. */
export const givenNote = (note: string | undefined): string | undefined =>
  note !== undefined && note.trim() !== '' ? note : undefined;

/** The person's note: sent with an accept as `note`, with a reject as the change set's `reason`. */
export function noteOf(result: ChangeSetResult): string | undefined {
  return givenNote(result.note ?? (result.status === 'rejected' ? result.reason : undefined));
}

export const rejectedSentence = (filePath: string) =>
  `The reviewer rejected this edit to ${filePath} in DiffTray.`;

/**
 * The person's comments on the lines of `file` (all of them when the review ended before it had a
 * result), each naming the file as the model knows it: `filePath`.
 */
export function commentsOnFile(
  result: ChangeSetResult,
  file: FileResult | undefined,
  filePath: string,
): AgentComment[] {
  return (result.comments ?? [])
    .filter((comment) => file === undefined || comment.path === file.path)
    .map((comment) => ({ ...comment, path: filePath }));
}

/** `first`, then the comments' block when there are any. */
const withComments = (first: string, comments: readonly AgentComment[]) =>
  [first, commentsBlock(comments)].filter(Boolean).join('\n');

/**
 * The outcome for `file` (one of `result.files`, or undefined when the review ended before it had one).
 * `base` is the file's text the review was made against ("" for a new file), `proposed` the agent's.
 */
export function outcomeOfFile(
  result: ChangeSetResult,
  file: FileResult | undefined,
  filePath: string,
  base: string,
  proposed: string,
): FileOutcome {
  if (result.status === 'cancelled') return { kind: 'none' };
  const note = noteOf(result);
  const comments = commentsOnFile(result, file, filePath);
  const rejected: FileOutcome = {
    kind: 'deny',
    reason: withComments(note ?? rejectedSentence(filePath), comments),
  };
  if (!file) return result.status === 'rejected' ? rejected : { kind: 'none' };
  if (file.status === 'rejected') return rejected;
  // A conflict or an error is not the person's answer: the agent decides as it would without DiffTray.
  if (file.status !== 'accepted' && file.status !== 'applied') return { kind: 'none' };
  const composed = composedText(file, proposed);
  if (composed === undefined) return { kind: 'none' };
  if (composed === null || composed === base) return rejected;
  if (composed === proposed) {
    const words = reviewerWords(comments, note);
    return words === '' ? { kind: 'allow' } : { kind: 'allow', context: words };
  }
  const wasEdited = edited(base, proposed, composed, file.hunks);
  const context = partialContext(filePath, file.hunks, wasEdited, comments.length > 0 ? undefined : note);
  return {
    kind: 'rewrite',
    composed,
    // With comments, they and the note follow on lines of their own.
    context: comments.length > 0 ? `${context}\n${reviewerWords(comments, note)}` : context,
  };
}

/**
 * The text the person settled on. Undefined when the result does not say and it cannot be inferred
 * (no final_text while some hunk was rejected); null when the file should not exist.
 */
function composedText(file: FileResult, proposed: string): string | null | undefined {
  if (file.final_text !== undefined) return file.final_text;
  return file.hunks.every((hunk) => hunk.decision === 'accepted') ? proposed : undefined;
}

/**
 * Whether the person changed the proposal's text, beyond taking or leaving its hunks: the result's hunks
 * are not the proposal's (they were computed again on the edited text), or taking and leaving them as
 * decided does not give the composed text. Unknown (false) when a hunk was decided line by line.
 */
function edited(base: string, proposed: string, composed: string, hunks: readonly HunkResult[]): boolean {
  const own = computeHunks(base, proposed);
  const same =
    own.length === hunks.length &&
    own.every((hunk, i) => {
      const theirs = hunks[i]!;
      return (
        hunk.baseStart === theirs.base_start &&
        hunk.baseEnd === theirs.base_end &&
        hunk.proposedStart === theirs.proposed_start &&
        hunk.proposedEnd === theirs.proposed_end
      );
    });
  if (!same) return true;
  if (hunks.some((hunk) => hunk.decision === 'mixed')) return false;
  const decisions = own.map((hunk, i) =>
    uniformLineDecisions(hunk, hunks[i]!.decision === 'rejected' ? 'rejected' : 'accepted'),
  );
  return composeText(base, proposed, own, decisions) !== composed;
}

function partialContext(
  filePath: string,
  hunks: readonly HunkResult[],
  wasEdited: boolean,
  note: string | undefined,
): string {
  const rejected = hunks.filter((hunk) => hunk.decision === 'rejected');
  const partly = hunks.filter((hunk) => hunk.decision === 'mixed');
  const parts: string[] = [];
  if (rejected.length === 0 && partly.length === 0) {
    parts.push(`The reviewer edited your change to ${filePath} in DiffTray before accepting it.`);
  } else {
    parts.push(`The reviewer accepted only part of your change to ${filePath} in DiffTray.`);
    if (rejected.length > 0) parts.push(`Rejected: ${describeHunks(rejected)}.`);
    if (partly.length > 0) parts.push(`Partly rejected: ${describeHunks(partly)}.`);
    parts.push('(Line numbers are those of the file before your change.)');
    if (wasEdited) parts.push('The reviewer also edited your change.');
  }
  parts.push('The file now holds exactly what the reviewer chose; read it again before editing it further.');
  if (note !== undefined) parts.push(noteLine(note));
  return parts.join(' ');
}

function describeHunks(hunks: readonly HunkResult[]): string {
  const named = hunks.slice(0, MAX_NAMED_HUNKS).map(describeHunk);
  const more = hunks.length - named.length;
  return more > 0 ? `${named.join('; ')}; and ${more} more` : named.join('; ');
}

/** A hunk by its lines in the file before the change, 1-based: "lines 12–14", "line 3", "after line 7". */
export function describeHunk(hunk: Pick<HunkResult, 'base_start' | 'base_end'>): string {
  const first = hunk.base_start + 1;
  const last = hunk.base_end;
  if (last < first)
    return hunk.base_start === 0 ? 'the lines added at the start' : `the lines added after line ${last}`;
  return first === last ? `line ${first}` : `lines ${first}–${last}`;
}
