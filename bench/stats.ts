/** Statistics and printing for the benchmarks. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export function report(name: string, samplesMs: number[], extra = ''): void {
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  console.log(
    `${name.padEnd(44)} median ${ms(median(samplesMs)).padStart(10)}  min ${ms(Math.min(...samplesMs)).padStart(10)}  max ${ms(Math.max(...samplesMs)).padStart(10)}${extra ? `  ${extra}` : ''}`,
  );
}
