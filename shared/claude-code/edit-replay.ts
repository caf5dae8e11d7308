/**
 * What Claude Code (2.1.197 to 2.1.332) would write for an Edit, MultiEdit or Write, given the file as
 * the hook read it: so the reviewer sees exactly the bytes that reach the disk, and `updatedInput` can be
 * checked by replaying it. Read out of the shipped binary, and checked against both versions:
 * - Claude reads a file as UTF-8 (UTF-16LE with a FF FE mark, which the caller refuses: pass only text
 *   decoded from UTF-8, with a BOM kept as U+FEFF) and works on it with every "\r\n" as "\n".
 * - A byte-order mark is kept: Edit and MultiEdit work on the text after it and write it back in front
 *   (2.1.332; 2.1.197 works on the text with the mark, which differs only for an old_string holding the
 *   mark itself: the replay takes the stricter reading, it does not apply). Write puts the file's mark
 *   in front of a `content` that lacks it (2.1.332; 2.1.197 writes `content` as given, so the hook
 *   answers such a Write with the content spelled out, mark included: hook-answer.ts).
 * - Edit and MultiEdit write their result back with the file's line endings: CRLF when, in the first
 *   4096 characters, "\r\n" outnumbers lone "\n" — then every line ends in "\r\n", whatever it had.
 * - A final newline, present or missing, stays as the edit leaves it; Write writes `content`'s.
 * When the input would fail in Claude (old_string missing or ambiguous, nothing changed, …) the replay
 * says it does not apply: the hook then gives no decision and Claude reports its own error.
 *
 * 2.1.197 has no MultiEdit tool (only the name in its permission lists); MultiEdit follows the
 * multi-edit core Edit runs on [KCo], held to the strictest reading where versions differed: each
 * old_string must occur as written and, without replace_all, once.
 *
 * Not modelled: Claude adding `originSessionId` front matter to its own memory files (.md under its
 * config folder), and the notebook tool (Edit refuses .ipynb; so does the replay).
 */
import { applyReplacement, findActualString, preserveEscapeStyle, preserveQuoteStyle } from './edit-strings';
import { isRecord } from '../is-record';

export const EDIT_TOOL_NAMES = ['Edit', 'MultiEdit', 'Write'] as const;
export type EditToolName = (typeof EDIT_TOOL_NAMES)[number];

export function isEditToolName(name: string): name is EditToolName {
  return (EDIT_TOOL_NAMES as readonly string[]).includes(name);
}

export type LineEndings = 'LF' | 'CRLF';

export type EditReplay =
  | {
      applies: true;
      /** The file's text as on disk ("" for a new file). */
      base: string;
      /** The text Claude would write, line endings included. */
      proposed: string;
      isNewFile: boolean;
      /** The line endings Claude writes an Edit or MultiEdit back with. */
      lineEndings: LineEndings;
    }
  | { applies: false; reason: string };

