/**
 * Every agent `difftray setup <agent>` knows: where its hook file is and the hooks DiffTray puts there, as
 * data for the one planner (hook-entries.ts). The wire facts behind each are in docs/protocols/.
 * Every timeout is an hour, in the unit the agent reads: a review waits for a person; only the prompt hook,
 * which just tells DiffTray a turn begins, gets half a minute.
 */
import {
  CLAUDE_HOOK_SHAPE,
  HOOK_TIMEOUT_SECONDS,
  PROMPT_HOOK_TIMEOUT_SECONDS,
} from '../claude-code/hook-settings';
import { HOOK_TABLES, type HookAgentName, type HookTable } from '../hooks/hook-tables';
import type { HookFileShape, HookSlot } from './hook-entries';

export const SETUP_AGENTS = ['claude-code', 'codex', 'gemini', 'copilot', 'qwen'] as const;
export type SetupAgent = (typeof SETUP_AGENTS)[number];

export function isSetupAgent(name: string): name is SetupAgent {
  return (SETUP_AGENTS as readonly string[]).includes(name);
}

/** The tools DiffTray reviews for an agent (hook-tables.ts): its edit tools, and its shell as an approval. */
const reviewedTools = (table: HookTable): readonly string[] => [...table.editTools, ...table.commandTools];

/** Codex's patches (also sent through the shell) and shell commands. */
export const CODEX_HOOK_TOOLS = reviewedTools(HOOK_TABLES.codex);
/**
 * Gemini's and Qwen's after-tool hooks take the same tools: a note on an allowed command reaches the
 * model from there too.
 */
export const GEMINI_HOOK_TOOLS = reviewedTools(HOOK_TABLES.gemini);
export const QWEN_HOOK_TOOLS = reviewedTools(HOOK_TABLES.qwen);

/**
 * Qwen Code reads a command hook's timeout of 1000 or more as milliseconds (its older unit), below that
 * as seconds: an hour can only be written as 3600000.
 */
export const QWEN_HOOK_TIMEOUT_MS = HOOK_TIMEOUT_SECONDS * 1000;
/** Gemini CLI reads hook timeouts in milliseconds. */
export const GEMINI_HOOK_TIMEOUT_MS = HOOK_TIMEOUT_SECONDS * 1000;

type Timeout = { value: number; unit: 's' | 'ms' };

/** A Claude-style `{type, command, timeout}` hook in a matcher group, for one agent. */
function commandSlot(event: string, tools: readonly string[], agent: string, timeout: Timeout): HookSlot {
  return {
    event,
    tools,
    hookWords: ['hook', agent],
    commandField: 'command',
    timeoutField: 'timeout',
    timeout: timeout.value,
    timeoutUnit: timeout.unit,
  };
}

/**
 * The turn review's two hooks for a Claude-style agent (docs/TURN-REVIEW.md): its prompt event begins a
 * turn, its end-of-turn event puts up what the turn wrote unasked. Groups without a matcher: neither event
 * is about a tool.
 */
function turnSlots(agent: Exclude<HookAgentName, 'copilot'>, short: Timeout, long: Timeout): HookSlot[] {
  const { promptEvent, endEvent } = HOOK_TABLES[agent];
  const slot = (event: string, timeout: Timeout): HookSlot => ({
    event,
    matcherless: true,
    hookWords: ['hook', agent],
    commandField: 'command',
    timeoutField: 'timeout',
    timeout: timeout.value,
    timeoutUnit: timeout.unit,
  });
  return [slot(promptEvent, short), slot(endEvent, long)];
}

/** Copilot CLI's stdin does not name the event, so each event's command names it. */
function copilotSlot(event: string, timeoutSeconds = HOOK_TIMEOUT_SECONDS): HookSlot {
  return {
    event,
    hookWords: ['hook', 'copilot', event],
    commandField: 'bash',
    timeoutField: 'timeoutSec',
    timeout: timeoutSeconds,
    timeoutUnit: 's',
  };
}

