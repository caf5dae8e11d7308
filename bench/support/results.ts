/**
 * One figure of the bench: DiffTray's samples against the floor's (or a peer's) from the same run, and
 * their ratio. Printed as it comes; also appended as a JSON line to $BENCH_RESULTS, from which
 * scripts/run-benches.mjs prints the table for docs/PERFORMANCE.md.
 */
import { appendFileSync } from 'node:fs';
import { summarize, type Summary } from './stats';

export interface Figure {
  /** The issue's letter for the figure group: a (throughput) … f (start). */
  group: string;
  name: string;
  unit: string;
  app: Summary;
  /** What DiffTray is raced against: "trivial tool", "0 pending", "bare Monaco"… */
  floorLabel: string;
  floor: Summary;
  /** The goal for the ratio (or the figure), as the issue states it. */
  goal: string;
}

export function figure(
  group: string,
  name: string,
  unit: string,
  app: readonly number[],
  floorLabel: string,
  floor: readonly number[],
  goal = '',
): Figure {
  const result: Figure = {
    group,
    name,
    unit,
    app: summarize(app),
    floorLabel,
    floor: summarize(floor),
    goal,
  };
  console.log(describe(result));
  if (process.env.BENCH_RESULTS) appendFileSync(process.env.BENCH_RESULTS, JSON.stringify(result) + '\n');
  return result;
}

/** DiffTray's median over the floor's; also from the minimums. */
export function ratios(f: Figure): { median: number; min: number } {
  return { median: f.app.median / f.floor.median, min: f.app.min / f.floor.min };
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  return value.toFixed(abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3);
}

export function formatRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(value >= 10 ? 1 : 2)}×` : '—';
}

function describe(f: Figure): string {
  const side = (s: Summary) => `median ${formatNumber(s.median)} min ${formatNumber(s.min)} ${f.unit}`;
  const r = ratios(f);
  return (
    `(${f.group}) ${f.name}\n` +
    `      DiffTray ${side(f.app)} (n=${f.app.count}) | ${f.floorLabel} ${side(f.floor)} (n=${f.floor.count})\n` +
    `      ratio ${formatRatio(r.median)} (of minimums ${formatRatio(r.min)})${f.goal ? `  goal ${f.goal}` : ''}`
  );
}
