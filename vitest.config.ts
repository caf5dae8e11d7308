import { defineConfig } from 'vitest/config';
import { contextWorkerDefine } from './scripts/context-worker-source.mjs';

// Unit and integration tests: plain Node, real sockets on loopback, real files in temp folders.
export default defineConfig({
  // The context worker's code, which the context pool runs in worker threads (scripts/context-worker-source.mjs).
  define: await contextWorkerDefine(),
  test: {
    root: '.',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
