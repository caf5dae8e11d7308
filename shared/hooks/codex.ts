/**
 * Codex CLI 0.171.0's PreToolUse hook (docs/protocols/codex.md): its stdin read into a call to review,
 * and the person's decisions on each file of a patch turned into Codex's answer. Pure; the runner is
 * src-main/cli/hooks/codex-hook.ts.
 * - An edit is `apply_patch` (its `tool_input.command` is the patch) or a shell call whose whole script is
 *   `apply_patch <<'EOF' … EOF` (shared/codex/shell-heredoc.ts); any other shell call is a command.
 * - The answer keeps exactly the accepted parts as a rewritten patch (`updatedInput.command`, which Codex
 *   applies only with `permissionDecision: "allow"`), or denies with the note when nothing is kept. The
 *   model's history still shows its own patch, so `additionalContext` says what was kept and left. All
 *   of it accepted, the answer is an `allow` whose `updatedInput` is the call's own input (Codex refuses
 *   an `allow` without one), so Codex does not ask the person a second time.
 */
import { z } from 'zod';
import type { FileChange } from '../codex/patch-apply';
import type { ApprovalResult } from '../native-protocol';
import { rewritePatch, type AcceptedFile } from '../codex/patch-rewrite';
import { patchFromShellScript, shellScriptForPatch } from '../codex/shell-heredoc';
import { commandCall, type HookCall } from './codec';
import { givenNote, noteLine, type FileOutcome } from './review-outcome';

export const CODEX_PATCH_TOOL = 'apply_patch';
/** The shell tool's name in Codex's hook input, whatever the model called it. */
export const CODEX_SHELL_TOOL = 'Bash';

const hookStdin = z.looseObject({
  hook_event_name: z.string().optional(),
  session_id: z.string().optional(),
  cwd: z.string().optional(),
  tool_name: z.string(),
  // Any shape: only apply_patch's and the shell's inputs must hold a command; another tool is not ours.
  tool_input: z.unknown().optional(),
});
const commandInput = z.looseObject({ command: z.string() });

export type CodexCall =
  | {
      kind: 'patch';
      /** The call's own `tool_input.command`: the patch, or the shell script that sends it. */
      command: string;
      patch: string;
      /** Set when the patch came through the shell: how to send a rewritten one the same way. */
      shell: { prefix: string } | null;
      /** The folder the patch's paths are relative to, relative to cwd (a shell `cd <dir> &&`). */
      workdir: string | null;
      cwd: string | undefined;
      sessionId?: string;
    }
  | Exclude<HookCall, { kind: 'edit' }>;

export function parseCodexHook(stdin: unknown): CodexCall | { kind: 'ignore' } {
  const parsed = hookStdin.safeParse(stdin);
  if (!parsed.success) return { kind: 'cannot-reconstruct', reason: 'not a PreToolUse hook input' };
  const { hook_event_name: event, session_id: sessionId, cwd, tool_name: toolName } = parsed.data;
  if (event !== undefined && event !== 'PreToolUse') return { kind: 'ignore' };
  const command = commandInput.safeParse(parsed.data.tool_input).data?.command;
  const session = sessionId !== undefined && sessionId !== '' ? { sessionId } : {};
  if (toolName === CODEX_PATCH_TOOL) {
    if (command === undefined) return { kind: 'cannot-reconstruct', reason: 'apply_patch without a patch' };
    return { kind: 'patch', command, patch: command, shell: null, workdir: null, cwd, ...session };
  }
  if (toolName !== CODEX_SHELL_TOOL) return { kind: 'not-ours' };
  const viaShell = command === undefined ? null : patchFromShellScript(command);
  if (command !== undefined && viaShell) {
    const { patch, prefix, workdir } = viaShell;
    return { kind: 'patch', command, patch, shell: { prefix }, workdir, cwd, ...session };
  }
  return (
    commandCall(toolName, parsed.data.tool_input, cwd, sessionId) ?? {
      kind: 'cannot-reconstruct',
      reason: 'a shell call without a command',
    }
  );
}

/**
 * What Codex 0.171.0 takes from a PreToolUse hook: a deny with a reason, or an allow only with
 * `updatedInput` (a bare allow is "unsupported permissionDecision:allow", a failed hook), with
 * `additionalContext` for the model.
 */
