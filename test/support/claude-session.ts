/**
 * The setting of the Claude Code integration tests: for each test, the real runtime, a Claude Code
 * client connected to it, and one file in its workspace. Registers the vitest hooks that start and
 * stop them and returns what a test reaches them through.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { connectClaudeClient, type ClaudeTestClient } from './claude-client';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/** The current test's runtime, client and file; read them inside a test (they change from test to test). */
export interface ClaudeSession {
  readonly t: TestRuntime;
  readonly claude: ClaudeTestClient;
  /** The workspace file written before each test. */
  readonly file: string;
}

/** Before each test, `fileName` is written in the workspace with `text`. */
export function useClaudeSession(fileName: string, text: string): ClaudeSession {
  let t: TestRuntime | undefined;
  let claude: ClaudeTestClient | undefined;

  const current = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`There is no ${what} outside a test`);
    return value;
  };

  beforeEach(async () => {
    t = await startTestRuntime();
    claude = await connectClaudeClient(t.runtime.bridge.port, t.runtime.bridge.tokenFor('claude-ide'));
    writeFileSync(session.file, text);
  });

  afterEach(async () => {
    try {
      await claude?.close();
    } finally {
      await t?.close();
      claude = t = undefined;
    }
  });

  const session: ClaudeSession = {
    get t() {
      return current(t, 'runtime');
    },
    get claude() {
      return current(claude, 'Claude Code client');
    },
    get file() {
      return path.join(session.t.workspace, fileName);
    },
  };
  return session;
}
