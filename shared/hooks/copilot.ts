/**
 * GitHub Copilot CLI 1.0.102's hook codec (docs/protocols/other-agents.md, "Copilot CLI codec").
 * Copilot ships as a single native executable whose JavaScript is not readable as text, so the edit
 * rules below are those the offline runs of the real CLI showed (e2e/real-clients/copilot-hooks.e2e.ts),
 * held to the strictest reading: `edit` finds `old_str` literally, or else with each of its line breaks
 * matching either "\n" or "\r\n"; the match must be the only one; it is replaced by `new_str` with every
 * line break written as the file's (CRLF where the file holds more CRLF than lone LF breaks, else LF);
 * the rest of the file (its other line breaks, BOM, final newline) stays as it was. Copilot's further
 * fallback (a match that ignores trailing spaces) is not reproduced: no decision. `create` writes
 * `file_text` as given to a file that does not exist yet. Anything else gets no decision.
 * The answer's field names (`permissionDecision`, `permissionDecisionReason`, `modifiedArgs`,
 * `additionalContext`) are those of Copilot's hooks documentation, the first three seen working in the
 * offline runs.
 */
import { z } from 'zod';
import type { EditTool, HookCall, HookCodec } from './codec';
import { decodeEdit, rewriteEdit, toolCall } from './codec';
import { HOOK_TABLES, hookStep } from './hook-tables';
import { findReplacement } from './replace-search';
import { noteLine } from './review-outcome';

const editInput = z.looseObject({ path: z.string(), old_str: z.string(), new_str: z.string().optional() });
type EditInput = z.infer<typeof editInput>;

const createInput = z.looseObject({ path: z.string(), file_text: z.string() });
type CreateInput = z.infer<typeof createInput>;

const cannot = (reason: string) => ({ applies: false as const, reason });

interface Match {
  at: number;
  length: number;
}

/**
 * Where Copilot's `edit` finds `oldString`: its literal occurrences if any, else those where each of its
 * line breaks matches "\n" or "\r\n". Overlapping ones count: more than one match is no decision.
 */