export interface CodexPreToolUseAnswer {
  hookSpecificOutput:
    | { hookEventName: 'PreToolUse'; permissionDecision: 'deny'; permissionDecisionReason: string }
    | {
        hookEventName: 'PreToolUse';
        permissionDecision: 'allow';
        updatedInput: { command: string };
        additionalContext?: string;
      };
}

const deny = (reason: string): CodexPreToolUseAnswer => ({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: reason,
  },
});

/** Accepted as proposed: allowed with the call's own input (a bare allow is refused), the note beside it. */
const allowAsIs = (command: string, note: string | undefined): CodexPreToolUseAnswer => ({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'allow',
    updatedInput: { command },
    ...(note !== undefined && { additionalContext: noteLine(note) }),
  },
});

/** The person's answer on a shell command's approval card; null when there was none (cancelled). */
export function answerForCommand(
  call: Extract<CodexCall, { kind: 'command' }>,
  result: Pick<ApprovalResult, 'approved' | 'status' | 'note'>,
): CodexPreToolUseAnswer | null {
  if (result.status === 'cancelled') return null;
  const note = givenNote(result.note);
  if (result.approved) return allowAsIs(call.command, note);
  return deny(note ?? 'The reviewer denied this command in DiffTray.');
}

/** One file of the patch and what the person decided about it. */
export interface DecidedFile {
  change: FileChange;
  outcome: FileOutcome;
}

/**
 * Codex's answer for a patch whose files were each decided; null when some file has no decision (the
 * person is then asked by Codex). `note` is the person's note, if any.
 */
export function answerForPatch(
  call: Extract<CodexCall, { kind: 'patch' }>,
  decided: readonly DecidedFile[],
  note: string | undefined,
): CodexPreToolUseAnswer | null {
  if (decided.some(({ outcome }) => outcome.kind === 'none')) return null;
  const kept = decided.filter(({ outcome }) => outcome.kind !== 'deny');
  if (kept.length === 0) {
    const reason = decided.find(({ outcome }) => outcome.kind === 'deny')?.outcome;
    const fallback = 'The reviewer rejected this patch in DiffTray.';
    return deny(note ?? (reason?.kind === 'deny' ? reason.reason : fallback));
  }
  if (decided.every(({ outcome }) => outcome.kind === 'allow')) return allowAsIs(call.command, note);
  const rewritten = rewritePatch(kept.map(acceptedFile));
  if (!rewritten.ok) {
    return deny(
      `The reviewer accepted part of this patch in DiffTray, but ${rewritten.reason}, so nothing was applied.` +
        (note === undefined ? '' : ` ${noteLine(note)}`),
    );
  }
  const command =
    call.shell === null ? rewritten.patch : shellScriptForPatch(rewritten.patch, call.shell.prefix);
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: { command },
      additionalContext: partialPatchContext(decided, note),
    },
  };
}

function acceptedFile({ change, outcome }: DecidedFile): AcceptedFile {
  const text = outcome.kind === 'rewrite' ? outcome.composed : (change.text ?? '');
  switch (change.kind) {
    case 'add':
      return { kind: 'add', path: change.path, text };
    case 'delete':
      return { kind: 'delete', path: change.path };
    case 'update':
    case 'move':
      return { kind: 'update', path: change.path, movePath: change.movePath, base: change.base ?? '', text };
  }
}

const targetOf = (change: FileChange) => change.movePath ?? change.path;

/** What the model must know: its own patch is still in its history, but only this much was applied. */
function partialPatchContext(decided: readonly DecidedFile[], note: string | undefined): string {
  const parts = ['The reviewer accepted only part of your patch in DiffTray; the rest was not applied.'];
  const rejected = decided
    .filter(({ outcome }) => outcome.kind === 'deny')
    .map(({ change }) => targetOf(change));
  if (rejected.length > 0) parts.push(`Rejected whole: ${rejected.join(', ')}.`);
  for (const { outcome } of decided) {
    // Each partly kept file says which of its lines were left (line numbers of the file before).
    if (outcome.kind === 'rewrite')
      parts.push(outcome.context.replace(/ ?Note from the reviewer: [\s\S]*$/, ''));
  }
  // A partly kept file's context already says to read it again.
  if (!decided.some(({ outcome }) => outcome.kind === 'rewrite'))
    parts.push('Read the files again before changing them further.');
  if (note !== undefined) parts.push(noteLine(note));
  return parts.join(' ');
}
