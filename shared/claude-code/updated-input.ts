/**
 * The `updatedInput` the hook answers with when the reviewer accepted only some hunks or edited the
 * proposal: a tool input that Claude Code, applying it as it does (edit-replay.ts), turns into exactly
 * the text the person composed.
 *
 * An Edit becomes one replacement of whole lines of the file, as few as make its old_string unique
 * (widened by 1, 2, 4… lines on each side, so a file of repeated lines costs log n tries, not n), checked
 * by replaying it; the whole file is the last resort. Claude edits the text with "\r\n" read as "\n" and
 * writes a CRLF file back with "\r\n" everywhere, so the edit is computed on those LF forms.
 *
 * The one inexactness: a file with mixed line endings (or lone "\r" line breaks) comes back from any
 * Edit with Claude's line endings throughout, so a composed text that keeps the mix cannot be written
 * by an Edit; the input then yields the composed text with Claude's line endings. When the composed
 * text differs from the file only in line endings, no Edit can express it at all: null.
 *
 * A file's byte-order mark is out of reach: Claude keeps it whatever the input says (edit-replay.ts), so
 * an Edit replaces text after it, and a composed text that drops it is null for every tool. A Write's
 * content keeps the mark, so both versions write the same bytes (2.1.197 writes content as given).
 */
import { findReplacement } from '../hooks/replace-search';
import type { EditToolName } from './edit-replay';
import { detectLineEndings, leadingBom, replayEdit, toCrlf, toLf } from './edit-replay';

export type ToolInput = Record<string, unknown>;

/**
 * The input for `toolName` (same file as `toolInput`) that turns `base` (the file's raw text, "" for a
 * new file) into `composed`. `composed` must differ from `base` (an unchanged file is a deny, not an
 * input). Null when the tool cannot express it (see above).
 */
export function updatedInputFor(
  toolName: EditToolName,
  toolInput: ToolInput,
  base: string,
  composed: string,
): ToolInput | null {
  const bom = leadingBom(base);
  if (!composed.startsWith(bom)) return null;
  if (toolName === 'Write') return { ...toolInput, content: composed };
  const filePath = toolInput.file_path;
  if (typeof filePath !== 'string') return null;
  const asInput = (oldString: string, newString: string): ToolInput => {
    const edit = { old_string: oldString, new_string: newString, replace_all: false };
    return toolName === 'Edit' ? { file_path: filePath, ...edit } : { file_path: filePath, edits: [edit] };
  };
  const content = toLf(base.slice(bom.length));
  const rest = composed.slice(bom.length);
  // An empty file: Claude's "create" form writes new_string as given, line endings and all.
  if (content === '') return rest === '' ? null : asInput('', rest);
  const crlf = detectLineEndings(base) === 'CRLF';
  const wanted = crlf ? crlfPreimage(rest) : toLf(rest);
  if (wanted === content) return null;
  const target = bom + (crlf ? toCrlf(rest) : wanted);
  const found = findReplacement(content, wanted, (oldString, newString) => {
    const replay = replayEdit(toolName, asInput(oldString, newString), base);
    return replay.applies && replay.proposed === target;
  });
  return found ? asInput(...found) : null;
}

/**
 * The text an Edit must leave (in the LF form Claude edits) for Claude to write a CRLF file back as
 * `toCrlf(text)`. Usually just `toLf(text)`; but a lone "\r" before a line break reads as "\r\n" there,
 * which Claude's own "\r\n"-to-"\n" pass would fold again, so it is spelled "\r\r\n" to survive it.
 */
function crlfPreimage(text: string): string {
  return toLf(toCrlf(text)).replaceAll('\r\n', '\r\r\n');
}
