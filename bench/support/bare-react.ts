/** Builds the bare React page (bench/pages/bare-react) with Vite and React's plugin, as the app's renderer is built. */
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

export async function buildBareReact(): Promise<string> {
  const outDir = path.resolve('dist/bench/bare-react');
  await build({
    configFile: false,
    root: path.resolve('bench/pages/bare-react'),
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}
