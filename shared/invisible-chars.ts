/**
 * Characters that change how a text reads without showing themselves: bidi controls (a command that
 * displays as `rm -rf ./build` but runs something else, "Trojan Source"), zero-width and invisible
 * characters, Unicode tag characters (text an agent can read and the person cannot), and control
 * characters. Text shown for the person's approval marks each of them visibly, as ⟨U+202E⟩.
 */

/** What the person is told about a character when it is marked; the code point is always shown too. */
const NAMES: Record<number, string> = {
  0x00ad: 'soft hyphen',
  0x034f: 'combining grapheme joiner',
  0x061c: 'Arabic letter mark',
  0x180e: 'Mongolian vowel separator',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0xfeff: 'zero-width no-break space',
};

/** Whether a code point is one to mark (tabs and line feeds are shown as what they are). */
export function isInvisibleCodePoint(code: number): boolean {
  if (code === 0x09 || code === 0x0a) return false;
  return (
    code < 0x20 || // C0 controls: a carriage return or an escape can hide what precedes it
    (code >= 0x7f && code <= 0x9f) || // DEL and C1 controls
    code in NAMES ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x206f) || // word joiner, invisible operators, isolates, deprecated format
    (code >= 0xfe00 && code <= 0xfe0f) || // variation selectors
    (code >= 0xfff9 && code <= 0xfffb) || // interlinear annotations
    code === 0x115f ||
    code === 0x1160 ||
    code === 0x3164 ||
    code === 0xffa0 || // Hangul fillers: blank, yet letters
    (code >= 0xe0000 && code <= 0xe007f) || // tag characters
    (code >= 0xe0100 && code <= 0xe01ef) // variation selectors supplement
  );
}

/** A run of ordinary text, or one character that must be marked. */
export type TextPart =
  { kind: 'text'; text: string } | { kind: 'invisible'; codePoint: number; mark: string; name: string };

/** "U+202E". */
export function codePointLabel(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The text cut into ordinary runs and the characters to mark, in order (nothing dropped). */
export function splitInvisibles(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let run = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (!isInvisibleCodePoint(code)) {
      run += char;
      continue;
    }
    if (run !== '') parts.push({ kind: 'text', text: run });
    run = '';
    const label = codePointLabel(code);
    parts.push({
      kind: 'invisible',
      codePoint: code,
      mark: `⟨${label}⟩`,
      name: NAMES[code] ?? 'invisible or control character',
    });
  }
  if (run !== '') parts.push({ kind: 'text', text: run });
  return parts;
}

/** Whether the text holds any character to mark. */
export function hasInvisibles(text: string): boolean {
  return splitInvisibles(text).some((part) => part.kind === 'invisible');
}

/** The text with each such character replaced by its mark (⟨U+202E⟩): for plain-text places. */
export function markInvisibles(text: string): string {
  return splitInvisibles(text)
    .map((part) => (part.kind === 'text' ? part.text : part.mark))
    .join('');
}
