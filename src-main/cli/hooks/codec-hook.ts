/**
 * `difftray hook gemini|copilot|qwen`: one runner for every agent whose edit tools change one file per
 * call, driven by that agent's codec (shared/hooks/): the codec reads the stdin and replays the edit as
 * the agent would apply it; the person decides in DiffTray; the codec writes the agent's answer.
 * Returns the answer to print, or undefined to print nothing (the agent then asks as usual).
 */
import path from 'node:path';
import type { Decision, HookCall, HookCodec } from '../../../shared/hooks/codec';
import { decodeEdit } from '../../../shared/hooks/codec';
import { givenNote, noteLine, outcomeOfFile } from '../../../shared/hooks/review-outcome';
import type { HookAgentIdentity } from './hook-agents';
import { noDecision, type HookIo } from './hook-input';
import { reviewApproval, reviewFiles, touchFiles, WITH_THE_TURN, type HookCaller } from './hook-review';
import { keepNote, takeNote, type NoteKey } from './note-stash';
import { readForHook } from './read-for-hook';

type Call<K extends HookCall['kind']> = Extract<HookCall, { kind: K }>;

export async function runCodecHook(
  codec: HookCodec<unknown, unknown>,
  agent: HookAgentIdentity,
  event: string | undefined,
  stdin: unknown,
  io: HookIo,
): Promise<unknown> {
  const step = codec.stepOf(stdin, event);
  if (step === 'ignore') return undefined;
  const call = codec.parse(stdin);
  if (call.kind === 'not-ours') return undefined;
  if (step === 'touch') {
    // Nothing to answer: the agent's own flow goes on; the turn knows the file's text before the write.
    if (call.kind !== 'edit') return undefined;
    const cwd = call.cwd ?? io.cwd;
    await touchFiles({ agent, sessionId: call.sessionId, cwd }, io, [path.resolve(cwd, call.filePath)]);
    return undefined;
  }
  if (call.kind === 'cannot-reconstruct') return noDecision(io, agent, call.reason);
  if (step === 'after') {
    const note = takeNote(io.env, noteKey(codec, call));
    return note === undefined ? undefined : codec.encodeNote(note);
  }
  const caller: HookCaller = { agent, sessionId: call.sessionId, cwd: call.cwd ?? io.cwd };
  return call.kind === 'command'
    ? reviewCommand(codec, call, caller, io)
    : reviewEdit(codec, call, caller, io);
}

async function reviewCommand(
  codec: HookCodec<unknown, unknown>,
  call: Call<'command'>,
  caller: HookCaller,
  io: HookIo,
): Promise<unknown> {
  const result = await reviewApproval(caller, io, {
    kind: 'command',
    tool_name: call.toolName,
    command: call.command,
    cwd: caller.cwd,
    ...(call.description !== undefined && { reason: call.description }),
  });
  if (result.status === 'cancelled') return noDecision(io, caller.agent, `cancelled: ${result.note ?? ''}`);
  const note = givenNote(result.note);
  if (result.approved && note !== undefined && codec.noteVia === 'after') {
    keepNote(io.env, noteKey(codec, call), noteLine(note));
  }
  return codec.encodeApproval(call, result.approved, note) ?? undefined;
}

async function reviewEdit(
  codec: HookCodec<unknown, unknown>,
  call: Call<'edit'>,
  caller: HookCaller,
  io: HookIo,
): Promise<unknown> {
  const file = path.resolve(caller.cwd, call.filePath);
  const onDisk = await readForHook(file);
  const decoded = decodeEdit(codec.tools, call, onDisk);
  if (decoded.kind === 'cannot-reconstruct') return noDecision(io, caller.agent, decoded.reason);
  if (decoded.kind !== 'review') return undefined;
  const result = await reviewFiles(
    caller,
    io,
    `${call.toolName} ${path.relative(caller.cwd, file) || file}`,
    [{ path: file, before: onDisk, after: decoded.proposed }],
  );
  if (result === WITH_THE_TURN) return undefined;
  const outcome = outcomeOfFile(result, result.files[0], call.filePath, decoded.base, decoded.proposed);
  if (outcome.kind === 'none') {
    return noDecision(io, caller.agent, 'the review ended without a decision for this file');
  }
  const decision: Decision =
    outcome.kind === 'deny'
      ? { kind: 'deny', reason: outcome.reason }
      : outcome.kind === 'allow'
        ? { kind: 'allow', ...(outcome.context !== undefined && { note: outcome.context }) }
        : { kind: 'rewrite', composed: outcome.composed, note: outcome.context };
  const answer = codec.encode(call, decoded.base, onDisk !== null, decision);
  if (decision.kind !== 'deny' && decision.note !== undefined && codec.noteVia === 'after') {
    keepNote(io.env, noteKey(codec, call), decision.note);
  }
  return answer ?? undefined;
}

/** The after-tool hook finds the note by the same call: agent, session, tool, and file or command. */
function noteKey(codec: HookCodec<unknown, unknown>, call: Call<'edit' | 'command'>): NoteKey {
  return {
    agent: codec.agent,
    sessionId: call.sessionId,
    toolName: call.toolName,
    subject: call.kind === 'edit' ? call.filePath : call.command,
  };
}
