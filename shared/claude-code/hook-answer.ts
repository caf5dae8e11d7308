/**
 * What `difftray hook claude-code` prints for a PreToolUse hook (docs/protocols/claude-code.md, "Claude Code
 * hooks"), from the review's result as the native protocol gives it. Null: print nothing, so Claude's own
 * permission flow goes on as usual (the review was cancelled, or its outcome cannot be carried).
 *
 * The texts go to the model: short, concrete, and with line numbers as a person says them.
 */
import type { ApprovalResult, ChangeSetResult, FileResult, HunkResult } from '../native-protocol';
import { computeHunks } from '../hunks';
import { composeText, uniformLineDecisions } from '../line-decisions';
import type { EditToolName } from './edit-replay';
import type { ToolInput } from './updated-input';
import { updatedInputFor } from './updated-input';

export interface PreToolUseAnswer {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    permissionDecision: 'allow' | 'deny';
    permissionDecisionReason?: string;
    updatedInput?: ToolInput;
    additionalContext?: string;
  };
}

export interface ReviewedEdit {
  toolName: EditToolName;
  toolInput: ToolInput;
  /** The file as named to the model (its tool input's file_path). */
  filePath: string;
  /** The file's raw text the review was made against ("" for a new file). */
  base: string;
  /** What Claude would have written (edit-replay.ts). */
  proposed: string;
  /** The review's result; its one file is this edit's. */
  result: ChangeSetResult;
}

/** At most this many hunks are named one by one; the rest are counted. */
const MAX_NAMED_HUNKS = 20;

const allow = (extra: Omit<PreToolUseAnswer['hookSpecificOutput'], 'hookEventName' | 'permissionDecision'>) =>
  answer('allow', extra);

const deny = (reason: string) => answer('deny', { permissionDecisionReason: reason });

function answer(
  permissionDecision: 'allow' | 'deny',
  extra: Omit<PreToolUseAnswer['hookSpecificOutput'], 'hookEventName' | 'permissionDecision'>,
): PreToolUseAnswer {
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision, ...extra } };
}

/** The person's note: sent with an accept as `note`, with a reject as the change set's `reason`. */
function noteOf(result: ChangeSetResult): string | undefined {
  const note = result.note ?? (result.status === 'rejected' ? result.reason : undefined);
  return note !== undefined && note.trim() !== '' ? note : undefined;
}

/** The answer to an Edit, MultiEdit or Write the person reviewed in DiffTray. */
export function answerForEdit(review: ReviewedEdit): PreToolUseAnswer | null {
  const { result, filePath, base, proposed } = review;
  if (result.status === 'cancelled') return null;
  const file = result.files[0];
  const note = noteOf(result);
  const rejected = () => deny(note ?? `The reviewer rejected this edit to ${filePath} in DiffTray.`);
  if (!file) return result.status === 'rejected' ? rejected() : null;
  if (file.status === 'rejected') return rejected();
  // A conflict or an error is not the person's answer: Claude decides as it would without DiffTray.
  if (file.status !== 'accepted' && file.status !== 'applied') return null;
  const composed = composedText(file, proposed);
  if (composed === undefined) return null;
  if (composed === null || composed === base) return rejected();
  if (composed === proposed) {
    return allow({
      ...asProposed(review),
      ...(note !== undefined && { additionalContext: noteLine(note) }),
    });
  }
  const updatedInput = updatedInputFor(review.toolName, review.toolInput, base, composed);
  if (updatedInput === null) {
    return deny(
      `The reviewer's version of ${filePath} differs from the file only in line endings, or drops its ` +
        `byte-order mark, which this tool cannot write; the file was left as it was.` +
        (note === undefined ? '' : ` ${noteLine(note)}`),
    );
  }
  return allow({
    updatedInput,
    additionalContext: partialContext(
      filePath,
      file.hunks,
      edited(base, proposed, composed, file.hunks),
      note,
    ),
  });
}

/**
 * Nothing, unless Claude Code versions would write the accepted proposal differently: a Write whose
 * content lacks the file's byte-order mark (2.1.332 keeps the mark, 2.1.197 drops it) gets its content
 * spelled out as the replay proposed it, which both write alike.
 */
function asProposed({ toolName, toolInput, proposed }: ReviewedEdit): { updatedInput?: ToolInput } {
  return toolName === 'Write' && toolInput.content !== proposed
    ? { updatedInput: { ...toolInput, content: proposed } }
    : {};
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

const noteLine = (note: string) => `Note from the reviewer: ${note}`;

/** The answer to a command (Bash) or other tool call the person allowed or denied in DiffTray. */
export function answerForApproval(
  toolName: string,
  result: Pick<ApprovalResult, 'approved' | 'note'> & Partial<Pick<ApprovalResult, 'status'>>,
): PreToolUseAnswer | null {
  if (result.status === 'cancelled') return null;
  const note = result.note !== undefined && result.note.trim() !== '' ? result.note : undefined;
  if (result.approved) return note === undefined ? allow({}) : allow({ additionalContext: noteLine(note) });
  const what = toolName === 'Bash' ? 'this command' : `this ${toolName} call`;
  return deny(note ?? `The reviewer denied ${what} in DiffTray.`);
}
