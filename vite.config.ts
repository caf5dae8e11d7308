import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { editorSteps } from './scripts/editor-steps.mjs';
import { firstScriptGuard } from './scripts/first-script.mjs';
import { RENDERER_CSP } from './shared/csp';

/**
 * Puts the renderer's CSP (shared/csp.ts, the same string the headless server and Electron send as a
 * header) into index.html as a meta tag, so the page is also protected wherever no header is set.
 * frame-ancestors is dropped: browsers ignore it in a meta tag and warn about it. Build only: the dev
 * server's React Refresh preamble is an inline script, which this policy rightly forbids.
 */
function cspMetaTag(): Plugin {
  const content = RENDERER_CSP.split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !directive.startsWith('frame-ancestors'))
    .join('; ');
  return {
    name: 'difftray-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content },
        injectTo: 'head-prepend',
      },
    ],
  };
}

// The renderer is served by the headless server over http and by Electron over a custom protocol,
// so every asset URL is relative (base './') and nothing is fetched from a CDN.
export default defineConfig({
  root: 'src-renderer',
  base: './',
  // Monaco is loaded after the first screen, its code evaluated in steps (scripts/editor-steps.mjs).
  plugins: [
    react(),
    cspMetaTag(),
    firstScriptGuard(),
    editorSteps(fileURLToPath(new URL('src-renderer/review/editor-views.ts', import.meta.url))),
  ],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Monaco is large by nature (loaded lazily, editor-loader.ts); the warning would only be noise.
    chunkSizeWarningLimit: 4096,
  },
  worker: { format: 'es' },
});
