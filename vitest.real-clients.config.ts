import { defineConfig } from 'vitest/config';
import { contextWorkerDefine } from './scripts/context-worker-source.mjs';

// The real agent CLIs (Claude Code, Gemini CLI, Qwen Code) proposing through DiffTray's UI: each in a
// tmux terminal against a loopback stand-in for its model API, decided in Chromium. Their own project,
// so their time shows on its own; one file at a time (two cores: a CLI and a browser each).
export default defineConfig({
  // The context worker's code, which the context pool runs in worker threads (scripts/context-worker-source.mjs).
  define: await contextWorkerDefine(),
  test: {
    root: '.',
    include: ['e2e/real-clients/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
