/**
 * The setting of the real Claude Code hooks e2e files: one Chromium per file; for each test a fresh
 * headless app, Claude Code's config folder with DiffTray's hooks installed by `difftray setup
 * claude-code` (as a person does it), and a page on the app's UI. `runClaude` runs `claude -p` against
 * the project's loopback stand-in for the model. Registers the vitest hooks (asserting after each test
 * that the page logged no error) and returns what a test reaches them through.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import {
  startAnthropicStandIn,
  type AnthropicStandIn,
  type ScriptedTurn,
} from '../../test/support/anthropic-stand-in';
import { launchChromium, openPage } from '../../test/support/chromium';
import {
  runClaudePrint,
  writeClaudeState,
  type ClaudeBinary,
  type ClaudePrintResult,
} from '../../test/support/claude-code';
import { startHeadlessApp, type HeadlessApp } from '../../test/support/headless-app';

const BIN = path.resolve('bin', 'difftray.cjs');

export interface ClaudeRun {
  prompt?: string;
  /** More arguments for `claude -p` (`--permission-mode acceptEdits`). */
  args?: string[];
  timeoutMs?: number;
}

export interface ClaudeHooksSession {
  readonly app: HeadlessApp;
  readonly page: Page;
  /** The stand-in of the latest run. */
  readonly standIn: AnthropicStandIn;
  /** Runs `claude -p` against a stand-in answering with `script`; resolves when Claude exits. */
  runClaude(script: ScriptedTurn[], run?: ClaudeRun): Promise<ClaudePrintResult>;
  /** Waits for `locator` in the page, failing at once (with Claude's output) if Claude exits first. */
  shown(locator: Locator, run: Promise<ClaudePrintResult>, what: string): Promise<void>;
  button(name: string): Locator;
  noteBox(): Locator;
}

export function claudeHooksSession(claude: ClaudeBinary): ClaudeHooksSession {
  let browser: Browser;
  let app: HeadlessApp;
  let page: Page;
  let errors: string[];
  let standIn: AnthropicStandIn | undefined;
  let configDir: string;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    app = await startHeadlessApp();
    // DiffTray's own Claude lock folder (<home>/.claude/ide), so `claude --ide` finds it too.
    configDir = path.join(app.home, '.claude');
    mkdirSync(configDir, { recursive: true });
    writeClaudeState(configDir, app.workspace);
    const setup = spawnSync(process.execPath, [BIN, 'setup', 'claude-code'], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: configDir },
      encoding: 'utf8',
    });
    expect(setup.status, setup.stderr).toBe(0);
    ({ page, errors } = await openPage(browser, app.url));
  });

  afterEach(async () => {
    await standIn?.close();
    standIn = undefined;
    await page?.context().close();
    await app?.close();
    expect(errors).toEqual([]);
  });

  return {
    get app() {
      return app;
    },
    get page() {
      return page;
    },
    get standIn() {
      if (!standIn) throw new Error('no run yet');
      return standIn;
    },
    async runClaude(script, run = {}) {
      const served = await startAnthropicStandIn(script);
      standIn = served;
      const home = path.dirname(configDir);
      const tmp = path.join(home, 'tmp');
      mkdirSync(tmp, { recursive: true });
      return runClaudePrint({
        binary: claude.path!,
        sandbox: { workspace: app.workspace, home, configDir, tmp },
        baseUrl: served.baseUrl,
        prompt: run.prompt ?? 'Capitalise the Greek letters in greek.txt',
        args: run.args ?? [],
        env: { DIFFTRAY_HOME: path.join(app.home, '.difftray') },
        timeoutMs: run.timeoutMs ?? 60_000,
        progress: () => `the stand-in served ${served.turnsServed()} of ${script.length} turns`,
      });
    },
    async shown(locator, run, what) {
      const exited = run.then((result) => {
        throw new Error(
          `claude -p exited (${result.exitCode}) before ${what} appeared:\n${result.stdout}\n${result.stderr}`,
        );
      });
      await Promise.race([locator.waitFor({ timeout: 30_000 }), exited]);
    },
    button: (name) => page.getByRole('button', { name, exact: true }),
    noteBox: () => page.getByRole('textbox', { name: 'Note to the agent' }),
  };
}
