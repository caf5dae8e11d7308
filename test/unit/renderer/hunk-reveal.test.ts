import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  foldedRuns,
  hunkViewRanges,
  sameRuns,
  unfoldTargets,
  type LineProbe,
  type LineRange,
} from '../../../src-renderer/review/hunk-reveal';

const LINE_HEIGHT = 19;

/**
 * A stand-in for Monaco's diff editor with "Hide unchanged lines": unchanged regions, each showing
 * some lines at its top and bottom and hiding the rest (diffEditorViewModel.js, UnchangedRegion), and
 * the editor's line geometry with those lines hidden (viewModelLines.js: a hidden line is placed at
 * the end of the nearest visible line above, or at the first view line when there is none).
 */
class FoldingModel {
  constructor(
    readonly lineCount: number,
    readonly regions: { start: number; count: number; top: number; bottom: number }[],
    /** Heights of view zones after a view line (index 0: above the first line). */
    readonly zones: Map<number, number> = new Map(),
  ) {}

  hidden(line: number): boolean {
    return this.regions.some((r) => line >= r.start + r.top && line < r.start + r.count - r.bottom);
  }

  /** A cursor on `line`: Monaco reveals the line from the nearer edge of its region (showModifiedLine). */
  cursorAt(line: number): void {
    for (const r of this.regions) {
      const hiddenStart = r.start + r.top;
      const hiddenEnd = r.start + r.count - r.bottom; // exclusive
      if (line < hiddenStart || line >= hiddenEnd) continue;
      const top = line + 1 - hiddenStart;
      const bottom = hiddenEnd - line;
      if (top < bottom) r.top += top;
      else r.bottom += bottom;
      return;
    }
  }

  /**
   * 1-based view line a line is drawn on (no wrapping: one view line per visible line): its own, that
   * of the nearest visible line above when hidden, or the first when there is none above.
   */
  private viewLine(line: number): number {
    let view = 0;
    for (let l = 1; l <= line; l++) if (!this.hidden(l)) view += 1;
    return Math.max(1, view);
  }

  private zonesBefore(view: number): number {
    let sum = 0;
    for (const [after, height] of this.zones) if (after < view) sum += height;
    return sum;
  }

  probe(): LineProbe {
    return {
      lineCount: this.lineCount,
      top: (line) => {
        const view = this.viewLine(line);
        return (view - 1) * LINE_HEIGHT + this.zonesBefore(view);
      },
      bottom: (line) => {
        const view = this.viewLine(line);
        return view * LINE_HEIGHT + this.zonesBefore(view);
      },
    };
  }

  /** What diff-editor/unfold-hunks.ts does, without Monaco. */
  unfold(ranges: readonly LineRange[]): number {
    let runs = foldedRuns(ranges, this.probe());
    let rounds = 0;
    while (runs.length > 0 && rounds < 32) {
      rounds += 1;
      for (const line of unfoldTargets(runs)) this.cursorAt(line);
      const left = foldedRuns(ranges, this.probe());
      const progressed = !sameRuns(left, runs);
      runs = left;
      if (!progressed) break;
    }
    return rounds;
  }
}

const span = (proposedStart: number, proposedEnd: number) => ({ proposedStart, proposedEnd });

describe('hunkViewRanges', () => {
  it('keeps three lines around every hunk, clipped to the text, merged when they touch', () => {
    // A one-line change on line 3 of 120 lines, and one on line 100.
    expect(hunkViewRanges([span(2, 3), span(99, 100)], 120)).toEqual([
      [1, 6],
      [97, 103],
    ]);
    // A pure deletion after line 10: the lines around where it was.
    expect(hunkViewRanges([span(10, 10)], 50)).toEqual([[8, 13]]);
    // Touching and overlapping ranges merge; order does not matter.
    expect(hunkViewRanges([span(20, 21), span(10, 12), span(16, 17)], 100)).toEqual([[8, 24]]);
    expect(hunkViewRanges([span(0, 2)], 3)).toEqual([[1, 3]]);
    expect(hunkViewRanges([], 10)).toEqual([]);
    expect(hunkViewRanges([span(0, 1)], 0)).toEqual([]);
  });
});

