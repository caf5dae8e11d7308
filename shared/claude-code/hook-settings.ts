/**
 * DiffTray's hooks in Claude Code's settings.json (PreToolUse, and UserPromptSubmit and Stop for the turn review), as data for the planner all agents share
 * (shared/hook-setup/hook-entries.ts, which says how the hook is merged, recognised and removed).
 *
 * Claude's shape: `{"hooks":{"PreToolUse":[{"matcher":"Edit|…","hooks":[{"type":"command","command":"…",
 * "timeout":3600,"onFailure":"block"}]}]}}`. Our hook is the one whose command ends in `hook claude-code`.
 * `onFailure: "block"`: in Claude Code's Code Mode (2.1.332) a hook that crashes lets the tool call through
 * unless its entry says so; a review that could not run must not become an allow.
 */
import {
  endsInHookWords,
  HookSettingsError,
  TOOL_NAME,
  updateHooks,
  type HookFileShape,
  type HookSettingsResult,
  type HookSetupOptions,
} from '../hook-setup/hook-entries';

export {
  HookSettingsError,
  type HookSettingsResult,
  type JsonObject,
  type SettingsEdit,
} from '../hook-setup/hook-entries';
export type HookSettingsOptions = HookSetupOptions;

/** The tools whose use DiffTray reviews: edits, and shell commands as approvals. */
export const DEFAULT_HOOK_TOOLS: readonly string[] = ['Edit', 'MultiEdit', 'Write', 'Bash'];

/** Seconds an agent waits for the hook: long enough for a person to decide. */
export const HOOK_TIMEOUT_SECONDS = 3600;

/** The words Claude Code's hook command ends in. */
export const CLAUDE_HOOK_WORDS: readonly string[] = ['hook', 'claude-code'];

/** Seconds Claude Code waits for the prompt hook, which only tells DiffTray a turn begins. */
export const PROMPT_HOOK_TIMEOUT_SECONDS = 30;

export const CLAUDE_HOOK_SHAPE: HookFileShape = {
  slots: [
    {
      event: 'PreToolUse',
      tools: DEFAULT_HOOK_TOOLS,
      hookWords: CLAUDE_HOOK_WORDS,
      commandField: 'command',
      timeoutField: 'timeout',
      timeout: HOOK_TIMEOUT_SECONDS,
      timeoutUnit: 's',
      extra: { onFailure: 'block' },
    },
    // The turn review: the prompt begins a turn, Stop puts up what it wrote unasked (docs/TURN-REVIEW.md).
    {
      event: 'UserPromptSubmit',
      matcherless: true,
      hookWords: CLAUDE_HOOK_WORDS,
      commandField: 'command',
      timeoutField: 'timeout',
      timeout: PROMPT_HOOK_TIMEOUT_SECONDS,
      timeoutUnit: 's',
    },
    {
      event: 'Stop',
      matcherless: true,
      hookWords: CLAUDE_HOOK_WORDS,
      commandField: 'command',
      timeoutField: 'timeout',
      timeout: HOOK_TIMEOUT_SECONDS,
      timeoutUnit: 's',
    },
  ],
};

/** Whether a hook command is DiffTray's (`<anything> hook claude-code`). */
export function isDiffTrayHookCommand(command: unknown): boolean {
  return endsInHookWords(command, CLAUDE_HOOK_WORDS);
}

/** A tool list as `--also` takes it (`WebFetch,Task`), checked; throws on a name the matcher cannot hold. */
export function parseToolList(text: string): string[] {
  const tools = text
    .split(',')
    .map((tool) => tool.trim())
    .filter((tool) => tool.length > 0);
  for (const tool of tools) {
    if (!TOOL_NAME.test(tool)) throw new HookSettingsError(`"${tool}" is not a tool name`);
  }
  return tools;
}

export function updateHookSettings(
  current: unknown,
  command: string,
  options: HookSettingsOptions = {},
): HookSettingsResult {
  return updateHooks(current, CLAUDE_HOOK_SHAPE, () => command, options);
}
