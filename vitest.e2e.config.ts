import { defineConfig } from 'vitest/config';

// End-to-end: the built renderer in Debian's Chromium, driven by Playwright, against the real app.
// Files run one at a time: two cores, one browser each.
export default defineConfig({
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
