/**
 * Rejected hunks stay readable (issue 27): a rejected proposed line's text (--rejected-text, struck
 * through) over everything painted under it — the editor's background or a selection, Monaco's inserted-line and
 * inserted-text tints, the rejected line's --reject-bg — meets WCAG AA (4.5:1) in both themes. The colours
 * are the real tokens: styles.css as shipped, and the Monaco themes of review/diff-colours.ts. The tints
 * are translucent and Monaco stacks them in an order of its own, so every order and subset is tried.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIFF_THEMES } from '../../../src-renderer/review/diff-colours';
import type { ResolvedTheme } from '../../../src-renderer/state/theme';
import { composite, contrastRatio, parseColour, type Rgba } from '../../support/wcag-contrast';

const AA = 4.5;
const STYLES = readFileSync(path.resolve(__dirname, '../../../src-renderer/styles.css'), 'utf8');

/** The custom properties declared in the first rule whose selector is exactly `selector`. */
function tokensOf(selector: string): Map<string, string> {
  const start = STYLES.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`styles.css has no rule ${selector}`);
  const body = STYLES.slice(start, STYLES.indexOf('}', start));
  return new Map([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}

/** The theme's tokens as the page resolves them: dark overrides the light defaults of :root. */
function tokens(theme: ResolvedTheme): (name: string) => Rgba {
  const resolved = new Map(tokensOf(':root'));
  if (theme === 'dark')
    for (const [name, value] of tokensOf(":root[data-theme='dark']")) resolved.set(name, value);
  return (name) => {
    const value = resolved.get(name);
    if (value === undefined) throw new Error(`styles.css declares no ${name} for ${theme}`);
    return parseColour(value);
  };
}

/** Every ordering of every subset of `layers` (the empty one too). */
function stackings<T>(layers: readonly T[]): T[][] {
  const result: T[][] = [[]];
  layers.forEach((layer, i) => {
    const rest = layers.filter((_, j) => j !== i);
    for (const tail of stackings(rest)) result.push([layer, ...tail]);
  });
  return result;
}

/** The lowest contrast of `text` over any of `bases` under any stacking of `tints`. */
function worstContrast(text: Rgba, bases: readonly Rgba[], tints: readonly Rgba[]): number {
  return Math.min(
    ...bases.flatMap((base) =>
      stackings(tints).map((stack) => contrastRatio(text, composite(base, ...stack))),
    ),
  );
}

describe('the contrast function', () => {
  it('gives the known ratios', () => {
    expect(contrastRatio(parseColour('#000'), parseColour('#fff'))).toBeCloseTo(21, 5);
    expect(contrastRatio(parseColour('#777777'), parseColour('#ffffff'))).toBeCloseTo(4.48, 2);
    expect(contrastRatio(parseColour('#ffffff'), parseColour('#ffffff'))).toBe(1);
    // Half-transparent black over white is mid grey.
    const grey = composite(parseColour('#ffffff'), parseColour('rgba(0, 0, 0, 0.5)'));
    expect(grey.r).toBeCloseTo(127.5, 5);
    expect(parseColour('#ff000080').a).toBeCloseTo(128 / 255, 5);
  });
});

describe.each(['light', 'dark'] as const)('in the %s theme', (theme) => {
  const token = tokens(theme);
  const monaco = DIFF_THEMES[theme].colors;
  // What a line's text can sit on before the tints: the editor, or the line selected (active or not).
  const bases = (
    ['editor.background', 'editor.selectionBackground', 'editor.inactiveSelectionBackground'] as const
  ).map((id) => parseColour(monaco[id]));
  const inserted = [
    parseColour(monaco['diffEditor.insertedLineBackground']),
    parseColour(monaco['diffEditor.insertedTextBackground']),
  ];

  it('a rejected line’s text meets 4.5:1 over the insert tints and --reject-bg', () => {
    const ratio = worstContrast(token('--rejected-text'), bases, [...inserted, token('--reject-bg')]);
    expect(ratio).toBeGreaterThanOrEqual(AA);
  });

  it('so does plain text on an inserted or accepted line', () => {
    const text = parseColour(monaco['editor.foreground']);
    expect(worstContrast(text, bases, [...inserted, token('--accept-bg')])).toBeGreaterThanOrEqual(AA);
  });

  it('the decision pills (accepted, rejected) meet 4.5:1 on their tint over the panel', () => {
    expect(
      contrastRatio(token('--accept'), composite(token('--panel'), token('--accept-bg'))),
    ).toBeGreaterThanOrEqual(AA);
    expect(
      contrastRatio(token('--reject'), composite(token('--panel'), token('--reject-bg'))),
    ).toBeGreaterThanOrEqual(AA);
    expect(contrastRatio(token('--on-accept'), token('--accept'))).toBeGreaterThanOrEqual(AA);
  });

  it('line numbers, the final empty line’s too, meet 4.5:1, on inserted lines as well', () => {
    for (const id of ['editorLineNumber.foreground', 'editorLineNumber.dimmedForeground'] as const) {
      const ratio = worstContrast(
        parseColour(monaco[id]),
        [parseColour(monaco['editorGutter.background'])],
        [parseColour(monaco['diffEditor.insertedLineBackground'])],
      );
      expect(ratio, id).toBeGreaterThanOrEqual(AA);
    }
  });
});
