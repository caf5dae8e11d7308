/**
 * The line diff behind every hunk: which lines of a base and a proposal are changed, as maximal runs
 * with no context, minimal (a longest common subsequence stays equal) except on pathological inputs
 * where time is bounded instead. Lines are compared as whole strings, terminators included.
 */

/** One run of changed lines. Line indices are 0-based; ends are exclusive. */
export interface LineChange {
  baseStart: number;
  baseEnd: number;
  proposedStart: number;
  proposedEnd: number;
}

/**
 * The changed runs between two line arrays, in order, each separated from the next by at least one
 * equal line; an ambiguous insertion or deletion is placed as low as possible.
 */
export function diffLines(baseLines: readonly string[], proposedLines: readonly string[]): LineChange[] {
  const n = baseLines.length;
  const m = proposedLines.length;

  // Equal lines at both ends are matched as they are; only the lines between need ids.
  let pre = 0;
  while (pre < n && pre < m && baseLines[pre] === proposedLines[pre]) pre++;
  let suf = 0;
  while (suf < n - pre && suf < m - pre && baseLines[n - 1 - suf] === proposedLines[m - 1 - suf]) suf++;

  // Integer ids make every later comparison a number compare instead of a string compare.
  const ids = new Map<string, number>();
  const a = internRange(baseLines, pre, n - suf, ids);
  const b = internRange(proposedLines, pre, m - suf, ids);
  return diffBetween(baseLines, proposedLines, a, b, pre, suf, ids.size);
}

/**
 * `diffLines` of lines already given as ids (equal ids exactly for equal lines, every line numbered, as
 * line-ids.ts gives them for two texts).
 */
export function diffLineIds(a: Int32Array, b: Int32Array, idCount: number): LineChange[] {
  const n = a.length;
  const m = b.length;
  let pre = 0;
  while (pre < n && pre < m && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < n - pre && suf < m - pre && a[n - 1 - suf] === b[m - 1 - suf]) suf++;
  return diffBetween(a, b, a, b, pre, suf, idCount);
}

/**
 * The diff once `pre` lines at the start and `suf` at the end are known equal; `a` and `b` hold ids for
 * the lines between. `baseLines` and `proposedLines` (strings or ids) compare whole lines anywhere.
 */
function diffBetween(
  baseLines: ArrayLike<string | number>,
  proposedLines: ArrayLike<string | number>,
  a: Int32Array,
  b: Int32Array,
  pre: number,
  suf: number,
  idCount: number,
): LineChange[] {
  const n = a.length;
  const m = b.length;
  const changedA = new Uint8Array(n);
  const changedB = new Uint8Array(m);
  if (pre + suf < n || pre + suf < m) {
    markChanges(a, b, pre, n - suf, pre, m - suf, idCount, changedA, changedB);
  }
  return slideDown(baseLines, proposedLines, changeRuns(changedA, changedB));
}

/** Ids for lines[lo..hi) at their own indices (the rest of the array is left 0 and never read). */
function internRange(lines: readonly string[], lo: number, hi: number, ids: Map<string, number>): Int32Array {
  const out = new Int32Array(lines.length);
  for (let i = lo; i < hi; i++) {
    const line = lines[i]!;
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    out[i] = id;
  }
  return out;
}

const IN_A = 1;
const IN_B = 2;

/**
 * Marks the lines outside a longest common subsequence of a[aLo..aHi) and b[bLo..bHi).
 *
 * Lines that never occur on the other side cannot be matched, so they are marked and dropped before
 * the Myers search: a wholesale rewrite then costs almost nothing instead of O(N·D).
 */
