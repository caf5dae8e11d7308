/**
 * A hook's one question to the person, for any agent: connect to the running DiffTray as that agent's
 * hooks (one_shot, so a killed hook cancels what it asked), put up the edits or the command, and wait for
 * the answer. DiffTray never writes here (`writer: 'client'`): the agent writes what the hook answers.
 */
import path from 'node:path';
import {
  ErrorCode,
  type ApprovalResult,
  type ChangeSetResult,
  type ProposeResponse,
  type RequestPayload,
} from '../../../shared/native-protocol';
import { askApproval } from '../approve';
import { ProtocolError, type NativeClient } from '../client';
import { connectOneShot } from '../one-shot';
import type { TurnTouchResponse } from '../../../shared/native-turns';
import type { HookAgentIdentity } from './hook-agents';
import type { HookIo } from './hook-input';

export interface HookCaller {
  agent: HookAgentIdentity;
  /** The agent's own session id, shown with the client. */
  sessionId?: string | undefined;
  /** The agent's working folder. */
  cwd: string;
  /** The mode the person chose in the agent (Claude Code's `permission_mode`), when it says. */
  permissionMode?: string | undefined;
}

/** One file as reviewed: its text now (null: none) and what the agent would leave (null: deleted). */
export interface ReviewedFile {
  path: string;
  before: string | null;
  after: string | null;
}

export async function connectHook(caller: HookCaller, io: Pick<HookIo, 'env'>): Promise<NativeClient> {
  const { agent, sessionId, cwd } = caller;
  return connectOneShot(
    { env: io.env, cwd },
    {
      client_name: agent.clientName,
      integration: agent.integration,
      // No client_version: the hook cannot know the agent's, and DiffTray's own would mislead.
      ...(sessionId !== undefined && sessionId !== '' && { agent_session_id: sessionId }),
      ...(path.isAbsolute(cwd) && { workspace: cwd }),
      // The hook's parent is the agent (or the shell it runs hooks in).
      pid: process.ppid,
    },
  );
}

/** The edit is written as the agent's own flow says, and reviewed with the turn (turn_touch said so). */
export const WITH_THE_TURN = 'with-the-turn';

/**
 * Puts `files` up as one review and waits for the person's decision. First, in an agent session, DiffTray
 * is told the files are about to be written (turn_touch: it reads each as it is before the turn writes
 * it); when it answers that such edits wait for the turn review, nothing is put up and WITH_THE_TURN is
 * answered: the hook then prints nothing and the agent writes as its mode says.
 */
export async function reviewFiles(
  caller: HookCaller,
  io: Pick<HookIo, 'env'>,
  title: string,
  files: readonly ReviewedFile[],
): Promise<ChangeSetResult | typeof WITH_THE_TURN> {
  const client = await connectHook(caller, io);
  try {
    const paths = files.map((file) => file.path);
    if (!(await touch(client, caller, paths))) return WITH_THE_TURN;
    const proposed = await client.request<ProposeResponse>('propose_change_set', {
      title,
      files: files.map((file) => ({ path: file.path, before: file.before, after: file.after })),
      writer: 'client',
    });
    return await client.waitForPush<ChangeSetResult>(
      'change_set_result',
      (pushed) => pushed.review_id === proposed.review_id,
    );
  } finally {
    client.close();
  }
}

/**
 * Only tells DiffTray, in an agent session, that `paths` are about to be written (turn_touch: it reads
 * each as it is before the turn writes it), for an event that reviews nothing (Qwen's PreToolUse).
 */
export async function touchFiles(
  caller: HookCaller,
  io: Pick<HookIo, 'env'>,
  paths: readonly string[],
): Promise<void> {
  if (caller.sessionId === undefined || caller.sessionId === '') return;
  const client = await connectHook(caller, io);
  try {
    await touch(client, caller, paths);
  } finally {
    client.close();
  }
}

/**
 * turn_touch: whether DiffTray reviews the edit now. Without an agent session there is no turn; a
 * DiffTray on another host (paired) follows no turn here: both review each edit.
 */
async function touch(client: NativeClient, caller: HookCaller, paths: readonly string[]): Promise<boolean> {
  if (caller.sessionId === undefined || caller.sessionId === '') return true;
  try {
    const touched = await client.request<TurnTouchResponse>('turn_touch', {
      paths,
      ...(caller.permissionMode !== undefined && { permission_mode: caller.permissionMode }),
    });
    return touched.each_edit;
  } catch (error) {
    if (error instanceof ProtocolError && error.code === ErrorCode.LOCAL_ONLY) return true;
    throw error;
  }
}

/** An approval card (a command, or another tool call) and the person's answer. */
export async function reviewApproval(
  caller: HookCaller,
  io: Pick<HookIo, 'env'>,
  request: RequestPayload<'request_approval'>,
): Promise<ApprovalResult> {
  const client = await connectHook(caller, io);
  try {
    return await askApproval(client, request);
  } finally {
    client.close();
  }
}
