/** Bidi, zero-width and control characters in text to approve are marked visibly (⟨U+202E⟩). */
import { describe, expect, it } from 'vitest';
import { hasInvisibles, markInvisibles, splitInvisibles } from '../../shared/invisible-chars';

describe('markInvisibles', () => {
  it('marks a right-to-left override that makes a command read as another (Trojan Source)', () => {
    const command = 'echo safe \u202E; rm -rf ~ #\u202C';
    expect(markInvisibles(command)).toBe('echo safe ⟨U+202E⟩; rm -rf ~ #⟨U+202C⟩');
  });

  it.each([
    [0x202a, 0x202e],
    [0x2066, 0x2069],
    [0x200b, 0x200f],
    [0x2028, 0x2029],
    [0xfeff, 0xfeff],
    [0x00ad, 0x00ad],
    [0x061c, 0x061c],
    [0x2060, 0x2064],
    [0xe0041, 0xe0041],
    [0x0000, 0x0008],
    [0x000d, 0x000d],
    [0x001b, 0x001b],
    [0x007f, 0x009f],
  ])('marks U+%s–U+%s', (from, to) => {
    for (let code = from; code <= to; code++) {
      const text = `a${String.fromCodePoint(code)}b`;
      const label = code.toString(16).toUpperCase().padStart(4, '0');
      expect(markInvisibles(text)).toBe(`a⟨U+${label}⟩b`);
    }
  });

  it('leaves ordinary text alone: tabs, line feeds, accents, other scripts, emoji', () => {
    const text = 'ls\t-la\n# café, Ελληνικά, עברית, 日本語, 👍';
    expect(markInvisibles(text)).toBe(text);
    expect(hasInvisibles(text)).toBe(false);
  });

  it('names each character and loses nothing', () => {
    const parts = splitInvisibles('x\u200By\u202E');
    expect(parts).toEqual([
      { kind: 'text', text: 'x' },
      { kind: 'invisible', codePoint: 0x200b, mark: '⟨U+200B⟩', name: 'zero-width space' },
      { kind: 'text', text: 'y' },
      { kind: 'invisible', codePoint: 0x202e, mark: '⟨U+202E⟩', name: 'right-to-left override' },
    ]);
    expect(hasInvisibles('x\u200By')).toBe(true);
    const back = parts.map((p) => (p.kind === 'text' ? p.text : String.fromCodePoint(p.codePoint))).join('');
    expect(back).toBe('x\u200By\u202E');
  });
});