function markChanges(
  a: Int32Array,
  b: Int32Array,
  aLo: number,
  aHi: number,
  bLo: number,
  bHi: number,
  idCount: number,
  changedA: Uint8Array,
  changedB: Uint8Array,
): void {
  if (aLo === aHi && bLo === bHi) return;
  const sides = new Uint8Array(idCount);
  for (let i = aLo; i < aHi; i++) sides[a[i]!] = IN_A;
  for (let j = bLo; j < bHi; j++) {
    const id = b[j]!;
    sides[id] = sides[id]! | IN_B;
  }

  const keepA: number[] = [];
  for (let i = aLo; i < aHi; i++) {
    if (sides[a[i]!]! & IN_B) keepA.push(i);
    else changedA[i] = 1;
  }
  const keepB: number[] = [];
  for (let j = bLo; j < bHi; j++) {
    if (sides[b[j]!]! & IN_A) keepB.push(j);
    else changedB[j] = 1;
  }

  const fa = new Int32Array(keepA.length);
  for (let i = 0; i < keepA.length; i++) fa[i] = a[keepA[i]!]!;
  const fb = new Int32Array(keepB.length);
  for (let j = 0; j < keepB.length; j++) fb[j] = b[keepB[j]!]!;
  const fChangedA = new Uint8Array(fa.length);
  const fChangedB = new Uint8Array(fb.length);
  myers(fa, fb, fChangedA, fChangedB);
  for (let i = 0; i < keepA.length; i++) if (fChangedA[i]) changedA[keepA[i]!] = 1;
  for (let j = 0; j < keepB.length; j++) if (fChangedB[j]) changedB[keepB[j]!] = 1;
}

/**
 * Past this many edit steps in one split, take the furthest-reaching path instead of the exact middle
 * snake (as git's xdiff does): the diff may then be slightly non-minimal, but time stays bounded on
 * pathological inputs such as shuffled files made of a few repeated lines.
 */
const MIN_MAX_COST = 1024;

/** Linear-space Myers (divide and conquer on the middle snake), iterative so deep splits cannot overflow. */
function myers(a: Int32Array, b: Int32Array, changedA: Uint8Array, changedB: Uint8Array): void {
  const n = a.length;
  const m = b.length;
  const maxCost = Math.max(MIN_MAX_COST, Math.ceil(Math.sqrt(n + m)) * 8);
  // Diagonal k = x - y lies in [-m - 1, n + 1]; shift it to a non-negative index.
  const off = m + 1;
  const fwd = new Int32Array(n + m + 3);
  const bwd = new Int32Array(n + m + 3);
  const stack: number[] = [0, n, 0, m];

  while (stack.length > 0) {
    let lim2 = stack.pop()!;
    let off2 = stack.pop()!;
    let lim1 = stack.pop()!;
    let off1 = stack.pop()!;
    while (off1 < lim1 && off2 < lim2 && a[off1] === b[off2]) {
      off1++;
      off2++;
    }
    while (off1 < lim1 && off2 < lim2 && a[lim1 - 1] === b[lim2 - 1]) {
      lim1--;
      lim2--;
    }
    if (off1 === lim1) {
      changedB.fill(1, off2, lim2);
      continue;
    }
    if (off2 === lim2) {
      changedA.fill(1, off1, lim1);
      continue;
    }

    const [x, y] = split(a, b, off1, lim1, off2, lim2, fwd, bwd, off, maxCost);
    if (
      x < off1 ||
      x > lim1 ||
      y < off2 ||
      y > lim2 ||
      (x === off1 && y === off2) ||
      (x === lim1 && y === lim2)
    ) {
      // A split that makes no progress should not happen; a whole replacement is still a correct diff.
      changedA.fill(1, off1, lim1);
      changedB.fill(1, off2, lim2);
      continue;
    }
    stack.push(off1, x, off2, y, x, lim1, y, lim2);
  }
}

