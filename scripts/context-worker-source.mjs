// The context worker (src-main/core/context/context-worker.ts) bundled to one CommonJS string, for
// esbuild's and Vitest's `define`: context-pool.ts runs it with `new Worker(source, { eval: true })`, so
// no bundle needs a file beside it. Used by build-main.mjs, run-benches.mjs, fuzz.mjs and the Vitest
// configurations.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `{ __CONTEXT_WORKER_SOURCE__: <the worker's code as a JSON string literal> }`. */
export async function contextWorkerDefine() {
  const result = await build({
    entryPoints: [path.join(root, 'src-main/core/context/context-worker.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  return { __CONTEXT_WORKER_SOURCE__: JSON.stringify(result.outputFiles[0].text) };
}
