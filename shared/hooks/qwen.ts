/**
 * Qwen Code 0.24.4's hook codec (docs/protocols/other-agents.md, "Qwen Code codec"). Read out of the
 * shipped bundle (@qwen-code/qwen-code chunks: packages/core/src/tools/edit.ts and write-file.ts,
 * fileSystemService.ts's prepareTextFileContent, the PermissionRequest hook output):
 * - a file is read with its BOM taken off (and written back with it), and its line endings noted: CRLF
 *   when it holds any "\r\n"; `edit` works on the text with every "\r\n" as "\n";
 * - `edit`: old_string is taken as written when it occurs literally (Qwen's looser matches — Unicode
 *   look-alikes, whitespace at line ends — are not reproduced: no decision); deleting text that does not
 *   end a line but is followed by one deletes that line break too; it must occur once (non-overlapping
 *   count) unless `replace_all`; every occurrence is replaced literally;
 * - every write: with CRLF (every line break as "\r\n") when the file was CRLF or is .bat/.cmd, with a BOM
 *   when it had one; a new file gets neither (a .ps1 BOM is for Windows only: POSIX assumed);
 * - a rewrite is answered to PermissionRequest (PreToolUse's `updatedInput` is ignored by Qwen):
 *   `decision: {behavior: "allow", updatedInput}` or `{behavior: "deny", message}`.
 */
import { z } from 'zod';
import type { EditTool, HookCall, HookCodec } from './codec';
import { decodeEdit, rewriteEdit, toolCall } from './codec';
import { HOOK_TABLES, hookStep } from './hook-tables';
import { findReplacement } from './replace-search';

const BOM = '\uFEFF';

const editInput = z.looseObject({
  file_path: z.string(),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});
type EditInput = z.infer<typeof editInput>;

const writeFileInput = z.looseObject({ file_path: z.string(), content: z.string() });
type WriteFileInput = z.infer<typeof writeFileInput>;

const cannot = (reason: string) => ({ applies: false as const, reason });

/** How Qwen sees an existing file: BOM apart, line endings noted, text with "\r\n" as "\n". */
function readAsQwen(fileText: string): { bom: boolean; crlf: boolean; body: string } {
  const bom = fileText.startsWith(BOM);
  const body = bom ? fileText.slice(1) : fileText;
  return { bom, crlf: body.includes('\r\n'), body };
}

/** prepareTextFileContent: CRLF throughout when asked (or for .bat/.cmd), then the BOM. */
function writeAsQwen(filePath: string, content: string, crlf: boolean, bom: boolean): string {
  const lower = filePath.toLowerCase();
  const useCrlf = crlf || lower.endsWith('.bat') || lower.endsWith('.cmd');
  const text = useCrlf ? content.split('\r\n').join('\n').split('\n').join('\r\n') : content;
  return bom ? BOM + (text.startsWith(BOM) ? text.slice(1) : text) : text;
}

/** Qwen's countOccurrences: non-overlapping, by indexOf. */
function countOccurrences(source: string, needle: string): number {
  let count = 0;
  for (let at = source.indexOf(needle); at !== -1; at = source.indexOf(needle, at + needle.length)) count++;
  return count;
}

const editTool: EditTool<EditInput> = {
  name: 'edit',
  input: editInput,
  filePathOf: (input) => input.file_path,
  replay(input, fileText) {
    if (fileText === null) {
      return input.old_string === ''
        ? {
            applies: true,
            proposed: writeAsQwen(input.file_path, input.new_string, false, false),
            isNewFile: true,
          }
        : cannot('the file does not exist');
    }
    if (input.old_string === '') return cannot('cannot create the file: it already exists');
    const { bom, crlf, body } = readAsQwen(fileText);
    const current = body.replace(/\r\n/g, '\n');
    if (!current.includes(input.old_string))
      return cannot('old_string not found literally (Qwen would match it loosely)');
    const newString = input.new_string;
    // maybeAugmentOldStringForDeletion
    const oldString =
      newString === '' && !input.old_string.endsWith('\n') && current.includes(input.old_string + '\n')
        ? input.old_string + '\n'
        : input.old_string;
    const occurrences = countOccurrences(current, oldString);
    if (input.replace_all !== true && occurrences > 1) return cannot('old_string is not unique');
    if (oldString === newString) return cannot('old_string and new_string are the same');
    const modified = current.replaceAll(oldString, () => newString);
    if (modified === current) return cannot('the edit changes nothing');
    return { applies: true, proposed: writeAsQwen(input.file_path, modified, crlf, bom), isNewFile: false };
  },
  rewrite(input, base, fileExists, composed) {
    if (!fileExists) return { ...input, old_string: '', new_string: composed };
    const multiple = input.replace_all === undefined ? {} : { replace_all: false };
    const { body } = readAsQwen(base);
    const wantedBody = composed.startsWith(BOM) ? composed.slice(1) : composed;
    const found = findReplacement(
      body.replace(/\r\n/g, '\n'),
      wantedBody.replace(/\r\n/g, '\n'),
      (oldString, newString) => {
        const replay = editTool.replay(
          { ...input, old_string: oldString, new_string: newString, ...multiple },
          base,
        );
        return replay.applies && replay.proposed === composed;
      },
    );
    return found && { ...input, old_string: found[0], new_string: found[1], ...multiple };
  },
};

