// `npm run bench`: bundles each bench/*.bench.ts with esbuild and runs it with Node; each prints numbers.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const only = process.argv[2];
const benches = readdirSync('bench').filter(
  (name) => name.endsWith('.bench.ts') && (!only || name.includes(only)),
);
let failed = false;
for (const name of benches) {
  const outfile = path.join('dist', 'bench', name.replace(/\.ts$/, '.mjs'));
  await build({
    entryPoints: [path.join('bench', name)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  console.log(`\n== ${name}`);
  const result = spawnSync(process.execPath, [outfile], { stdio: 'inherit' });
  failed ||= result.status !== 0;
}
process.exit(failed ? 1 : 0);
