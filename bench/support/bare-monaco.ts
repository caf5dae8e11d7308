/** Builds the bare Monaco diff editor page (bench/pages/bare-monaco) with Vite, as the app's renderer is built. */
import path from 'node:path';
import { build } from 'vite';

export async function buildBareMonaco(): Promise<string> {
  const outDir = path.resolve('dist/bench/bare-monaco');
  await build({
    configFile: false,
    root: path.resolve('bench/pages/bare-monaco'),
    base: './',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 8192 },
    worker: { format: 'es' },
  });
  return outDir;
}
