/**
 * The shared shape of the per-agent hook codecs (docs/protocols/other-agents.md, "Hook codecs"): a codec
 * turns one agent's hook stdin into a review request, and the person's decision into that agent's answer.
 * Pure: the caller reads stdin and the file, sends the review, and prints what the codec returns.
 *
 * Each edit tool is data: its name, how to read its input, how the agent applies it (the replay), and
 * how to write an input that makes the agent write a given text (the rewrite).
 */
import { z } from 'zod';

export type ToolInput = Record<string, unknown>;

/** The first step: which file an edit tool call is about, before the file is read. */
export type HookCall =
  | {
      kind: 'edit';
      toolName: string;
      toolInput: ToolInput;
      /** The path as the agent named it (relative ones are relative to `cwd`). */
      filePath: string;
      cwd: string | undefined;
      sessionId?: string;
    }
  /** A shell command: an approval card (Allow / Deny with a note). */
  | {
      kind: 'command';
      toolName: string;
      command: string;
      /** Why the agent runs it, when it says. */
      description?: string;
      cwd: string | undefined;
      sessionId?: string;
    }
  /** A tool not under review: the hook prints nothing. */
  | { kind: 'not-ours' }
  /** Ours, but its input cannot be read: no decision, the agent asks the person itself. */
  | { kind: 'cannot-reconstruct'; reason: string };

/** What the agent would write, replayed on the file as it is now. */
export type Replay =
  { applies: true; proposed: string; isNewFile: boolean } | { applies: false; reason: string };

/** The review request a decoded edit becomes. */
export type Decoded =
  | {
      kind: 'review';
      call: Extract<HookCall, { kind: 'edit' }>;
      /** The file's raw text ("" for a new file). */
      base: string;
      /** Exactly what the agent would write. */
      proposed: string;
      isNewFile: boolean;
    }
  | Exclude<HookCall, { kind: 'edit' }>;

/** The person's decision on one edit. */
export type Decision =
  /** Write what the agent proposed. */
  | { kind: 'allow'; note?: string }
  /** Write `composed` instead (some hunks rejected, or the text edited). */
  | { kind: 'rewrite'; composed: string; note?: string }
  | { kind: 'deny'; reason: string };

/**
 * One edit tool of one agent, as data. Method syntax on purpose: a table of tools with different inputs
 * holds them all as EditTool, and each method only ever gets what its own `input` schema parsed.
 */
export interface EditTool<Input extends ToolInput = ToolInput> {
  readonly name: string;
  readonly input: z.ZodType<Input>;
  filePathOf(input: Input): string;
  /** What the agent writes for `input` against `fileText` (null: no such file). */
  replay(input: Input, fileText: string | null): Replay;
  /** The whole input that makes the agent write `composed` over `base`; null when it cannot. */
  rewrite(input: Input, base: string, fileExists: boolean, composed: string): Input | null;
}

import type { HookStep } from './hook-tables';

export type { HookStep };

export interface HookCodec<PreAnswer, PostAnswer> {
  readonly agent: string;
  readonly tools: readonly EditTool[];
  /**
   * Where a note reaches the model: in the before-tool answer, or only from the after-tool hook (the
   * hook keeps it until then: src-main/cli/hooks/note-stash.ts).
   */
  readonly noteVia: 'before' | 'after';
  /**
   * The step for this stdin. `event` is the word after `difftray hook <agent>`, for agents whose stdin
   * does not name its event (Copilot).
   */
  stepOf(stdin: unknown, event: string | undefined): HookStep;
  /** Stdin of the agent's before-tool hook (or after-tool, to find its note), parsed JSON. */
  parse(stdin: unknown): HookCall;
  /** The answer to a command the person allowed or denied; null prints nothing. */
  encodeApproval(
    call: Extract<HookCall, { kind: 'command' }>,
    approved: boolean,
    note?: string,
  ): PreAnswer | null;
  /** The answer to the before-tool hook; null prints nothing (the agent goes on as without DiffTray). */
  encode(
    call: Extract<HookCall, { kind: 'edit' }>,
    base: string,
    fileExists: boolean,
    decision: Decision,
  ): PreAnswer | null;
  /** The after-tool hook's answer that hands the model a note (the before-tool answer cannot, or also can). */
  encodeNote(note: string): PostAnswer;
}

