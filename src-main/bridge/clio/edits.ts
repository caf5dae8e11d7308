/**
 * Range edits as Clio sends them (LSP's TextEdit): 0-based line and character, characters counted in
 * UTF-16 code units, lines ended by "\n", "\r\n" or "\r". All ranges refer to the original text.
 *
 * Stricter than LSP on purpose: a position past the end of its line or of the file is refused rather
 * than clamped, as are overlapping edits, a position inside a surrogate pair, and an `oldText` that is
 * not what the range holds: a proposal built on a wrong idea of the file must not reach review looking
 * plausible. (A line's length excludes its terminator, so no position can fall inside a "\r\n".)
 */

export interface Position {
  line: number;
  character: number;
}

export interface RangeEdit {
  range: { start: Position; end: Position };
  /** When given, the text the range must hold now. */
  oldText?: string;
  newText: string;
}

export class RangeEditError extends Error {}

/** Start offset of every line, and the offset where each line's content ends (before its terminator). */
export function lineTable(text: string): { starts: number[]; ends: number[] } {
  const starts = [0];
  const ends: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || code === 0x0d) {
      ends.push(i);
      if (code === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
      starts.push(i + 1);
    }
  }
  ends.push(text.length);
  return { starts, ends };
}

/** The offset of `position` in `text`, or a RangeEditError saying why there is none. */
export function offsetAt(
  table: { starts: number[]; ends: number[] },
  text: string,
  position: Position,
  label: string,
): number {
  const { line, character } = position;
  const lineCount = table.starts.length;
  if (line >= lineCount) {
    throw new RangeEditError(`${label} line ${line} is past the end of the file (lines 0–${lineCount - 1})`);
  }
  const start = table.starts[line]!;
  const length = table.ends[line]! - start;
  if (character > length) {
    throw new RangeEditError(
      `${label} character ${character} is past the end of line ${line} (length ${length})`,
    );
  }
  const offset = start + character;
  if (isHighSurrogate(text.charCodeAt(offset - 1)) && isLowSurrogate(text.charCodeAt(offset))) {
    throw new RangeEditError(`${label} ${line}:${character} splits a surrogate pair`);
  }
  return offset;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

interface Resolved {
  index: number;
  start: number;
  end: number;
  newText: string;
}

/**
 * Applies `edits` to `text`. Edits may come in any order; edits touching at one point are allowed and
 * insertions at the same point keep their order in the array (as LSP specifies).
 */
export function applyRangeEdits(text: string, edits: readonly RangeEdit[]): string {
  const table = lineTable(text);
  const resolved: Resolved[] = edits.map((edit, index) => {
    const label = `edits[${index}]`;
    const start = offsetAt(table, text, edit.range.start, `${label}: start`);
    const end = offsetAt(table, text, edit.range.end, `${label}: end`);
    if (end < start) throw new RangeEditError(`${label}: the range ends before it starts`);
    if (edit.oldText !== undefined) {
      const found = text.slice(start, end);
      if (found !== edit.oldText) {
        throw new RangeEditError(
          `${label}: oldText does not match the file: expected ${quote(edit.oldText)}, found ${quote(found)}`,
        );
      }
    }
    return { index, start, end, newText: edit.newText };
  });
  // By position; an insertion before a replacement starting at the same point; otherwise array order.
  const sorted = [...resolved].sort((a, b) => a.start - b.start || a.end - b.end || a.index - b.index);
  let result = '';
  let cursor = 0;
  let previous: Resolved | undefined;
  for (const edit of sorted) {
    if (previous && edit.start < previous.end) {
      const [first, second] = [previous.index, edit.index].sort((a, b) => a - b);
      throw new RangeEditError(`edits[${first}] and edits[${second}] overlap`);
    }
    result += text.slice(cursor, edit.start) + edit.newText;
    cursor = edit.end;
    previous = edit;
  }
  return result + text.slice(cursor);
}

/** A short JSON rendering of text for error messages. */
function quote(text: string, max = 80): string {
  const shown = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(shown);
}