const writeFileTool: EditTool<WriteFileInput> = {
  name: 'write_file',
  input: writeFileInput,
  filePathOf: (input) => input.file_path,
  replay(input, fileText) {
    const seen = fileText === null ? { bom: false, crlf: false } : readAsQwen(fileText);
    return {
      applies: true,
      proposed: writeAsQwen(input.file_path, input.content, seen.crlf, seen.bom),
      isNewFile: fileText === null,
    };
  },
  rewrite: (input, _base, _fileExists, composed) => ({ ...input, content: composed }),
};

export const QWEN_EDIT_TOOLS: readonly EditTool[] = [editTool, writeFileTool];

/** PermissionRequest and PreToolUse stdin: Claude-style. */
const hookStdin = z.looseObject({
  hook_event_name: z.string().optional(),
  session_id: z.string().optional(),
  tool_name: z.string(),
  tool_input: z.unknown(),
  cwd: z.string().optional(),
});

export interface QwenPermissionRequestAnswer {
  hookSpecificOutput: {
    hookEventName: 'PermissionRequest';
    decision:
      { behavior: 'allow'; updatedInput?: Record<string, unknown> } | { behavior: 'deny'; message: string };
  };
}
export interface QwenPostToolUseAnswer {
  hookSpecificOutput: { hookEventName: 'PostToolUse'; additionalContext: string };
}

const permission = (
  decision: QwenPermissionRequestAnswer['hookSpecificOutput']['decision'],
): QwenPermissionRequestAnswer => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });

export const qwenCodec: HookCodec<QwenPermissionRequestAnswer, QwenPostToolUseAnswer> = {
  agent: 'qwen',
  noteVia: 'after',
  tools: QWEN_EDIT_TOOLS,
  /**
   * The review happens in PermissionRequest, the one event whose answer can rewrite the call: it fires
   * only when Qwen would ask the person ("Ask permissions"). PreToolUse is left to Qwen; PostToolUse
   * hands over the note.
   */
  stepOf: (stdin, event) => hookStep(HOOK_TABLES.qwen, stdin, event),
  parse(stdin): HookCall {
    const parsed = hookStdin.safeParse(stdin);
    if (!parsed.success) return { kind: 'cannot-reconstruct', reason: 'not a tool hook input' };
    return toolCall(QWEN_EDIT_TOOLS, HOOK_TABLES.qwen.commandTools, {
      toolName: parsed.data.tool_name,
      toolInput: parsed.data.tool_input,
      cwd: parsed.data.cwd,
      sessionId: parsed.data.session_id,
    });
  },
  encodeApproval: (_call, approved, note) =>
    permission(
      approved
        ? { behavior: 'allow' }
        : { behavior: 'deny', message: note ?? 'The reviewer denied this command in DiffTray.' },
    ),
  encode(call, base, fileExists, decision) {
    // The note cannot ride on this answer: PostToolUse carries it (encodeNote).
    if (decision.kind === 'allow') return permission({ behavior: 'allow' });
    if (decision.kind === 'deny') return permission({ behavior: 'deny', message: decision.reason });
    const updatedInput = rewriteEdit(QWEN_EDIT_TOOLS, call, base, fileExists, decision.composed);
    if (updatedInput === null) {
      return permission({
        behavior: 'deny',
        message: `The reviewer's version of ${call.filePath} cannot be written by ${call.toolName}; the file was left as it was.`,
      });
    }
    return permission({ behavior: 'allow', updatedInput });
  },
  encodeNote: (note) => ({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: note } }),
};

/** Qwen's review request for a parsed call and the file's raw text now (null: no such file). */
export const decodeQwen = (call: HookCall, fileText: string | null) =>
  decodeEdit(QWEN_EDIT_TOOLS, call, fileText);
