/**
 * The lines of two texts as integer ids, equal exactly when the lines are equal (terminators included),
 * found without making a string per line: each line is hashed as it is scanned for its end, and a hash
 * table of first occurrences settles equality by comparing the characters in place. The diff then
 * compares numbers only (diff.ts). Lines are those of `splitLines` (hunks.ts): after each "\n", "\r\n"
 * or lone "\r"; only the last may lack a terminator.
 */

export interface TextLineIds {
  /** The id of each line of the base, in order. */
  base: Int32Array;
  /** The id of each line of the proposal, in order. */
  proposed: Int32Array;
  /** Ids run from 0 to idCount - 1. */
  idCount: number;
}

/** Where each line of a text ends (exclusive) and its hash, line by line. */
interface ScannedLines {
  ends: number[];
  hashes: number[];
}

/** Lines longer than this are hashed by a sample of their characters (as V8 hashes long strings by length). */
const FULL_HASH_CHARS = 16383;
const SAMPLES = 64;

/**
 * Line ends found by the engine's indexOf; each line hashed with a polynomial over its UTF-16 code units,
 * terminator included, mixed once and kept to 30 bits so it stays a small integer (a larger one would be
 * boxed per line). A very long line (minified code) is hashed by its length and an even sample of its
 * characters: equality is settled by comparing them anyway, and a full pass would cost more than the diff.
 */
function scanLines(text: string, from: number, to: number): ScannedLines {
  const ends: number[] = [];
  const hashes: number[] = [];
  let lf = text.indexOf('\n', from);
  let cr = text.indexOf('\r', from);
  let start = from;
  while (start < to) {
    if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
    if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
    let end = to;
    if (cr !== -1 && cr < to && (lf === -1 || cr < lf) && text.charCodeAt(cr + 1) !== 10) end = cr + 1;
    else if (lf !== -1 && lf < to) end = lf + 1;
    const length = end - start;
    let hash = length;
    if (length <= FULL_HASH_CHARS) {
      // Two characters a step: half as many multiplications in a row.
      let i = start;
      for (; i + 1 < end; i += 2) {
        hash = (Math.imul(hash, 961) + Math.imul(text.charCodeAt(i), 31) + text.charCodeAt(i + 1)) | 0;
      }
      if (i < end) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
    } else {
      const step = Math.floor(length / SAMPLES);
      for (let i = start; i < end; i += step) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
      hash = (Math.imul(hash, 31) + text.charCodeAt(end - 1)) | 0;
    }
    ends.push(end);
    hashes.push(mix(hash));
    start = end;
  }
  return { ends, hashes };
}

/** Spreads the hash's bits so the table's low bits depend on every character. */
function mix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x45d9f3b);
  return (h ^ (h >>> 16)) & 0x3fffffff;
}

function sameChars(a: string, aStart: number, b: string, bStart: number, length: number): boolean {
  // A long line is compared by the engine (a slice is a view, startsWith a memory compare).
  if (length > 256) return a.startsWith(b.slice(bStart, bStart + length), aStart);
  for (let k = 0; k < length; k++) if (a.charCodeAt(aStart + k) !== b.charCodeAt(bStart + k)) return false;
  return true;
}

/**
 * Ids for the lines of `base` and `proposed`, shared between the two texts; with `skip`, only for those
 * between its first and last characters, which must be whole lines (common-ends.ts).
 */
export function textLineIds(
  base: string,
  proposed: string,
  skip: { prefix: number; suffix: number } = { prefix: 0, suffix: 0 },
): TextLineIds {
  const texts = [base, proposed];
  const scanned = [
    scanLines(base, skip.prefix, base.length - skip.suffix),
    scanLines(proposed, skip.prefix, proposed.length - skip.suffix),
  ];
  const lineCount = scanned[0]!.ends.length + scanned[1]!.ends.length;
  let capacity = 16;
  while (capacity < lineCount * 2) capacity *= 2;
  const mask = capacity - 1;
  // Slot -> id + 1 (0: empty). Each id remembers its hash and where its first occurrence is.
  const slots = new Int32Array(capacity);
  const idHash = new Int32Array(lineCount);
  const idText = new Uint8Array(lineCount);
  const idStart = new Int32Array(lineCount);
  const idLength = new Int32Array(lineCount);
  let idCount = 0;

  const ids = scanned.map(({ ends, hashes }, side) => {
    const text = texts[side]!;
    const out = new Int32Array(ends.length);
    let start = skip.prefix;
    for (let line = 0; line < ends.length; line++) {
      const end = ends[line]!;
      const hash = hashes[line]!;
      const length = end - start;
      let slot = hash & mask;
      let id: number;
      for (;;) {
        const held = slots[slot]!;
        if (held === 0) {
          id = idCount++;
          slots[slot] = id + 1;
          idHash[id] = hash;
          idText[id] = side;
          idStart[id] = start;
          idLength[id] = length;
          break;
        }
        const candidate = held - 1;
        if (
          idHash[candidate] === hash &&
          idLength[candidate] === length &&
          sameChars(texts[idText[candidate]!]!, idStart[candidate]!, text, start, length)
        ) {
          id = candidate;
          break;
        }
        slot = (slot + 1) & mask;
      }
      out[line] = id;
      start = end;
    }
    return out;
  });
  return { base: ids[0]!, proposed: ids[1]!, idCount };
}
