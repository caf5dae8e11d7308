import { defineConfig } from 'vitest/config';
import { contextWorkerDefine } from './scripts/context-worker-source.mjs';

// The Electron shell, launched for real through Playwright's _electron. Skips, saying why, where no
// Electron binary exists (as on machines that cannot download it).
export default defineConfig({
  // The context worker's code, which the context pool runs in worker threads (scripts/context-worker-source.mjs).
  define: await contextWorkerDefine(),
  test: {
    root: '.',
    include: ['e2e/electron/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
