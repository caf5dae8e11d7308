/**
 * How Codex finds a chunk's lines in a file: the first position at or after `start` where the pattern
 * matches, trying four ever looser comparisons in turn over the whole range (exact, trailing white space
 * ignored, white space at both ends ignored, then typographic punctuation read as ASCII). With `eof`, only
 * the last possible position is tried, if it is not before `start`. An empty pattern matches at `start`.
 */
import { rustTrim, rustTrimEnd } from './rust-text';

const DASHES = /[\u2010-\u2015\u2212]/g;
const SINGLE_QUOTES = /[\u2018-\u201B]/g;
const DOUBLE_QUOTES = /[\u201C-\u201F]/g;
const ODD_SPACES = /[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g;

/** The loosest comparison: trimmed, with Unicode dashes, quotes and spaces as their ASCII look-alikes. */
function normalisePunctuation(s: string): string {
  return rustTrim(s)
    .replace(DASHES, '-')
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"')
    .replace(ODD_SPACES, ' ');
}

const COMPARISONS: readonly ((s: string) => string)[] = [
  (s) => s,
  rustTrimEnd,
  rustTrim,
  normalisePunctuation,
];

export function seekSequence(
  lines: readonly string[],
  pattern: readonly string[],
  start: number,
  eof: boolean,
): number | null {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return null;
  const last = lines.length - pattern.length;
  // End-anchored: only the last position, and not before `start` (checked against the 0.171.0 binary).
  const from = eof ? Math.max(start, last) : start;
  for (const view of COMPARISONS) {
    const wanted = pattern.map(view);
    for (let i = from; i <= last; i++) {
      if (wanted.every((line, k) => view(lines[i + k] ?? '') === line)) return i;
    }
  }
  return null;
}