export interface EditInput {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/** The byte-order mark, as UTF-8 text decodes it. */
export const BOM = '\uFEFF';

/** The byte-order mark `text` starts with, or "". */
export const leadingBom = (text: string): string => (text.startsWith(BOM) ? BOM : '');

/** How Claude reads a file's text: every "\r\n" as "\n". */
export const toLf = (text: string): string => text.replaceAll('\r\n', '\n');

/** How Claude writes a CRLF file back: every line break as "\r\n". */
export const toCrlf = (text: string): string => toLf(text).split('\n').join('\r\n');

/** CRLF when "\r\n" outnumbers lone "\n" in the first 4096 characters [omn]. */
export function detectLineEndings(raw: string): LineEndings {
  const head = raw.slice(0, 4096);
  let crlf = 0;
  let lf = 0;
  for (let i = 0; i < head.length; i++) {
    if (head[i] !== '\n') continue;
    if (i > 0 && head[i - 1] === '\r') crlf++;
    else lf++;
  }
  return crlf > lf ? 'CRLF' : 'LF';
}

function parseEdit(value: unknown): Omit<EditInput, 'file_path'> | null {
  if (!isRecord(value)) return null;
  const { old_string, new_string, replace_all } = value;
  if (typeof old_string !== 'string' || typeof new_string !== 'string') return null;
  if (replace_all !== undefined && typeof replace_all !== 'boolean') return null;
  return { old_string, new_string, replace_all };
}

const notApplied = (reason: string): EditReplay => ({ applies: false, reason });

/**
 * What Claude Code would write for `toolName` with `toolInput`, against `fileText` (the file's raw text,
 * or null when it does not exist).
 */
export function replayEdit(toolName: string, toolInput: unknown, fileText: string | null): EditReplay {
  if (!isRecord(toolInput) || typeof toolInput.file_path !== 'string') return notApplied('no file_path');
  if (toolName === 'Write') {
    if (typeof toolInput.content !== 'string') return notApplied('no content');
    const base = fileText ?? '';
    const content = toolInput.content;
    return {
      applies: true,
      base,
      proposed: content.startsWith(BOM) ? content : leadingBom(base) + content,
      isNewFile: fileText === null,
      lineEndings: detectLineEndings(base),
    };
  }
  if (toolName === 'Edit') {
    const edit = parseEdit(toolInput);
    if (!edit) return notApplied('old_string and new_string must be strings');
    return replayEditTool(toolInput.file_path, edit, fileText);
  }
  if (toolName === 'MultiEdit') {
    const { edits } = toolInput;
    if (!Array.isArray(edits) || edits.length === 0) return notApplied('no edits');
    const parsed = edits.map(parseEdit);
    if (parsed.some((edit) => edit === null)) return notApplied('every edit needs old_string and new_string');
    return replayMultiEdit(parsed as Array<Omit<EditInput, 'file_path'>>, fileText);
  }
  return notApplied(`${toolName} does not edit files`);
}

/** Claude's Edit tool: its checks [validateInput], then its replacement [call]. */
function replayEditTool(
  filePath: string,
  {
    old_string: oldString,
    new_string: newString,
    replace_all: replaceAll = false,
  }: Omit<EditInput, 'file_path'>,
  fileText: string | null,
): EditReplay {
  if (oldString === newString) return notApplied('old_string and new_string are the same');
  if (fileText === null) {
    if (oldString !== '') return notApplied('the file does not exist');
    return { applies: true, base: '', proposed: newString, isNewFile: true, lineEndings: 'LF' };
  }
  const lineEndings = detectLineEndings(fileText);
  const bom = leadingBom(fileText);
  const content = toLf(fileText.slice(bom.length));
  const written = (result: string): EditReplay =>
    result === content
      ? notApplied('the edit changes nothing')
      : {
          applies: true,
          base: fileText,
          proposed: bom + withLineEndings(result, lineEndings),
          isNewFile: false,
          lineEndings,
        };
  if (oldString === '') {
    if (content.trim() !== '') return notApplied('cannot create the file: it already exists');
    return written(newString);
  }
  if (filePath.endsWith('.ipynb')) return notApplied('notebooks are edited with NotebookEdit');
  const actualOld = findActualString(content, oldString);
  if (actualOld === null) return notApplied('old_string not found');
  if (!replaceAll && content.split(actualOld).length - 1 > 1) return notApplied('old_string is not unique');
  const newText = preserveEscapeStyle(
    oldString,
    actualOld,
    preserveQuoteStyle(oldString, actualOld, newString),
  );
  return written(applyReplacement(content, actualOld, newText, replaceAll));
}

/** Edits in order, each on the text the previous one left [KCo]. */
function replayMultiEdit(edits: Array<Omit<EditInput, 'file_path'>>, fileText: string | null): EditReplay {
  const lineEndings = fileText === null ? 'LF' : detectLineEndings(fileText);
  const bom = leadingBom(fileText ?? '');
  const original = fileText === null ? '' : toLf(fileText.slice(bom.length));
  let content = original;
  const earlierNewStrings: string[] = [];
  for (const { old_string: oldString, new_string: newString, replace_all: replaceAll = false } of edits) {
    const trimmed = oldString.replace(/\n+$/, '');
    if (trimmed !== '' && earlierNewStrings.some((earlier) => earlier.includes(trimmed))) {
      return notApplied('an old_string is part of an earlier edit’s new_string');
    }
    const before = content;
    if (oldString === '') {
      if (content.trim() !== '') return notApplied('cannot create the file: it already exists');
      content = newString;
    } else {
      if (!content.includes(oldString)) return notApplied('old_string not found');
      if (!replaceAll && content.split(oldString).length - 1 > 1)
        return notApplied('old_string is not unique');
      content = applyReplacement(content, oldString, newString, replaceAll);
    }
    if (content === before) return notApplied('an edit changes nothing');
    earlierNewStrings.push(newString);
  }
  if (content === original) return notApplied('the edits change nothing');
  return {
    applies: true,
    base: fileText ?? '',
    proposed: bom + withLineEndings(content, lineEndings),
    isNewFile: fileText === null,
    lineEndings,
  };
}

function withLineEndings(text: string, lineEndings: LineEndings): string {
  return lineEndings === 'CRLF' ? toCrlf(text) : text;
}
