/**
 * The shared shape of the per-agent hook codecs (docs/protocols/other-agents.md, "Hook codecs"): a codec
 * turns one agent's hook stdin into a review request, and the person's decision into that agent's answer.
 * Pure: the caller reads stdin and the file, sends the review, and prints what the codec returns.
 *
 * Each edit tool is data: its name, how to read its input, how the agent applies it (the replay), and
 * how to write an input that makes the agent write a given text (the rewrite).
 */
import type { z } from 'zod';

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

export interface HookCodec<PreAnswer, PostAnswer> {
  readonly agent: string;
  readonly tools: readonly EditTool[];
  /** Stdin of the agent's before-tool hook, parsed JSON. */
  parse(stdin: unknown): HookCall;
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
export function editCall(tool: EditTool, rawInput: unknown, cwd: string | undefined): HookCall {
  const parsed = tool.input.safeParse(rawInput);
  if (!parsed.success) return { kind: 'cannot-reconstruct', reason: `${tool.name}: unexpected input` };
  return {
    kind: 'edit',
    toolName: tool.name,
    toolInput: parsed.data,
    filePath: tool.filePathOf(parsed.data),
    cwd,
  };
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
