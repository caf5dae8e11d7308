/**
 * What each agent's hook stdin looks like, as plain data with no dependencies, so the hook's first step
 * (src-main/cli/hooks/hook-prefilter.ts) can tell in a few milliseconds whether a call is DiffTray's to
 * review at all, before the codecs and the protocol client load. The codecs read the same tables.
 */
export interface HookTable {
  /** The stdin field naming the tool. */
  toolField: 'tool_name' | 'toolName';
  /** The stdin field naming the event; null where the event comes on the command line (Copilot). */
  eventField: 'hook_event_name' | null;
  /** The event of the review before the tool runs. */
  beforeEvent: string;
  /** The event whose answer hands the model a note the before-answer could not carry; null: none. */
  afterEvent: string | null;
  /**
   * Where the before-event fires only when the agent would ask the person, an event before every tool
   * call whatever the mode: it only tells DiffTray the turn is about to write the file (turn_touch), so
   * the turn review knows what was there before (Qwen Code: PreToolUse beside PermissionRequest).
   */
  touchEvent?: string;
  /** The person's prompt: a turn begins (the turn review, docs/TURN-REVIEW.md). */
  promptEvent: string;
  /** The agent's turn ends; its answer can make the agent go on with a message. */
  endEvent: string;
  /** The tools reviewed as edits. */
  editTools: readonly string[];
  /** The shell tools, reviewed as commands. */
  commandTools: readonly string[];
  /** Every tool the hook is installed for is reviewed (Claude Code: its matcher decides). */
  allTools?: true;
}

export const HOOK_TABLES = {
  'claude-code': {
    toolField: 'tool_name',
    eventField: 'hook_event_name',
    beforeEvent: 'PreToolUse',
    afterEvent: null,
    promptEvent: 'UserPromptSubmit',
    endEvent: 'Stop',
    editTools: ['Edit', 'MultiEdit', 'Write'],
    commandTools: ['Bash'],
    allTools: true,
  },
  codex: {
    toolField: 'tool_name',
    eventField: 'hook_event_name',
    beforeEvent: 'PreToolUse',
    afterEvent: null,
    promptEvent: 'UserPromptSubmit',
    endEvent: 'Stop',
    editTools: ['apply_patch'],
    // A patch sent through the shell arrives as Bash too.
    commandTools: ['Bash'],
  },
  gemini: {
    toolField: 'tool_name',
    eventField: 'hook_event_name',
    beforeEvent: 'BeforeTool',
    afterEvent: 'AfterTool',
    promptEvent: 'BeforeAgent',
    endEvent: 'AfterAgent',
    editTools: ['replace', 'write_file'],
    commandTools: ['run_shell_command'],
  },
  copilot: {
    toolField: 'toolName',
    eventField: null,
    beforeEvent: 'preToolUse',
    // Copilot takes the note in preToolUse's answer.
    afterEvent: null,
    promptEvent: 'userPromptSubmitted',
    endEvent: 'agentStop',
    editTools: ['edit', 'create'],
    commandTools: ['bash', 'powershell'],
  },
  qwen: {
    toolField: 'tool_name',
    eventField: 'hook_event_name',
    // The one event whose answer can rewrite the call (it fires where Qwen would ask the person).
    beforeEvent: 'PermissionRequest',
    afterEvent: 'PostToolUse',
    // Fires in every mode: an edit written unasked (auto-edit, yolo) is still known to the turn.
    touchEvent: 'PreToolUse',
    promptEvent: 'UserPromptSubmit',
    endEvent: 'Stop',
    editTools: ['edit', 'write_file'],
    commandTools: ['run_shell_command'],
  },
} as const satisfies Record<string, HookTable>;

export type HookAgentName = keyof typeof HOOK_TABLES;

/**
 * Which of DiffTray's steps a hook event is: review before, hand over a note after, tell the turn a file
 * is about to be written, a turn begins, a turn ends, or nothing.
 */
export type HookStep = 'before' | 'after' | 'touch' | 'prompt' | 'end' | 'ignore';

const fieldOf = (stdin: unknown, field: string): unknown =>
  typeof stdin === 'object' && stdin !== null ? (stdin as Record<string, unknown>)[field] : undefined;

/** The step for this stdin; `argvEvent` is the word after `difftray hook <agent>`, if any. */
export function hookStep(table: HookTable, stdin: unknown, argvEvent: string | undefined): HookStep {
  const event = table.eventField === null ? argvEvent : fieldOf(stdin, table.eventField);
  // Claude-style stdin without an event name is its before-event (older CLIs, hand-run tests).
  const named = event ?? (table.eventField === null ? undefined : table.beforeEvent);
  if (named === undefined) return 'ignore';
  if (named === table.beforeEvent) return 'before';
  if (named === table.afterEvent) return 'after';
  if (named === table.touchEvent) return 'touch';
  if (named === table.promptEvent) return 'prompt';
  return named === table.endEvent ? 'end' : 'ignore';
}

/** Whether the call's tool is one DiffTray reviews for this agent. */
export function isReviewedTool(table: HookTable, stdin: unknown): boolean {
  const tool = fieldOf(stdin, table.toolField);
  if (typeof tool !== 'string') return true; // Malformed: the full hook says what is wrong.
  return table.allTools === true || table.editTools.includes(tool) || table.commandTools.includes(tool);
}
