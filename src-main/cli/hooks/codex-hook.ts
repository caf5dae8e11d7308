/**
 * `difftray hook codex`, Codex CLI's PreToolUse hook: a patch (from `apply_patch`, or sent through the
 * shell) becomes one review of every file it touches, replayed exactly as Codex would apply it
 * (shared/codex/); the person decides per file, hunk and line; the answer is the patch of what was kept
 * (shared/hooks/codex.ts). Other shell calls get an approval card. Returns the answer to print, or
 * undefined to print nothing.
 */
import path from 'node:path';
import { applyPatch, type FileChange } from '../../../shared/codex/patch-apply';
import { parsePatch } from '../../../shared/codex/patch-parse';
import type { ChangeSetResult, FileResult } from '../../../shared/native-protocol';
import {
  answerForCommand,
  answerForPatch,
  parseCodexHook,
  type CodexCall,
} from '../../../shared/hooks/codex';
import { noteOf, outcomeOfFile, type FileOutcome } from '../../../shared/hooks/review-outcome';
import type { HookAgentIdentity } from './hook-agents';
import { noDecision, type HookIo } from './hook-input';
import { reviewApproval, reviewFiles, WITH_THE_TURN, type HookCaller } from './hook-review';
import { readForHook } from './read-for-hook';

type PatchCall = Extract<CodexCall, { kind: 'patch' }>;

export async function runCodexHook(agent: HookAgentIdentity, stdin: unknown, io: HookIo): Promise<unknown> {
  const call = parseCodexHook(stdin);
  if (call.kind === 'ignore' || call.kind === 'not-ours') return undefined;
  if (call.kind === 'cannot-reconstruct') return noDecision(io, agent, call.reason);
  const caller: HookCaller = { agent, sessionId: call.sessionId, cwd: call.cwd ?? io.cwd };
  if (call.kind === 'command') {
    const result = await reviewApproval(caller, io, {
      kind: 'command',
      tool_name: call.toolName,
      command: call.command,
      cwd: caller.cwd,
    });
    if (result.status === 'cancelled') return noDecision(io, agent, `cancelled: ${result.note ?? ''}`);
    return answerForCommand(call, result) ?? undefined;
  }
  return reviewPatch(call, caller, io);
}

async function reviewPatch(call: PatchCall, caller: HookCaller, io: HookIo): Promise<unknown> {
  const parsed = parsePatch(call.patch);
  if (!parsed.ok) return noDecision(io, caller.agent, `the patch does not parse: ${parsed.reason}`);
  const baseDir = path.resolve(caller.cwd, call.workdir ?? '.');
  const absolute = (file: string) => path.resolve(baseDir, file);
  // Read every file the patch names first (async), then replay the patch on those texts.
  const texts = new Map<string, string | null>();
  for (const hunk of parsed.hunks) {
    for (const file of [hunk.path, hunk.kind === 'update' ? hunk.movePath : null]) {
      if (file !== null && !texts.has(file)) texts.set(file, await readForHook(absolute(file)));
    }
  }
  const applied = applyPatch(parsed.hunks, (file) => texts.get(file) ?? null);
  if (!applied.ok) return noDecision(io, caller.agent, `the patch does not apply: ${applied.reason}`);
  // A move is shown as what lands at its destination; reviewing one is left to Codex for now.
  if (applied.files.some((change) => change.kind === 'move')) {
    return noDecision(io, caller.agent, 'the patch moves a file');
  }
  const result = await reviewFiles(
    caller,
    io,
    titleOf(applied.files),
    applied.files.map((change) => ({
      path: absolute(change.path),
      before: change.base,
      after: change.text,
    })),
  );
  if (result === WITH_THE_TURN) return undefined;
  const decided = applied.files.map((change) => {
    const file = result.files.find((candidate) => candidate.path === absolute(change.path));
    return { change, outcome: outcomeOf(change, result, file) };
  });
  const answer = answerForPatch(call, decided, noteOf(result));
  return answer ?? noDecision(io, caller.agent, 'the review ended without a decision for every file');
}

/** A delete is kept or not; an add or update may be kept in part. */
function outcomeOf(change: FileChange, result: ChangeSetResult, file: FileResult | undefined): FileOutcome {
  if (change.kind === 'delete') {
    if (result.status === 'cancelled') return { kind: 'none' };
    const status = file?.status ?? (result.status === 'rejected' ? 'rejected' : undefined);
    if (status === 'rejected') return { kind: 'deny', reason: `The reviewer kept ${change.path}.` };
    return status === 'accepted' || status === 'applied' ? { kind: 'allow' } : { kind: 'none' };
  }
  return outcomeOfFile(result, file, change.path, change.base ?? '', change.text ?? '');
}

function titleOf(files: readonly FileChange[]): string {
  const first = files[0]?.path ?? 'patch';
  return files.length === 1 ? `apply_patch ${first}` : `apply_patch ${first} and ${files.length - 1} more`;
}
