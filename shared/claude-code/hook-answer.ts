/**
 * What `difftray hook claude-code` prints for a PreToolUse hook (docs/protocols/claude-code.md, "Claude Code
 * hooks"), from the review's result as the native protocol gives it. Null: print nothing, so Claude's own
 * permission flow goes on as usual (the review was cancelled, or its outcome cannot be carried).
 *
 * The texts go to the model: short, concrete, and with line numbers as a person says them.
 */
import type { ApprovalResult, ChangeSetResult } from '../native-protocol';
import { commentsOnFile, givenNote, noteLine, noteOf, outcomeOfFile } from '../hooks/review-outcome';
import { reviewerWords } from '../review-comments';
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

const allow = (extra: Omit<PreToolUseAnswer['hookSpecificOutput'], 'hookEventName' | 'permissionDecision'>) =>
  answer('allow', extra);

const deny = (reason: string) => answer('deny', { permissionDecisionReason: reason });

function answer(
  permissionDecision: 'allow' | 'deny',
  extra: Omit<PreToolUseAnswer['hookSpecificOutput'], 'hookEventName' | 'permissionDecision'>,
): PreToolUseAnswer {
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision, ...extra } };
}

/** The answer to an Edit, MultiEdit or Write the person reviewed in DiffTray. */
export function answerForEdit(review: ReviewedEdit): PreToolUseAnswer | null {
  const { result, filePath, base, proposed } = review;
  const outcome = outcomeOfFile(result, result.files[0], filePath, base, proposed);
  switch (outcome.kind) {
    case 'none':
      return null;
    case 'deny':
      return deny(outcome.reason);
    case 'allow':
      return allow({
        ...asProposed(review),
        ...(outcome.context !== undefined && { additionalContext: outcome.context }),
      });
    case 'rewrite': {
      const updatedInput = updatedInputFor(review.toolName, review.toolInput, base, outcome.composed);
      if (updatedInput !== null) return allow({ updatedInput, additionalContext: outcome.context });
      const note = noteOf(result);
      const comments = commentsOnFile(result, result.files[0], filePath);
      return deny(
        `The reviewer's version of ${filePath} differs from the file only in line endings, or drops its ` +
          `byte-order mark, which this tool cannot write; the file was left as it was.` +
          (comments.length > 0
            ? `\n${reviewerWords(comments, note)}`
            : note === undefined
              ? ''
              : ` ${noteLine(note)}`),
      );
    }
  }
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

/** The answer to a command (Bash) or other tool call the person allowed or denied in DiffTray. */
export function answerForApproval(
  toolName: string,
  result: Pick<ApprovalResult, 'approved' | 'note'> & Partial<Pick<ApprovalResult, 'status'>>,
): PreToolUseAnswer | null {
  if (result.status === 'cancelled') return null;
  const note = givenNote(result.note);
  if (result.approved) return note === undefined ? allow({}) : allow({ additionalContext: noteLine(note) });
  const what = toolName === 'Bash' ? 'this command' : `this ${toolName} call`;
  return deny(note ?? `The reviewer denied ${what} in DiffTray.`);
}
