/**
 * `difftray hook claude-code`, Claude Code's PreToolUse hook (docs/protocols/claude-code.md, "Claude
 * Code hooks"). It reads the hook's JSON on stdin, puts the edit (or command) up for review in the running
 * DiffTray, waits for the person, and prints Claude Code's answer: allow, allow with the composed text as
 * `updatedInput` and what was rejected as `additionalContext`, or deny with the note as the reason.
 *
 * Whenever DiffTray cannot decide — not running, paused for Claude Code, the file outside its workspace,
 * an edit that does not apply — it prints nothing and exits 0: Claude Code then asks in its terminal as
 * usual. Claude Code writes the file itself; DiffTray never does (`writer: 'client'`).
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { isEditToolName, replayEdit, type EditToolName } from '../../shared/claude-code/edit-replay';
import {
  answerForApproval,
  answerForEdit,
  type PreToolUseAnswer,
} from '../../shared/claude-code/hook-answer';
import { isRecord } from '../../shared/is-record';
import { MAX_FRAME_BYTES } from '../../shared/limits';
import type { ChangeSetResult, ProposeResponse } from '../../shared/native-protocol';
import { readDiskSnapshot } from '../core/disk/disk-snapshot';
import { resolveRealPath } from '../core/workspace/workspace-paths';
import { askApproval } from './approve';
import { ProtocolError, type NativeClient } from './client';
import { CliError } from './errors';
import { connectOneShot } from './one-shot';
import { messageOf } from '../../shared/error-message';

export const HOOK_CLIENT_NAME = 'Claude Code';

const hookInputSchema = z.looseObject({
  session_id: z.string().max(200).optional(),
  cwd: z.string().max(4096).optional(),
  hook_event_name: z.string().max(100).optional(),
  tool_name: z.string().min(1).max(200),
  tool_input: z.unknown(),
});
type HookInput = z.infer<typeof hookInputSchema>;

export interface HookIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: Readable;
  out: (text: string) => void;
  /** Why no decision was given: one line on stderr, which Claude Code shows only in its verbose view. */
  err: (line: string) => void;
}

/** Always exits 0: a hook that fails must leave Claude Code's own permission flow as it is. */
export async function claudeCodeHook(io: HookIo): Promise<number> {
  try {
    const input = parseInput(await readBounded(io.stdin, MAX_FRAME_BYTES));
    if (input.hook_event_name !== undefined && input.hook_event_name !== 'PreToolUse') {
      return passThrough(io, `not a PreToolUse event (${input.hook_event_name})`);
    }
    const answer = await decide(input, io);
    if (answer) io.out(JSON.stringify(answer));
    return 0;
  } catch (error) {
    return passThrough(io, reasonOf(error));
  }
}

async function decide(input: HookInput, io: HookIo): Promise<PreToolUseAnswer | undefined> {
  const cwd = input.cwd ?? io.cwd;
  if (isEditToolName(input.tool_name)) return reviewEdit(input, input.tool_name, cwd, io);
  const client = await connect(input, cwd, io);
  try {
    const toolInput = (input.tool_input ?? {}) as Record<string, unknown>;
    const isCommand = input.tool_name === 'Bash' && typeof toolInput.command === 'string';
    const result = await askApproval(client, {
      kind: isCommand ? 'command' : 'tool',
      tool_name: input.tool_name,
      cwd,
      ...(isCommand
        ? {
            command: toolInput.command as string,
            ...(typeof toolInput.description === 'string' && { reason: toolInput.description }),
          }
        : { args: input.tool_input }),
    });
    if (result.status === 'cancelled') return passThroughAnswer(io, `cancelled: ${result.note ?? ''}`);
    return answerForApproval(input.tool_name, result) ?? undefined;
  } finally {
    client.close();
  }
}

async function reviewEdit(
  input: HookInput,
  toolName: EditToolName,
  cwd: string,
  io: HookIo,
): Promise<PreToolUseAnswer | undefined> {
  const toolInput = input.tool_input;
  if (!isRecord(toolInput) || typeof toolInput.file_path !== 'string') {
    return passThroughAnswer(io, 'no file_path');
  }
  const file = path.resolve(cwd, toolInput.file_path);
  // Read once; the review is against this text. Claude Code itself refuses to write if it changes.
  const snapshot = await readDiskSnapshot(resolveRealPath(file));
  if (snapshot.exists && snapshot.kind !== 'text') {
    return passThroughAnswer(io, `${file} is ${snapshot.why}: not reviewed`);
  }
  const onDisk = snapshot.exists ? snapshot.text : null;
  const replay = replayEdit(toolName, toolInput, onDisk);
  if (!replay.applies) return passThroughAnswer(io, `the edit does not apply: ${replay.reason}`);

  const client = await connect(input, cwd, io);
  try {
    const proposed = await client.request<ProposeResponse>('propose_change_set', {
      title: `${input.tool_name} ${path.relative(cwd, file) || file}`,
      files: [{ path: file, before: onDisk, after: replay.proposed }],
      writer: 'client',
    });
    const result = await client.waitForPush<ChangeSetResult>(
      'change_set_result',
      (pushed) => pushed.review_id === proposed.review_id,
    );
    if (result.status === 'cancelled') return passThroughAnswer(io, `cancelled: ${result.reason ?? ''}`);
    const answer = answerForEdit({
      toolName,
      toolInput,
      filePath: toolInput.file_path,
      base: replay.base,
      proposed: replay.proposed,
      result,
    });
    return answer ?? passThroughAnswer(io, 'the review ended without a decision for this file');
  } finally {
    client.close();
  }
}

async function connect(input: HookInput, cwd: string, io: HookIo): Promise<NativeClient> {
  return connectOneShot(
    { env: io.env, cwd },
    {
      client_name: HOOK_CLIENT_NAME,
      integration: 'claude-code-hooks',
      // No client_version: the hook cannot know Claude Code's, and DiffTray's own would mislead.
      ...(input.session_id !== undefined &&
        input.session_id !== '' && { agent_session_id: input.session_id }),
      ...(path.isAbsolute(cwd) && { workspace: cwd }),
      // The hook's parent is Claude Code (or the shell it runs hooks in).
      pid: process.ppid,
    },
  );
}

function parseInput(text: string): HookInput {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError('the hook input on stdin is not JSON');
  }
  const parsed = hookInputSchema.safeParse(json);
  if (!parsed.success) throw new CliError(`unexpected hook input: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

async function readBounded(stream: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += buffer.length;
    if (total > maxBytes) throw new CliError(`the hook input is larger than ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function passThroughAnswer(io: HookIo, why: string): undefined {
  passThrough(io, why);
  return undefined;
}

function passThrough(io: HookIo, why: string): number {
  io.err(`difftray hook: no decision (${why}); Claude Code asks as usual`);
  return 0;
}

function reasonOf(error: unknown): string {
  if (error instanceof ProtocolError) return `${error.code} ${error.message}`;
  return messageOf(error);
}
