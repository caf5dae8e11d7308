/**
 * The setting of most end-to-end tests: one Chromium per file; for each test a fresh headless app, a
 * Claude Code client connected to it and a page showing its UI. Registers the vitest hooks that start
 * and stop them (asserting after each test that the page logged no error and no CSP violation) and
 * returns what a test reaches them through.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { connectClaudeClient, type ClaudeTestClient } from '../../test/support/claude-client';
import { waitForSnapshot } from '../../test/support/wait';
import { launchChromium, openPage } from '../../test/support/chromium';
import { startHeadlessApp, type HeadlessApp } from '../../test/support/headless-app';
import * as reviewPage from './review-page';

export interface ReviewSessionOptions {
  /** Open the page before each test (default true). False: each test calls `open` itself. */
  openPage?: boolean;
}

/** The current test's app, client and page; read them inside a test (they change from test to test). */
export interface ReviewSession {
  readonly app: HeadlessApp;
  readonly claude: ClaudeTestClient;
  readonly page: Page;
  /** Console errors and uncaught exceptions on the page so far. */
  readonly errors: string[];
  /** Opens the page on the app's UI (done before each test unless `openPage: false`). */
  open(colorScheme?: 'light' | 'dark'): Promise<void>;
  /** Writes `text` to `name` inside the workspace, creating folders; returns the absolute path. */
  writeWorkspaceFile(name: string, text: string | Uint8Array): string;
  /**
   * openDiff from the Claude Code client. A test that fails before awaiting the answer adds no
   * unhandled rejection when the client closes.
   */
  openDiff(file: string, proposed: string, tabName: string): Promise<CallToolResult>;
  /**
   * For each name, writes `base` to that workspace file and proposes `proposed` for it (tab
   * "<name> (edit)"), each once the one before is queued. Resolves, in order, with the files and the
   * answers to come.
   */
  queueEdits<Names extends string[]>(
    names: [...Names],
    base: string,
    proposed: string,
  ): Promise<{ [I in keyof Names]: QueuedEdit }>;
  diffReady(title: string, options?: reviewPage.DiffReadyOptions): Promise<void>;
  keysUnpaused(): Promise<void>;
  hunk(n: number): Locator;
  expectDecisions(decisions: string[]): Promise<void>;
}

/** A proposal waiting in the queue: its file, and the answer its client will get. */
export interface QueuedEdit {
  file: string;
  answer: Promise<CallToolResult>;
}

export function useReviewSession(options: ReviewSessionOptions = {}): ReviewSession {
  let browser: Browser | undefined;
  let app: HeadlessApp | undefined;
  let claude: ClaudeTestClient | undefined;
  let opened: { page: Page; errors: string[] } | undefined;

  const current = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`There is no ${what} outside a test (or before it was opened)`);
    return value;
  };

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    app = await startHeadlessApp();
    claude = await connectClaudeClient(app.runtime.bridge.port, app.runtime.bridge.tokenFor('claude-ide'));
    if (options.openPage ?? true) await session.open();
  });

  afterEach(async () => {
    try {
      // No CSP violation, no uncaught error, in any test.
      if (opened) expect(opened.errors).toEqual([]);
    } finally {
      await opened?.page.context().close();
      await claude?.close().catch(() => {});
      await app?.close();
      opened = claude = app = undefined;
    }
  });

  const session: ReviewSession = {
    get app() {
      return current(app, 'app');
    },
    get claude() {
      return current(claude, 'Claude Code client');
    },
    get page() {
      return current(opened, 'page').page;
    },
    get errors() {
      return current(opened, 'page').errors;
    },
    open: async (colorScheme = 'light') => {
      opened = await openPage(current(browser, 'browser'), session.app.url, { colorScheme });
    },
    writeWorkspaceFile: (name, text) => {
      const file = path.join(session.app.workspace, name);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
    openDiff: (file, proposed, tabName) => {
      const answer = session.claude.openDiff(file, proposed, tabName);
      answer.catch(() => {});
      return answer;
    },
    queueEdits: async <Names extends string[]>(names: [...Names], base: string, proposed: string) => {
      const queued: QueuedEdit[] = [];
      for (const name of names) {
        const file = session.writeWorkspaceFile(name, base);
        queued.push({ file, answer: session.openDiff(file, proposed, `${name} (edit)`) });
        const count = queued.length;
        await waitForSnapshot(session.app.runtime.core, (s) =>
          s.reviews.length === count ? true : undefined,
        );
      }
      return queued as { [I in keyof Names]: QueuedEdit };
    },
    diffReady: (title, diffOptions) => reviewPage.diffReady(session.page, title, diffOptions),
    keysUnpaused: () => reviewPage.keysUnpaused(session.page),
    hunk: (n) => reviewPage.hunk(session.page, n),
    expectDecisions: (decisions) => reviewPage.expectDecisions(session.page, decisions),
  };
  return session;
}
