/**
 * WCAG 2 contrast, for checking the app's colour tokens: colours parsed from CSS (#rgb, #rrggbb,
 * #rrggbbaa, rgb()/rgba()), translucent layers composited over an opaque one ("source over"), and the
 * contrast ratio of two opaque colours (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio).
 */

export interface Rgba {
  /** 0–255 each. */
  r: number;
  g: number;
  b: number;
  /** 0–1. */
  a: number;
}

export function parseColour(text: string): Rgba {
  const value = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(value)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    const byte = (i: number) => parseInt(full.slice(i, i + 2), 16);
    return { r: byte(0), g: byte(2), b: byte(4), a: full.length === 8 ? byte(6) / 255 : 1 };
  }
  const fn = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)$/.exec(value);
  if (fn) {
    return {
      r: Number(fn[1]),
      g: Number(fn[2]),
      b: Number(fn[3]),
      a: fn[4] === undefined ? 1 : Number(fn[4]),
    };
  }
  throw new Error(`Not a colour this parser reads: ${text}`);
}

/** `layers` painted in order over the opaque `base`. */
export function composite(base: Rgba, ...layers: Rgba[]): Rgba {
  if (base.a !== 1) throw new Error('The bottom layer must be opaque');
  return layers.reduce(
    (under, over) => ({
      r: over.r * over.a + under.r * (1 - over.a),
      g: over.g * over.a + under.g * (1 - over.a),
      b: over.b * over.a + under.b * (1 - over.a),
      a: 1,
    }),
    base,
  );
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance({ r, g, b }: Rgba): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** From 1 (none) to 21 (black on white); both colours opaque. */
export function contrastRatio(foreground: Rgba, background: Rgba): number {
  if (foreground.a !== 1 || background.a !== 1) throw new Error('Composite translucent colours first');
  const [light, dark] = [relativeLuminance(foreground), relativeLuminance(background)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}
