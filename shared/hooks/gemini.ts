/**
 * Gemini CLI 0.61.0's hook codec (docs/protocols/other-agents.md, "Gemini CLI codec"). The rules below
 * were read out of the shipped bundle (@google/gemini-cli, packages/core/src/tools/edit.ts and
 * write-file.ts, fileSystemService.ts, hookOutput's BeforeToolHookOutput):
 * - files are read and written as UTF-8 text, so a BOM is an ordinary U+FEFF character and stays;
 * - `replace` works on the text with every "\r\n" as "\n" (old_string and new_string too), counts exact
 *   occurrences (`split`), fails on more than one unless `allow_multiple`, replaces literally (every
 *   occurrence), then gives the result the original's final-newline state (restoreTrailingNewline), and
 *   writes every line break as "\r\n" when the file held any "\r\n";
 * - an old_string found 0 times sends Gemini to its flexible, regex, fuzzy and model-assisted matchers:
 *   not reproduced, so no decision (the person is asked by Gemini);
 * - `write_file` writes `content`, every line break as "\r\n" when the existing non-empty file held any
 *   "\r\n"; content holding backslash escapes is unescaped first for models other than Gemini 2/3 or
 *   a custom one (ensureCorrectFileContent, LLM correction off by default), which the hook cannot tell:
 *   no decision;
 * - a new file is written with the platform's EOL: POSIX ("\n") is assumed, i.e. as given.
 */
import { z } from 'zod';
import type { EditTool, HookCall, HookCodec } from './codec';
import { decodeEdit, rewriteEdit, toolCall } from './codec';
import { HOOK_TABLES, hookStep } from './hook-tables';
import { countOccurrences, findReplacement } from './replace-search';

const toLf = (text: string): string => text.replace(/\r\n/g, '\n');
const toCrlf = (text: string): string => text.replace(/\r?\n/g, '\r\n');

const replaceInput = z.looseObject({
  file_path: z.string(),
  old_string: z.string(),
  new_string: z.string(),
  allow_multiple: z.boolean().optional(),
  instruction: z.string().optional(),
});
type ReplaceInput = z.infer<typeof replaceInput>;

const writeFileInput = z.looseObject({ file_path: z.string(), content: z.string() });
type WriteFileInput = z.infer<typeof writeFileInput>;

const cannot = (reason: string) => ({ applies: false as const, reason });

/** Gemini's restoreTrailingNewline: the result ends in "\n" exactly when the original did. */
function restoreTrailingNewline(original: string, modified: string): string {
  const had = original.endsWith('\n');
  if (had && !modified.endsWith('\n')) return modified + '\n';
  if (!had && modified.endsWith('\n')) return modified.replace(/\n$/, '');
  return modified;
}

const replaceTool: EditTool<ReplaceInput> = {
  name: 'replace',
  input: replaceInput,
  filePathOf: (input) => input.file_path,
  replay(input, fileText) {
    if (fileText === null) {
      // A new file: new_string as given (no "\r\n" normalisation on this path).
      return input.old_string === ''
        ? { applies: true, proposed: input.new_string, isNewFile: true }
        : cannot('the file does not exist');
    }
    if (input.old_string === '') return cannot('cannot create the file: it already exists');
    const crlf = fileText.includes('\r\n');
    const content = toLf(fileText);
    const search = toLf(input.old_string);
    const replacement = toLf(input.new_string);
    const occurrences = countOccurrences(content, search);
    if (occurrences === 0) return cannot('old_string not found exactly (Gemini would match it loosely)');
    if (input.allow_multiple !== true && occurrences > 1) return cannot('old_string is not unique');
    if (search === replacement) return cannot('old_string and new_string are the same');
    const modified = restoreTrailingNewline(
      content,
      content.replaceAll(search, () => replacement),
    );
    return { applies: true, proposed: crlf ? toCrlf(modified) : modified, isNewFile: false };
  },
  rewrite(input, base, fileExists, composed) {
    if (!fileExists) return { ...input, old_string: '', new_string: composed };
    const multiple = input.allow_multiple === undefined ? {} : { allow_multiple: false };
    const found = findReplacement(toLf(base), toLf(composed), (oldString, newString) => {
      const replay = replaceTool.replay(
        { ...input, old_string: oldString, new_string: newString, ...multiple },
        base,
      );
      return replay.applies && replay.proposed === composed;
    });
    return found && { ...input, old_string: found[0], new_string: found[1], ...multiple };
  },
};

