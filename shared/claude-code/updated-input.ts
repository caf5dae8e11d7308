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
 */
import { occursMoreThanOnce } from './edit-strings';
import type { EditToolName } from './edit-replay';
import { detectLineEndings, replayEdit, toCrlf, toLf } from './edit-replay';

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
  if (toolName === 'Write') return { ...toolInput, content: composed };
  const filePath = toolInput.file_path;
  if (typeof filePath !== 'string') return null;
  const asInput = (oldString: string, newString: string): ToolInput => {
    const edit = { old_string: oldString, new_string: newString, replace_all: false };
    return toolName === 'Edit' ? { file_path: filePath, ...edit } : { file_path: filePath, edits: [edit] };
  };
  const content = toLf(base);
  // An empty file: Claude's "create" form writes new_string as given, line endings and all.
  if (content === '') return composed === '' ? null : asInput('', composed);
  const wanted = toLf(composed);
  if (wanted === content) return null;
  const target = detectLineEndings(base) === 'CRLF' ? toCrlf(wanted) : wanted;
  for (const [start, end] of candidateSpans(content, wanted)) {
    const oldString = content.slice(start, end);
    if (oldString === '' || occursMoreThanOnce(content, oldString)) continue;
    const newString = wanted.slice(start, wanted.length - (content.length - end));
    const input = asInput(oldString, newString);
    const replay = replayEdit(toolName, input, base);
    if (replay.applies && replay.proposed === target) return input;
  }
  return null;
}

/**
 * Spans [start, end) of `content`, whole lines covering every difference from `wanted`, each wider than
 * the last, ending with the whole text.
 */
function* candidateSpans(content: string, wanted: string): Generator<[number, number]> {
  const prefix = commonPrefixLength(content, wanted);
  const suffix = commonSuffixLength(content, wanted, prefix);
  let start = lineStartOf(content, prefix);
  const changedEnd = content.length - suffix;
  let end =
    changedEnd > start && content[changedEnd - 1] === '\n' ? changedEnd : lineEndAfter(content, changedEnd);
  for (let widen = 1; ; widen *= 2) {
    yield [start, end];
    if (start === 0 && end === content.length) return;
    for (let i = 0; i < widen; i++) {
      start = previousLineStart(content, start);
      end = lineEndAfter(content, end);
    }
  }
}

function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The common suffix, not reaching into the first `prefix` characters of either text. */
function commonSuffixLength(a: string, b: string, prefix: number): number {
  const limit = Math.min(a.length, b.length) - prefix;
  let i = 0;
  while (i < limit && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/** The start of the line that holds position `at` (the text's end counts as a position). */
function lineStartOf(text: string, at: number): number {
  let i = at;
  while (i > 0 && text[i - 1] !== '\n') i--;
  return i;
}

/** The start of the line before the one starting at `start`. */
function previousLineStart(text: string, start: number): number {
  return start === 0 ? 0 : lineStartOf(text, start - 1);
}

/** Just past the line break at or after `at` (the text's end if none). */
function lineEndAfter(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const lineBreak = text.indexOf('\n', at);
  return lineBreak === -1 ? text.length : lineBreak + 1;
}
