import { defineConfig } from 'vitest/config';
import { contextWorkerDefine } from './scripts/context-worker-source.mjs';

// End-to-end: the built renderer in Debian's Chromium, driven by Playwright, against the real app.
// Files run one at a time: two cores, one browser each.
export default defineConfig({
  // The context worker's code, which the context pool runs in worker threads (scripts/context-worker-source.mjs).
  define: await contextWorkerDefine(),
  test: {
    root: '.',
    include: ['e2e/**/*.e2e.ts'],
    exclude: ['e2e/electron/**', 'e2e/real-clients/**'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
