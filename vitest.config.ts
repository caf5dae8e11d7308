import { defineConfig } from 'vitest/config';

// Unit and integration tests: plain Node, real sockets on loopback, real files in temp folders.
export default defineConfig({
  test: {
    root: '.',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
