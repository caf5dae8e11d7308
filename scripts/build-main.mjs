// Bundles the main-process entry points (Electron main, preload, headless server, CLI) with esbuild.
// Everything but Electron is bundled, so the packaged app needs no node_modules.
import { build } from 'esbuild';
import { contextWorkerDefine } from './context-worker-source.mjs';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  external: ['electron'],
  logLevel: 'warning',
  // jsonc-parser's "main" is a UMD build whose require('./impl/...') calls esbuild cannot follow (the
  // bundle fails at run time with "Cannot find module './impl/format'"): bundle its ES module build.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // Some dependencies read import.meta.url; in a CJS bundle it is derived from __filename.
  // The context worker's code, as a string the pool evaluates (context-worker-source.mjs).
  define: { 'import.meta.url': 'importMetaUrl', ...(await contextWorkerDefine()) },
  banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

await Promise.all([
  build({ ...common, entryPoints: ['src-main/desktop/main.ts'], outfile: 'dist/main/main.cjs' }),
  // A sandboxed preload must be one CommonJS file that requires nothing but 'electron'.
  build({
    ...common,
    entryPoints: ['src-main/desktop/preload.ts'],
    outfile: 'dist/main/preload.cjs',
    target: 'chrome130',
  }),
  build({ ...common, entryPoints: ['src-main/headless/main.ts'], outfile: 'dist/main/headless.cjs' }),
  // The `difftray` command: a small launcher (cli.cjs) that runs a hook's lean first step itself and
  // loads hook.cjs only for a call DiffTray must review, or the whole CLI (cli-main.cjs) for the rest.
  build({ ...common, entryPoints: ['src-main/cli/launcher.ts'], outfile: 'dist/main/cli.cjs' }),
  build({ ...common, entryPoints: ['src-main/cli/main.ts'], outfile: 'dist/main/cli-main.cjs' }),
  build({ ...common, entryPoints: ['src-main/cli/hooks/hook-main.ts'], outfile: 'dist/main/hook.cjs' }),
]);