const seconds = { value: HOOK_TIMEOUT_SECONDS, unit: 's' } as const;
const geminiMs = { value: GEMINI_HOOK_TIMEOUT_MS, unit: 'ms' } as const;
const qwenMs = { value: QWEN_HOOK_TIMEOUT_MS, unit: 'ms' } as const;
const promptSeconds = { value: PROMPT_HOOK_TIMEOUT_SECONDS, unit: 's' } as const;
/** Gemini and Qwen read these in milliseconds, as their other hooks (Qwen: 1000 or more is ms). */
const promptMs = { value: PROMPT_HOOK_TIMEOUT_SECONDS * 1000, unit: 'ms' } as const;

export const AGENT_HOOK_SHAPES: Record<SetupAgent, HookFileShape> = {
  'claude-code': CLAUDE_HOOK_SHAPE,
  codex: {
    slots: [
      commandSlot('PreToolUse', CODEX_HOOK_TOOLS, 'codex', seconds),
      ...turnSlots('codex', promptSeconds, seconds),
    ],
  },
  gemini: {
    slots: [
      commandSlot('BeforeTool', GEMINI_HOOK_TOOLS, 'gemini', geminiMs),
      // The note reaches Gemini's model only from AfterTool.
      commandSlot('AfterTool', GEMINI_HOOK_TOOLS, 'gemini', geminiMs),
      ...turnSlots('gemini', promptMs, geminiMs),
    ],
  },
  copilot: {
    slots: [
      copilotSlot('preToolUse'),
      copilotSlot('postToolUse'),
      copilotSlot(HOOK_TABLES.copilot.promptEvent, PROMPT_HOOK_TIMEOUT_SECONDS),
      copilotSlot(HOOK_TABLES.copilot.endEvent),
    ],
    required: { version: 1 },
  },
  qwen: {
    slots: [
      // The rewrite goes through PermissionRequest, a denial through PreToolUse, the note PostToolUse.
      commandSlot('PermissionRequest', QWEN_HOOK_TOOLS, 'qwen', qwenMs),
      commandSlot('PreToolUse', QWEN_HOOK_TOOLS, 'qwen', qwenMs),
      commandSlot('PostToolUse', QWEN_HOOK_TOOLS, 'qwen', qwenMs),
      ...turnSlots('qwen', promptMs, qwenMs),
    ],
  },
};

/** The agent's name as people know it, for messages. */
export const AGENT_LABELS: Record<SetupAgent, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex CLI',
  gemini: 'Gemini CLI',
  copilot: 'Copilot CLI',
  qwen: 'Qwen Code',
};

/** Where an agent's hooks review less than every edit: said once setup is done (README has the rest). */
export const AGENT_REVIEW_LIMITS: Partial<Record<SetupAgent, string>> = {
  gemini: '`gemini -p` offers its edit tools only with --approval-mode auto_edit.',
  qwen: 'Qwen Code asks DiffTray only in its "Ask permissions" mode (the default approval mode).',
};

/** What setup finds of its hooks in an agent's files (hook-status.ts). */
export type HookStatus =
  /** Our hooks are there, as setup would write them now (and trusted, for Codex). */
  | 'installed'
  /** Codex: our hook is there but the person has not trusted it (or it changed since). */
  | 'untrusted'
  /** Codex: the person turned our hook off in `/hooks`. */
  | 'disabled'
  /** Some of our hooks are there, but setup would change them (command, timeout, matcher, a missing one). */
  | 'outdated'
  | 'not-installed';

/**
 * How a person trusts new or changed hooks in Codex, which runs no hook it was not told to trust: each of
 * ours (the edit review's, the turn review's prompt and end-of-turn hooks) is trusted on its own.
 */
export const CODEX_TRUST_STEP =
  'Codex runs a new or changed hook only once you trust it: start `codex`, type /hooks and press t ' +
  'on each of DiffTray\'s hooks (or choose "Trust all and continue" in the "Hooks need review" ' +
  'dialog Codex shows at start). DiffTray never trusts them for you.';

/** What a person does in Codex when they turned one of DiffTray's hooks off there. */
export const CODEX_HOOK_OFF_STEP =
  "A DiffTray hook is turned off in Codex: start `codex`, type /hooks and turn DiffTray's hooks on.";