/** Finds a point on an optimal (or, past maxCost, a good) edit path through the box; from xdiff's xdl_split. */
function split(
  a: Int32Array,
  b: Int32Array,
  off1: number,
  lim1: number,
  off2: number,
  lim2: number,
  fwd: Int32Array,
  bwd: Int32Array,
  off: number,
  maxCost: number,
): [number, number] {
  const dmin = off1 - lim2;
  const dmax = lim1 - off2;
  const fmid = off1 - off2;
  const bmid = lim1 - lim2;
  const odd = ((fmid - bmid) & 1) !== 0;
  let fmin = fmid;
  let fmax = fmid;
  let bmin = bmid;
  let bmax = bmid;
  fwd[fmid + off] = off1;
  bwd[bmid + off] = lim1;

  for (let cost = 1; ; cost++) {
    if (fmin > dmin) fwd[--fmin - 1 + off] = -1;
    else ++fmin;
    if (fmax < dmax) fwd[++fmax + 1 + off] = -1;
    else --fmax;
    for (let d = fmax; d >= fmin; d -= 2) {
      const left = fwd[d - 1 + off]!;
      const right = fwd[d + 1 + off]!;
      let i1 = left >= right ? left + 1 : right;
      let i2 = i1 - d;
      while (i1 < lim1 && i2 < lim2 && a[i1] === b[i2]) {
        i1++;
        i2++;
      }
      fwd[d + off] = i1;
      if (odd && bmin <= d && d <= bmax && bwd[d + off]! <= i1) return [i1, i2];
    }

    if (bmin > dmin) bwd[--bmin - 1 + off] = 0x7fffffff;
    else ++bmin;
    if (bmax < dmax) bwd[++bmax + 1 + off] = 0x7fffffff;
    else --bmax;
    for (let d = bmax; d >= bmin; d -= 2) {
      const left = bwd[d - 1 + off]!;
      const right = bwd[d + 1 + off]!;
      let i1 = left < right ? left : right - 1;
      let i2 = i1 - d;
      while (i1 > off1 && i2 > off2 && a[i1 - 1] === b[i2 - 1]) {
        i1--;
        i2--;
      }
      bwd[d + off] = i1;
      if (!odd && fmin <= d && d <= fmax && i1 <= fwd[d + off]!) return [i1, i2];
    }

    if (cost >= maxCost) {
      let fbest = -1;
      let fbest1 = -1;
      for (let d = fmax; d >= fmin; d -= 2) {
        let i1 = Math.min(fwd[d + off]!, lim1);
        let i2 = i1 - d;
        if (lim2 < i2) {
          i1 = lim2 + d;
          i2 = lim2;
        }
        if (fbest < i1 + i2) {
          fbest = i1 + i2;
          fbest1 = i1;
        }
      }
      let bbest = 0x7fffffff;
      let bbest1 = 0x7fffffff;
      for (let d = bmax; d >= bmin; d -= 2) {
        let i1 = Math.max(off1, bwd[d + off]!);
        let i2 = i1 - d;
        if (i2 < off2) {
          i1 = off2 + d;
          i2 = off2;
        }
        if (i1 + i2 < bbest) {
          bbest = i1 + i2;
          bbest1 = i1;
        }
      }
      return lim1 + lim2 - bbest < fbest - (off1 + off2)
        ? [fbest1, fbest - fbest1]
        : [bbest1, bbest - bbest1];
    }
  }
}

/** Unchanged lines on both sides pair up in order, so a joint walk yields maximal zero-context runs. */
function changeRuns(changedA: Uint8Array, changedB: Uint8Array): LineChange[] {
  const n = changedA.length;
  const m = changedB.length;
  const runs: LineChange[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && !changedA[i] && !changedB[j]) {
      i++;
      j++;
      continue;
    }
    const baseStart = i;
    const proposedStart = j;
    while (i < n && changedA[i]) i++;
    while (j < m && changedB[j]) j++;
    runs.push({ baseStart, baseEnd: i, proposedStart, proposedEnd: j });
  }
  return runs;
}

/**
 * Where a pure insertion or deletion could sit in several places among repeated lines, the search
 * picks one arbitrarily; moving it as far down as possible (git's convention) makes the choice stable
 * across recomputations, which keeps remapped decisions attached. A run never slides into contact
 * with the next one, so the number of runs does not change.
 */
function slideDown(
  a: ArrayLike<string | number>,
  b: ArrayLike<string | number>,
  runs: LineChange[],
): LineChange[] {
  for (let k = 0; k < runs.length; k++) {
    const run = runs[k]!;
    const next = runs[k + 1];
    const isDeletion = run.proposedStart === run.proposedEnd;
    const isInsertion = run.baseStart === run.baseEnd;
    if (isDeletion === isInsertion) continue;
    const lines = isDeletion ? a : b;
    const limit = isDeletion
      ? next
        ? next.baseStart - 1
        : a.length
      : next
        ? next.proposedStart - 1
        : b.length;
    let start = isDeletion ? run.baseStart : run.proposedStart;
    let end = isDeletion ? run.baseEnd : run.proposedEnd;
    let shift = 0;
    while (end < limit && lines[end] === lines[start]) {
      start++;
      end++;
      shift++;
    }
    run.baseStart += shift;
    run.baseEnd += shift;
    run.proposedStart += shift;
    run.proposedEnd += shift;
  }
  return runs;
}