describe('foldedRuns', () => {
  it('finds the folded lines of the ranges, a long run with few probes', () => {
    // Monaco folded lines 1-96 (the whitespace-only hunk on line 3 is not a change to it).
    const model = new FoldingModel(120, [{ start: 1, count: 96, top: 0, bottom: 0 }]);
    expect(foldedRuns([[1, 6]], model.probe())).toEqual([[1, 6]]);
    expect(foldedRuns([[90, 103]], model.probe())).toEqual([[90, 97]]);
    let probes = 0;
    const probe = model.probe();
    const counting: LineProbe = {
      lineCount: probe.lineCount,
      top: (line) => (probes++, probe.top(line)),
      bottom: (line) => (probes++, probe.bottom(line)),
    };
    expect(foldedRuns([[2, 95]], counting)).toEqual([[2, 95]]);
    expect(probes).toBeLessThan(20);
  });

  it('sees nothing folded when nothing is', () => {
    const model = new FoldingModel(50, [{ start: 5, count: 30, top: 30, bottom: 0 }]);
    expect(foldedRuns([[1, 50]], model.probe())).toEqual([]);
  });
});

describe('unfolding', () => {
  it('the whitespace-only hunk of a review opened with both options on comes back with its context', () => {
    const model = new FoldingModel(121, [
      { start: 1, count: 96, top: 0, bottom: 0 },
      { start: 104, count: 18, top: 0, bottom: 0 },
    ]);
    const ranges = hunkViewRanges([span(2, 3), span(99, 100)], 121);
    model.unfold(ranges);
    const hidden = Array.from({ length: 121 }, (_, i) => i + 1).filter((line) => model.hidden(line));
    // Lines 1-6 shown, as when the options are switched on one after the other; 7-96 stay folded.
    expect(hidden[0]).toBe(7);
    expect(hidden).toContain(96);
    expect(hidden).not.toContain(97);
  });

  it('a long reindented block inside a folded region is unfolded entirely, in a few rounds', () => {
    const model = new FoldingModel(2000, [{ start: 1, count: 1990, top: 0, bottom: 0 }]);
    const ranges = hunkViewRanges([span(400, 1600)], 2000);
    const rounds = model.unfold(ranges);
    for (let line = 397; line <= 1603; line++) expect(model.hidden(line)).toBe(false);
    expect(rounds).toBeLessThanOrEqual(12);
  });

  it('whatever Monaco folded, every line near a hunk ends up visible', () => {
    const scenario = fc.integer({ min: 1, max: 160 }).chain((lineCount) =>
      fc.record({
        lineCount: fc.constant(lineCount),
        cuts: fc.uniqueArray(fc.integer({ min: 1, max: lineCount + 1 }), { maxLength: 8 }),
        shown: fc.array(fc.tuple(fc.nat(20), fc.nat(20)), { minLength: 8, maxLength: 8 }),
        hunks: fc.array(
          fc
            .tuple(fc.integer({ min: 0, max: lineCount }), fc.nat(12))
            .map(([start, length]) => span(start, Math.min(lineCount, start + length))),
          { maxLength: 6 },
        ),
        zones: fc.array(fc.tuple(fc.nat(lineCount), fc.integer({ min: 1, max: 40 })), {
          maxLength: 5,
        }),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ lineCount, cuts, shown, hunks, zones }) => {
        // Regions: disjoint stretches between sorted cut points, each with some lines shown.
        const points = [...cuts].sort((a, b) => a - b);
        const regions = [];
        for (let i = 0; i + 1 < points.length; i += 2) {
          const count = points[i + 1]! - points[i]!;
          if (count < 3) continue;
          const [top, bottom] = shown[i]!;
          const t = Math.min(top, count);
          regions.push({ start: points[i]!, count, top: t, bottom: Math.min(bottom, count - t) });
        }
        const model = new FoldingModel(lineCount, regions, new Map(zones));
        const ranges = hunkViewRanges(hunks, lineCount);
        // Never a folded line that foldedRuns misses.
        const runs = foldedRuns(ranges, model.probe());
        for (const [start, end] of ranges)
          for (let line = start; line <= end; line++)
            if (model.hidden(line)) expect(runs.some(([a, b]) => line >= a && line <= b)).toBe(true);
        model.unfold(ranges);
        for (const [start, end] of ranges)
          for (let line = start; line <= end; line++) expect(model.hidden(line)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('unfoldTargets', () => {
  it('puts cursors on the first, middle and last line of each run, once each', () => {
    expect(
      unfoldTargets([
        [1, 6],
        [10, 10],
        [20, 21],
      ]),
    ).toEqual([1, 3, 6, 10, 20, 21]);
  });
});
