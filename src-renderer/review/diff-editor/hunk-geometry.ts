/**
 * What changed between two lists of main's hunks, found without work on key presses: a list that is
 * the same array costs nothing, an unchanged hunk kept by identity costs one comparison, and only
 * when identities differ are a hunk's fields compared. Pure, so it is tested without a DOM.
 */
import type { HunkView } from '../../../shared/app-api';

/** The same line ranges on both sides. */
export function sameGeometry(a: HunkView, b: HunkView): boolean {
  return (
    a === b ||
    (a.baseStart === b.baseStart &&
      a.baseEnd === b.baseEnd &&
      a.proposedStart === b.proposedStart &&
      a.proposedEnd === b.proposedEnd)
  );
}

const sameList = <T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]));

/** The same decision, down to the per-line decisions of a mixed hunk: decorated alike. */
export function sameDecision(a: HunkView, b: HunkView): boolean {
  return (
    a === b ||
    (a.decision === b.decision &&
      sameList(a.lines?.added, b.lines?.added) &&
      sameList(a.lines?.removed, b.lines?.removed))
  );
}

/** Every hunk of `a` and `b` in the same place: the same count and line ranges. */
export function sameGeometryList(a: readonly HunkView[], b: readonly HunkView[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameGeometry(a[i]!, b[i]!)) return false;
  return true;
}

/**
 * Numbers the hunk geometries one editor has been given: the number changes when the line ranges
 * do, not when only decisions do. A list seen last time is answered without looking into it.
 */
export class GeometryVersion {
  private last: readonly HunkView[] | null = null;
  private version = 0;

  of(hunks: readonly HunkView[]): number {
    if (hunks === this.last) return this.version;
    if (this.last === null || !sameGeometryList(this.last, hunks)) this.version += 1;
    this.last = hunks;
    return this.version;
  }
}

/** Positions whose decision decorations differ between two lists of the same geometry. */
export function changedDecisions(before: readonly HunkView[], after: readonly HunkView[]): number[] {
  const changed: number[] = [];
  if (before === after) return changed;
  for (let i = 0; i < after.length; i++) {
    const old = before[i];
    if (!old || !sameDecision(old, after[i]!)) changed.push(i);
  }
  return changed;
}
