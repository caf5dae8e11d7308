/**
 * The hook codec of every agent reviewed through its hooks, by the name `difftray hook <agent>` takes.
 * (Claude Code's answers live in shared/claude-code/, which predates this table.)
 */
import type { HookCodec } from './codec';
import { copilotCodec } from './copilot';
import { geminiCodec } from './gemini';
import { qwenCodec } from './qwen';

export const HOOK_CODECS = {
  gemini: geminiCodec,
  copilot: copilotCodec,
  qwen: qwenCodec,
} as const satisfies Record<string, HookCodec<unknown, unknown>>;

export type HookAgent = keyof typeof HOOK_CODECS;

export function isHookAgent(name: string): name is HookAgent {
  return Object.hasOwn(HOOK_CODECS, name);
}
