/**
 * What an agent is told when the person reviewed its turn (docs/TURN-REVIEW.md): which of its changes were
 * reverted (file and line ranges, in the agent's own numbering), the comments on lines, and the note. The
 * end-of-turn hook answers `{"decision":"block","reason":…}` with it, which every agent reads as "go on
 * with this"; keeping everything without a word leaves the reason out, and the turn ends.
 */
import type { ChangeSetResult, FileResult, HunkResult } from '../native-protocol';
import { reviewerWords } from '../review-comments';
import { noteOf } from './review-outcome';

/** The answer every agent's end-of-turn hook gives to make it go on. */
export interface TurnBlock {
  decision: 'block';
  reason: string;
}

/**
 * The first line of every reason: an agent that hands the reason back as the next prompt (Gemini CLI's
 * BeforeAgent) is going on with the same turn, not starting one (src-main/cli/hooks/turn-hook.ts).
 */
export const TURN_REASON_OPENING = 'The reviewer went over what you wrote this turn, in DiffTray.';

/** At most this many hunks are named per file; the rest are counted. */
const MAX_NAMED_HUNKS = 20;

/** The reason for the agent, or undefined when the turn should end as it is. */
export function turnReason(result: ChangeSetResult): string | undefined {
  if (result.status === 'cancelled') return undefined;
  const reverted = result.files.map(revertedSentence).filter((line): line is string => line !== undefined);
  const untouched = result.files
    .filter((file) => file.status === 'conflict' || file.status === 'error')
    .map((file) => `- ${file.path}: left as it is (${file.reason ?? file.status})`);
  const words = reviewerWords(result.comments ?? [], noteOf(result));
  if (reverted.length === 0 && words === '') return undefined;
  const parts = [TURN_REASON_OPENING];
  if (reverted.length > 0) {
    parts.push(
      'Reverted (line numbers are those of the files as you left them):',
      ...reverted,
      'The files now hold exactly what the reviewer kept: read them again before editing them further.',
    );
  } else {
    parts.push('Everything you wrote was kept.');
  }
  if (untouched.length > 0) parts.push('Changed on disk during the review, so not reverted:', ...untouched);
  if (words !== '') parts.push(words);
  parts.push('Go on with the task, taking this into account.');
  return parts.join('\n');
}

export function turnBlock(result: ChangeSetResult): TurnBlock | undefined {
  const reason = turnReason(result);
  return reason === undefined ? undefined : { decision: 'block', reason };
}

/** One line for a file the person reverted in part or whole; undefined when they kept it all. */
function revertedSentence(file: FileResult): string | undefined {
  if (file.status === 'conflict' || file.status === 'error') return undefined;
  if (file.status === 'rejected' || file.hunks.every((hunk) => hunk.decision === 'rejected')) {
    if (file.hunks.length === 0 && file.status !== 'rejected') return undefined;
    return `- ${file.path}: all of your changes to it${file.deleted ? ' (the file you created is gone)' : ''}`;
  }
  const rejected = file.hunks.filter((hunk) => hunk.decision === 'rejected');
  const partly = file.hunks.filter((hunk) => hunk.decision === 'mixed');
  if (rejected.length === 0 && partly.length === 0) return undefined;
  const said = [
    rejected.length > 0 ? named(rejected) : '',
    partly.length > 0 ? `part of ${named(partly)}` : '',
  ].filter(Boolean);
  return `- ${file.path}: ${said.join('; ')}`;
}

function named(hunks: readonly HunkResult[]): string {
  const shown = hunks.slice(0, MAX_NAMED_HUNKS).map(yourLines);
  const more = hunks.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** A hunk by the agent's own lines, 1-based: "lines 8–9", "line 3", "the lines you deleted after line 7". */
export function yourLines(hunk: Pick<HunkResult, 'proposed_start' | 'proposed_end'>): string {
  const first = hunk.proposed_start + 1;
  const last = hunk.proposed_end;
  if (last < first) {
    return hunk.proposed_start === 0
      ? 'the lines you deleted at the start'
      : `the lines you deleted after line ${hunk.proposed_start}`;
  }
  return first === last ? `line ${first}` : `lines ${first}–${last}`;
}
