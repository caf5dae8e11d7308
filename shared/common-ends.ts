/**
 * The lines two texts share at their start and at their end: what lies there needs no diff, and a
 * character compare costs a fraction of hashing and numbering the lines (line-ids.ts). Both ends are cut at a "\n", which ends a line whatever precedes it, so the
 * lines on either side of a cut are the lines of the whole text.
 */
export interface CommonEnds {
  /** Characters (whole lines) both texts start with. */
  prefix: number;
  /** Characters (whole lines) both texts end with, not overlapping the prefix. */
  suffix: number;
}

export function commonEnds(a: string, b: string): CommonEnds {
  const shorter = Math.min(a.length, b.length);
  let same = 0;
  while (same < shorter && a.charCodeAt(same) === b.charCodeAt(same)) same++;
  const prefix = same === 0 ? 0 : a.lastIndexOf('\n', same - 1) + 1;
  // The end may not reach into the characters the start shares (however they are cut into lines).
  const room = shorter - same;
  let tail = 0;
  while (tail < room && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail++;
  if (tail === 0) return { prefix, suffix: 0 };
  const cut = a.indexOf('\n', a.length - tail);
  return { prefix, suffix: cut === -1 ? 0 : a.length - cut - 1 };
}

/** The lines of `text[0, end)`, where `end` follows a line terminator. */
export function countLines(text: string, end: number): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) count++;
  // A lone "\r" ends a line too.
  for (let i = text.indexOf('\r'); i !== -1 && i < end; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) !== 10) count++;
  }
  return count;
}
