/** Statistics of repeated measurements, and running two contestants in alternation. */

export interface Summary {
  min: number;
  median: number;
  max: number;
  count: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new Error('No samples to summarize');
  return { min: Math.min(...values), median: median(values), max: Math.max(...values), count: values.length };
}

/**
 * Runs `first` and `second` alternately, `reps` times each after `warmup` unrecorded rounds, so drift
 * in the machine's load falls on both alike. Returns each one's samples in run order.
 */
export async function interleave<T>(
  reps: number,
  first: () => Promise<T>,
  second: () => Promise<T>,
  warmup = 1,
): Promise<[T[], T[]]> {
  const a: T[] = [];
  const b: T[] = [];
  for (let round = 0; round < warmup + reps; round++) {
    const x = await first();
    const y = await second();
    if (round >= warmup) {
      a.push(x);
      b.push(y);
    }
  }
  return [a, b];
}

/** Milliseconds since `start` (a performance.now() reading). */
export const since = (start: number): number => performance.now() - start;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Prints one measurement that has no floor to race (the hunk model's own speed). */
export function report(name: string, samplesMs: readonly number[], extra = ''): void {
  const s = summarize(samplesMs);
  const ms = (v: number) => `${v.toFixed(2)} ms`.padStart(10);
  console.log(
    `${name.padEnd(44)} median ${ms(s.median)}  min ${ms(s.min)}  max ${ms(s.max)}${extra ? `  ${extra}` : ''}`,
  );
}
