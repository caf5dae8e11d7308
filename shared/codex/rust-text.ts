/**
 * Rust's string helpers that Codex's apply_patch relies on, reproduced exactly: JavaScript's `trim`
 * differs (it strips U+FEFF, which Rust keeps, and keeps U+0085, which Rust strips).
 */

/** Rust's `char::is_whitespace` (the Unicode White_Space property). */
function isRustWhitespace(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

export function rustTrimEnd(s: string): string {
  let end = s.length;
  while (end > 0 && isRustWhitespace(s.charAt(end - 1))) end--;
  return s.slice(0, end);
}

export function rustTrimStart(s: string): string {
  let start = 0;
  while (start < s.length && isRustWhitespace(s.charAt(start))) start++;
  return s.slice(start);
}

export const rustTrim = (s: string): string => rustTrimStart(rustTrimEnd(s));

/** Rust's `str::lines`: split at "\n", drop one "\r" before it, no empty last line after a final "\n". */
export function rustLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}