/** Gemini's unescapeStringForGeminiBug: what it may turn escaped characters in `content` into. */
function unescaped(text: string): string {
  const plain: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    "'": "'",
    '"': '"',
    '`': '`',
    '\\': '\\',
  };
  return text.replace(/\\+(n|t|r|'|"|`|\\|\n)/g, (_whole, char: string) => plain[char] ?? '\n');
}

const writeFileTool: EditTool<WriteFileInput> = {
  name: 'write_file',
  input: writeFileInput,
  filePathOf: (input) => input.file_path,
  replay(input, fileText) {
    if (unescaped(input.content) !== input.content) {
      return cannot('content holds backslash escapes Gemini may rewrite before writing');
    }
    const crlf = fileText !== null && fileText !== '' && fileText.includes('\r\n');
    return {
      applies: true,
      proposed: crlf ? toCrlf(input.content) : input.content,
      isNewFile: fileText === null,
    };
  },
  rewrite: (input, _base, _fileExists, composed) => ({ ...input, content: composed }),
};

export const GEMINI_EDIT_TOOLS: readonly EditTool[] = [replaceTool, writeFileTool];

const toolStdin = z.looseObject({
  hook_event_name: z.string().optional(),
  session_id: z.string().optional(),
  tool_name: z.string(),
  tool_input: z.unknown(),
  cwd: z.string().optional(),
});

/** BeforeTool's answers; AfterTool's is the only one whose context reaches the model. */
export type GeminiBeforeToolAnswer =
  | { hookSpecificOutput: { hookEventName: 'BeforeTool'; tool_input: Record<string, unknown> } }
  | { decision: 'deny'; reason: string };
export interface GeminiAfterToolAnswer {
  hookSpecificOutput: { hookEventName: 'AfterTool'; additionalContext: string };
}

export const geminiCodec: HookCodec<GeminiBeforeToolAnswer, GeminiAfterToolAnswer> = {
  agent: 'gemini',
  noteVia: 'after',
  tools: GEMINI_EDIT_TOOLS,
  stepOf: (stdin, event) => hookStep(HOOK_TABLES.gemini, stdin, event),
  parse(stdin): HookCall {
    const parsed = toolStdin.safeParse(stdin);
    if (!parsed.success) return { kind: 'cannot-reconstruct', reason: 'not a tool hook input' };
    return toolCall(GEMINI_EDIT_TOOLS, HOOK_TABLES.gemini.commandTools, {
      toolName: parsed.data.tool_name,
      toolInput: parsed.data.tool_input,
      cwd: parsed.data.cwd,
      sessionId: parsed.data.session_id,
    });
  },
  // Allowed: nothing to say (Gemini goes on as it would); the note comes from AfterTool.
  encodeApproval: (_call, approved, note) =>
    approved ? null : { decision: 'deny', reason: note ?? 'The reviewer denied this command in DiffTray.' },
  encode(call, base, fileExists, decision) {
    // Accepted as proposed: nothing to change; the note comes from AfterTool (BeforeTool's context is dropped).
    if (decision.kind === 'allow') return null;
    if (decision.kind === 'deny') return { decision: 'deny', reason: decision.reason };
    // The WHOLE input: Gemini merges it into the call and validates it again.
    const rewritten = rewriteEdit(GEMINI_EDIT_TOOLS, call, base, fileExists, decision.composed);
    if (rewritten === null) {
      return {
        decision: 'deny',
        reason: `The reviewer's version of ${call.filePath} cannot be written exactly by ${call.toolName} (its line endings, final newline or escapes); the file was left as it was.`,
      };
    }
    return { hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: rewritten } };
  },
  encodeNote: (note) => ({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: note } }),
};

/** Gemini's review request for a parsed call and the file's raw text now (null: no such file). */
export const decodeGemini = (call: HookCall, fileText: string | null) =>
  decodeEdit(GEMINI_EDIT_TOOLS, call, fileText);
