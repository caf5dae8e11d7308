// `npm run bench [name]`: bundles each bench/*.bench.ts with esbuild and runs it with Node, one process
// per bench. Each races DiffTray against a floor in the same run and prints both and their ratio; at the
// end the figures are printed again as one Markdown table (for docs/PERFORMANCE.md). Needs
// `npm run build` first. Exits non-zero only when a bench fails, never because of a timing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { contextWorkerDefine } from './context-worker-source.mjs';

/** The issue's order: (a) throughput … (f) start, then the rest. */
const ORDER = ['throughput', 'round-trip', 'visible', 'big-file', 'idle', 'start'];
const rank = (name) => {
  const index = ORDER.indexOf(name.replace(/\.bench\.ts$/, ''));
  return index === -1 ? ORDER.length : index;
};

const only = process.argv[2];
const benches = readdirSync('bench')
  .filter((name) => name.endsWith('.bench.ts') && (!only || name.includes(only)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

for (const needed of ['dist/renderer/index.html', 'dist/main/headless.cjs', 'dist/main/cli.cjs']) {
  if (!existsSync(needed)) {
    console.error(`${needed} is missing: run \`npm run build\` first`);
    process.exit(1);
  }
}

const outDir = path.resolve('dist', 'bench');
mkdirSync(outDir, { recursive: true });
const resultsFile = path.join(outDir, 'results.jsonl');
rmSync(resultsFile, { force: true });

printMachine();
const workerDefine = await contextWorkerDefine();
let failed = false;
const started = Date.now();
for (const name of benches) {
  const outfile = path.join(outDir, name.replace(/\.ts$/, '.mjs'));
  await build({
    entryPoints: [path.join('bench', name)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    // In-process runtimes run context jobs in workers whose code is this string.
    define: workerDefine,
    // The test helpers find dist/main through __dirname; the bundle sits two levels below the root.
    banner: {
      js: "import { fileURLToPath as __benchPath } from 'node:url'; const __dirname = __benchPath(new URL('.', import.meta.url));",
    },
  });
  console.log(`\n== ${name}`);
  const benchStart = Date.now();
  const result = spawnSync(process.execPath, ['--expose-gc', outfile], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_RESULTS: resultsFile },
  });
  console.log(`(${name}: ${((Date.now() - benchStart) / 1000).toFixed(0)} s)`);
  if (result.status !== 0) {
    console.error(`${name} failed (${result.signal ?? `exit ${result.status}`})`);
    failed = true;
  }
}

printTable();
console.log(
  `\nAll benches: ${((Date.now() - started) / 1000).toFixed(0)} s; load average now ${loadAverage()}`,
);
process.exit(failed ? 1 : 0);

/** What docs/PERFORMANCE.md records beside the table; the load average says how shared the machine was. */
function printMachine() {
  const chromium = spawnSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium', ['--version'], {
    encoding: 'utf8',
  });
  console.log(`Machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}`);
  console.log(`Node ${process.version}; ${chromium.stdout?.split('\n')[0] || 'Chromium not found'}`);
  console.log(`Load average at start: ${loadAverage()}`);
}

function loadAverage() {
  return os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(', ');
}

function printTable() {
  if (!existsSync(resultsFile)) return;
  const figures = readFileSync(resultsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const num = (value) => {
    if (!Number.isFinite(value)) return '—';
    const abs = Math.abs(value);
    return value.toFixed(abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3);
  };
  const ratio = (value) => (Number.isFinite(value) ? `${value.toFixed(value >= 10 ? 1 : 2)}×` : '—');
  const side = (s, unit) => `${num(s.median)} ${unit} (min ${num(s.min)})`;
  console.log('\n| figure | DiffTray | floor / peer | ratio | goal |');
  console.log('|---|---|---|---|---|');
  for (const f of figures) {
    console.log(
      `| (${f.group}) ${f.name} | ${side(f.app, f.unit)} | ${f.floorLabel}: ${side(f.floor, f.unit)} | ` +
        `${ratio(f.app.median / f.floor.median)} | ${f.goal} |`,
    );
  }
}
