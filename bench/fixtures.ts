/** Deterministic large texts for benchmarks: `lines` lines with `changes` scattered edits. */
export function largeFilePair(lines: number, changes: number): { base: string; proposed: string } {
  const base: string[] = [];
  for (let i = 0; i < lines; i++) base.push(`  const value${i} = compute(${i}, "${(i * 7919) % 1000}");\n`);
  const proposed = [...base];
  const step = Math.floor(lines / changes);
  for (let c = 0; c < changes; c++) proposed[c * step + Math.floor(step / 2)] = `  const changed${c} = 0;\n`;
  return { base: base.join(''), proposed: proposed.join('') };
}

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