/** The tool named `toolName` in `tools`, or undefined: not under review. */
export function findTool(tools: readonly EditTool[], toolName: string): EditTool | undefined {
  return tools.find((tool) => tool.name === toolName);
}

/** A tool call, its input checked against the tool's schema. */
export function editCall(
  tool: EditTool,
  rawInput: unknown,
  cwd: string | undefined,
  sessionId?: string,
): HookCall {
  const parsed = tool.input.safeParse(rawInput);
  if (!parsed.success) return { kind: 'cannot-reconstruct', reason: `${tool.name}: unexpected input` };
  return {
    kind: 'edit',
    toolName: tool.name,
    toolInput: parsed.data,
    filePath: tool.filePathOf(parsed.data),
    cwd,
    ...(sessionId !== undefined && sessionId !== '' && { sessionId }),
  };
}

const commandInput = z.looseObject({ command: z.string().min(1), description: z.string().optional() });

/** A shell tool's call (`command`, and `description` when given), or null when its input has no command. */
export function commandCall(
  toolName: string,
  rawInput: unknown,
  cwd: string | undefined,
  sessionId?: string,
): Extract<HookCall, { kind: 'command' }> | null {
  const parsed = commandInput.safeParse(rawInput);
  if (!parsed.success) return null;
  return {
    kind: 'command',
    toolName,
    command: parsed.data.command,
    ...(parsed.data.description !== undefined && { description: parsed.data.description }),
    cwd,
    ...(sessionId !== undefined && sessionId !== '' && { sessionId }),
  };
}

/** The call a hook's stdin names: one of `tools`, one of `commandTools`, or not ours. */
export function toolCall(
  tools: readonly EditTool[],
  commandTools: readonly string[],
  call: { toolName: string; toolInput: unknown; cwd: string | undefined; sessionId: string | undefined },
): HookCall {
  const tool = findTool(tools, call.toolName);
  if (tool) return editCall(tool, call.toolInput, call.cwd, call.sessionId);
  if (!commandTools.includes(call.toolName)) return { kind: 'not-ours' };
  return (
    commandCall(call.toolName, call.toolInput, call.cwd, call.sessionId) ?? {
      kind: 'cannot-reconstruct',
      reason: `${call.toolName}: no command`,
    }
  );
}

/** The review request for a parsed call, given the file's raw text now (null: it does not exist). */
export function decodeEdit(tools: readonly EditTool[], call: HookCall, fileText: string | null): Decoded {
  if (call.kind !== 'edit') return call;
  const tool = findTool(tools, call.toolName);
  const input = tool?.input.safeParse(call.toolInput);
  if (!tool || !input?.success)
    return { kind: 'cannot-reconstruct', reason: `${call.toolName}: unexpected input` };
  const replay = tool.replay(input.data, fileText);
  if (!replay.applies) return { kind: 'cannot-reconstruct', reason: replay.reason };
  return {
    kind: 'review',
    call,
    base: fileText ?? '',
    proposed: replay.proposed,
    isNewFile: replay.isNewFile,
  };
}

/** The whole input that makes the agent write `composed`, checked by replaying it; null when none does. */
export function rewriteEdit(
  tools: readonly EditTool[],
  call: Extract<HookCall, { kind: 'edit' }>,
  base: string,
  fileExists: boolean,
  composed: string,
): ToolInput | null {
  const tool = findTool(tools, call.toolName);
  const input = tool?.input.safeParse(call.toolInput);
  if (!tool || !input?.success) return null;
  const rewritten = tool.rewrite(input.data, base, fileExists, composed);
  if (rewritten === null) return null;
  const replay = tool.replay(rewritten, fileExists ? base : null);
  return replay.applies && replay.proposed === composed ? rewritten : null;
}
