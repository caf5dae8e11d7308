/**
 * The search every old/new-string edit tool's rewrite shares: one replacement of whole lines, as few as
 * make the old string unique (widened by 1, 2, 4… lines on each side, so a file of repeated lines costs
 * log n tries), each candidate checked by the caller (a replay of the agent's own rules), on the text form
 * the agent edits (e.g. with "\r\n" read as "\n"). Claude Code's updated-input.ts uses it too.
 */

/**
 * The first [oldString, newString] pair, taken from `content` and `wanted` at the same whole-line span,
 * that `accept` takes; null when none (the whole text is the last candidate).
 */
export function findReplacement(
  content: string,
  wanted: string,
  accept: (oldString: string, newString: string) => boolean,
): [string, string] | null {
  if (content === wanted) return null;
  for (const [start, end] of candidateSpans(content, wanted)) {
    const oldString = content.slice(start, end);
    if (oldString === '' || occursMoreThanOnce(content, oldString)) continue;
    const newString = wanted.slice(start, wanted.length - (content.length - end));
    if (accept(oldString, newString)) return [oldString, newString];
  }
  return null;
}

/** Whether `needle` occurs in `text` more than once, overlapping occurrences included. */
export function occursMoreThanOnce(text: string, needle: string): boolean {
  const first = text.indexOf(needle);
  return first !== -1 && text.indexOf(needle, first + 1) !== -1;
}

/** Occurrences of `needle` in `text`, not overlapping (as `split` counts them). */
export function countOccurrences(text: string, needle: string): number {
  return needle === '' ? 0 : text.split(needle).length - 1;
}

/** Spans [start, end) of whole lines covering every difference, each wider than the last. */
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
      start = start === 0 ? 0 : lineStartOf(content, start - 1);
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

/** The start of the line holding position `at`. */
function lineStartOf(text: string, at: number): number {
  let i = at;
  while (i > 0 && text[i - 1] !== '\n') i--;
  return i;
}

/** Just past the line break at or after `at` (the text's end if none). */
function lineEndAfter(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const lineBreak = text.indexOf('\n', at);
  return lineBreak === -1 ? text.length : lineBreak + 1;
}
