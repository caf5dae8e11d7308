// `npm run fuzz`: builds the headless app, bundles the fuzz runner (test/fuzz/cli.ts) with esbuild and runs
// it; arguments pass through (--frames N --seed S --endpoint NAME --max-rss-mb M).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';
import { contextWorkerDefine } from './context-worker-source.mjs';

const built = spawnSync(process.execPath, ['scripts/build-main.mjs'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
const outfile = path.join('dist', 'fuzz', 'cli.cjs');
await build({
  entryPoints: ['test/fuzz/cli.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  // In-process runtimes run context jobs in workers whose code is this string.
  define: await contextWorkerDefine(),
});
const result = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
