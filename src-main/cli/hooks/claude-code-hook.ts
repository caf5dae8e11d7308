/**
 * `difftray hook claude-code`, Claude Code's PreToolUse hook (docs/protocols/claude-code.md, "Claude
 * Code hooks"): the edit (or command) goes up for review in the running DiffTray, and the answer is
 * Claude Code's: allow, allow with the composed text as `updatedInput` and what was rejected as
 * `additionalContext`, or deny with the note as the reason. Claude Code writes the file itself.
 * Returns the answer to print, or undefined to print nothing (Claude Code then asks as usual).
 */
import path from 'node:path';
import { z } from 'zod';
import { isEditToolName, replayEdit, type EditToolName } from '../../../shared/claude-code/edit-replay';
import { answerForApproval, answerForEdit } from '../../../shared/claude-code/hook-answer';
import { isRecord } from '../../../shared/is-record';
import { CliError } from '../errors';
import type { HookAgentIdentity } from './hook-agents';
import { noDecision, type HookIo } from './hook-input';
import { reviewApproval, reviewFiles, WITH_THE_TURN, type HookCaller } from './hook-review';
import { readForHook } from './read-for-hook';

const hookInputSchema = z.looseObject({
  session_id: z.string().max(200).optional(),
  permission_mode: z.string().max(100).optional(),
  cwd: z.string().max(4096).optional(),
  hook_event_name: z.string().max(100).optional(),
  tool_name: z.string().min(1).max(200),
  tool_input: z.unknown(),
});
type HookInput = z.infer<typeof hookInputSchema>;

export async function runClaudeCodeHook(
  agent: HookAgentIdentity,
  stdin: unknown,
  io: HookIo,
): Promise<unknown> {
  const parsed = hookInputSchema.safeParse(stdin);
  if (!parsed.success) throw new CliError(`unexpected hook input: ${parsed.error.issues[0]?.message}`);
  const input = parsed.data;
  if (input.hook_event_name !== undefined && input.hook_event_name !== 'PreToolUse') {
    return noDecision(io, agent, `not a PreToolUse event (${input.hook_event_name})`);
  }
  const caller: HookCaller = {
    agent,
    sessionId: input.session_id,
    cwd: input.cwd ?? io.cwd,
    permissionMode: input.permission_mode,
  };
  if (isEditToolName(input.tool_name)) return reviewEdit(input, input.tool_name, caller, io);
  const toolInput = isRecord(input.tool_input) ? input.tool_input : {};
  const command = input.tool_name === 'Bash' ? toolInput.command : undefined;
  const result = await reviewApproval(caller, io, {
    kind: typeof command === 'string' ? 'command' : 'tool',
    tool_name: input.tool_name,
    cwd: caller.cwd,
    ...(typeof command === 'string'
      ? {
          command,
          ...(typeof toolInput.description === 'string' && { reason: toolInput.description }),
        }
      : { args: input.tool_input }),
  });
  if (result.status === 'cancelled') return noDecision(io, agent, `cancelled: ${result.note ?? ''}`);
  return answerForApproval(input.tool_name, result) ?? undefined;
}

async function reviewEdit(
  input: HookInput,
  toolName: EditToolName,
  caller: HookCaller,
  io: HookIo,
): Promise<unknown> {
  const toolInput = input.tool_input;
  if (!isRecord(toolInput) || typeof toolInput.file_path !== 'string') {
    return noDecision(io, caller.agent, 'no file_path');
  }
  const file = path.resolve(caller.cwd, toolInput.file_path);
  // Read once; the review is against this text. Claude Code itself refuses to write if it changes.
  const onDisk = await readForHook(file);
  const replay = replayEdit(toolName, toolInput, onDisk);
  if (!replay.applies) return noDecision(io, caller.agent, `the edit does not apply: ${replay.reason}`);
  const result = await reviewFiles(caller, io, `${toolName} ${path.relative(caller.cwd, file) || file}`, [
    { path: file, before: onDisk, after: replay.proposed },
  ]);
  if (result === WITH_THE_TURN) return undefined;
  if (result.status === 'cancelled') return noDecision(io, caller.agent, `cancelled: ${result.reason ?? ''}`);
  const answer = answerForEdit({
    toolName,
    toolInput,
    filePath: toolInput.file_path,
    base: replay.base,
    proposed: replay.proposed,
    result,
  });
  return answer ?? noDecision(io, caller.agent, 'the review ended without a decision for this file');
}
