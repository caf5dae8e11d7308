/**
 * A hook's one question to the person, for any agent: connect to the running DiffTray as that agent's
 * hooks (one_shot, so a killed hook cancels what it asked), put up the edits or the command, and wait for
 * the answer. DiffTray never writes here (`writer: 'client'`): the agent writes what the hook answers.
 */
import path from 'node:path';
import type {
  ApprovalResult,
  ChangeSetResult,
  ProposeResponse,
  RequestPayload,
} from '../../../shared/native-protocol';
import { askApproval } from '../approve';
import type { NativeClient } from '../client';
import { connectOneShot } from '../one-shot';
import type { HookAgentIdentity } from './hook-agents';
import type { HookIo } from './hook-input';

export interface HookCaller {
  agent: HookAgentIdentity;
  /** The agent's own session id, shown with the client. */
  sessionId?: string | undefined;
  /** The agent's working folder. */
  cwd: string;
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

/** Puts `files` up as one review and waits for the person's decision. */
export async function reviewFiles(
  caller: HookCaller,
  io: Pick<HookIo, 'env'>,
  title: string,
  files: readonly ReviewedFile[],
): Promise<ChangeSetResult> {
  const client = await connectHook(caller, io);
  try {
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