function matchesOf(fileText: string, oldString: string): Match[] {
  const literal: Match[] = [];
  for (let at = fileText.indexOf(oldString); at !== -1; at = fileText.indexOf(oldString, at + 1)) {
    literal.push({ at, length: oldString.length });
  }
  if (literal.length > 0) return literal;
  const pieces = oldString.split(/\r?\n/);
  if (pieces.length === 1) return [];
  const pattern = new RegExp(pieces.map(escapeRegExp).join('\\r?\\n'), 'g');
  const found: Match[] = [];
  for (let match = pattern.exec(fileText); match !== null; match = pattern.exec(fileText)) {
    found.push({ at: match.index, length: match[0].length });
    pattern.lastIndex = match.index + 1;
  }
  return found;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The line break Copilot writes `new_str`'s breaks with: the file's more frequent one, LF on a tie. */
function lineBreakOf(fileText: string): string {
  const crlf = fileText.split('\r\n').length - 1;
  const lf = fileText.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

const editTool: EditTool<EditInput> = {
  name: 'edit',
  input: editInput,
  filePathOf: (input) => input.path,
  replay(input, fileText) {
    const newString = input.new_str ?? '';
    if (fileText === null) return cannot('the file does not exist');
    if (input.old_str === '') return cannot('old_str is empty');
    if (input.old_str === newString) return cannot('old_str and new_str are the same');
    const [match, ...more] = matchesOf(fileText, input.old_str);
    if (match === undefined) return cannot('old_str not found');
    if (more.length > 0) return cannot('old_str is not unique');
    const { at, length } = match;
    const written = newString.replace(/\r?\n/g, lineBreakOf(fileText));
    return {
      applies: true,
      proposed: fileText.slice(0, at) + written + fileText.slice(at + length),
      isNewFile: false,
    };
  },
  rewrite(input, base, fileExists, composed) {
    if (!fileExists) return null;
    const found = findReplacement(base, composed, (oldString, newString) => {
      const replay = editTool.replay({ ...input, old_str: oldString, new_str: newString }, base);
      return replay.applies && replay.proposed === composed;
    });
    return found && { ...input, old_str: found[0], new_str: found[1] };
  },
};

const createTool: EditTool<CreateInput> = {
  name: 'create',
  input: createInput,
  filePathOf: (input) => input.path,
  replay: (input, fileText) =>
    fileText === null
      ? { applies: true, proposed: input.file_text, isNewFile: true }
      : cannot('the file already exists'),
  rewrite: (input, _base, _fileExists, composed) => ({ ...input, file_text: composed }),
};

export const COPILOT_EDIT_TOOLS: readonly EditTool[] = [editTool, createTool];

/** preToolUse stdin: no event name; `toolArgs` comes as an object or as its JSON text. */
const preToolUseStdin = z.looseObject({
  sessionId: z.string().optional(),
  toolName: z.string(),
  toolArgs: z.unknown(),
  cwd: z.string().optional(),
});

function argsOf(toolArgs: unknown): unknown {
  if (typeof toolArgs !== 'string') return toolArgs;
  try {
    return JSON.parse(toolArgs);
  } catch {
    return undefined;
  }
}

export interface CopilotPreToolUseAnswer {
  permissionDecision: 'allow' | 'deny';
  permissionDecisionReason?: string;
  modifiedArgs?: Record<string, unknown>;
  additionalContext?: string;
}
export interface CopilotPostToolUseAnswer {
  additionalContext: string;
}

const withNote = (note: string | undefined) => (note === undefined ? {} : { additionalContext: note });

export const copilotCodec: HookCodec<CopilotPreToolUseAnswer, CopilotPostToolUseAnswer> = {
  agent: 'copilot',
  noteVia: 'before',
  tools: COPILOT_EDIT_TOOLS,
  // Copilot's stdin does not name its event: setup puts it on the command line.
  stepOf: (stdin, event) => hookStep(HOOK_TABLES.copilot, stdin, event),
  parse(stdin): HookCall {
    const parsed = preToolUseStdin.safeParse(stdin);
    if (!parsed.success) return { kind: 'cannot-reconstruct', reason: 'not a preToolUse hook input' };
    return toolCall(COPILOT_EDIT_TOOLS, HOOK_TABLES.copilot.commandTools, {
      toolName: parsed.data.toolName,
      toolInput: argsOf(parsed.data.toolArgs),
      cwd: parsed.data.cwd,
      sessionId: parsed.data.sessionId,
    });
  },
  encodeApproval: (_call, approved, note) =>
    approved
      ? { permissionDecision: 'allow', ...withNote(note === undefined ? undefined : noteLine(note)) }
      : {
          permissionDecision: 'deny',
          permissionDecisionReason: note ?? 'The reviewer denied this command in DiffTray.',
        },
  encode(call, base, fileExists, decision) {
    // "allow" skips Copilot's own prompt: the person has just reviewed the call in DiffTray.
    if (decision.kind === 'allow') return { permissionDecision: 'allow', ...withNote(decision.note) };
    if (decision.kind === 'deny')
      return { permissionDecision: 'deny', permissionDecisionReason: decision.reason };
    // The WHOLE args: Copilot writes exactly what modifiedArgs says.
    const modifiedArgs = rewriteEdit(COPILOT_EDIT_TOOLS, call, base, fileExists, decision.composed);
    if (modifiedArgs === null) {
      return {
        permissionDecision: 'deny',
        permissionDecisionReason: `The reviewer's version of ${call.filePath} cannot be written by ${call.toolName}; the file was left as it was.`,
      };
    }
    return { permissionDecision: 'allow', modifiedArgs, ...withNote(decision.note) };
  },
  encodeNote: (note) => ({ additionalContext: note }),
};

/** Copilot's review request for a parsed call and the file's raw text now (null: no such file). */
export const decodeCopilot = (call: HookCall, fileText: string | null) =>
  decodeEdit(COPILOT_EDIT_TOOLS, call, fileText);
