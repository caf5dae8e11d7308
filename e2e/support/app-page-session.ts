/**
 * The set-up most e2e files share: one Chromium for the file; per test, an in-process headless app and a
 * page on it, both closed after the test, which fails if the page logged an error. What a test adds
 * (temp folders, child processes, sockets) is cleaned up after them with `afterTest`.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { launchChromium, openPage } from '../../test/support/chromium';
import type { TestRuntimeOptions } from '../../test/support/test-runtime';
import { startHeadlessApp, type HeadlessApp } from '../../test/support/headless-app';

export interface AppPageSession {
  /** This test's app, started here. */
  startApp(options?: TestRuntimeOptions): Promise<HeadlessApp>;
  /** A page on this test's app (started before). */
  openPage(): Promise<Page>;
  /** Both at once. */
  start(options?: TestRuntimeOptions): Promise<{ app: HeadlessApp; page: Page }>;
  /** Runs after the test, once its page and app are closed. */
  afterTest(cleanup: () => unknown): void;
}

export function appPageSession(): AppPageSession {
  let browser: Browser | undefined;
  let app: HeadlessApp | undefined;
  let opened: { page: Page; errors: string[] } | undefined;
  const cleanups: Array<() => unknown> = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    try {
      if (opened) expect(opened.errors).toEqual([]);
    } finally {
      await opened?.page.context().close();
      await app?.close();
      opened = app = undefined;
      for (const cleanup of cleanups.splice(0)) await cleanup();
    }
  });

  const session: AppPageSession = {
    startApp: async (options) => {
      app = await startHeadlessApp(options);
      return app;
    },
    openPage: async () => {
      if (!browser || !app) throw new Error('openPage: start the app first');
      opened = await openPage(browser, app.url);
      return opened.page;
    },
    start: async (options) => {
      const started = await session.startApp(options);
      return { app: started, page: await session.openPage() };
    },
    afterTest: (cleanup) => void cleanups.push(cleanup),
  };
  return session;
}
