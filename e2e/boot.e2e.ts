/**
 * Opening the window does not wait for Monaco: the page's first script holds none of it, and with
 * Monaco's code held back on the wire the queue, History and Connections work while the review pane
 * says the editor is loading; once it arrives the diff is drawn. Settings is loaded lazily too: held
 * back, it says it is loading, and shows once it arrives. A load that fails says so, and the reload it
 * offers draws the diff.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectClaudeClient, type ClaudeTestClient } from '../test/support/claude-client';
import { launchChromium } from '../test/support/chromium';
import { BASE, PROPOSED } from '../test/support/fixtures';
import { RENDERER_DIR, startHeadlessApp, type HeadlessApp } from '../test/support/headless-app';
import { waitForSnapshot } from '../test/support/wait';

/** The page's first script and the ones it imports (index.html preloads those), as asset paths. */
function firstScripts(): string[] {
  const html = readFileSync(path.join(RENDERER_DIR, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<script[^>]*src="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const preloads = [...html.matchAll(/rel="modulepreload"[^>]*href="\.\/(assets\/[^"]+)"/g)].map(
    (m) => m[1]!,
  );
  return [...entries, ...preloads];
}

/** Every other script: Monaco's steps, the editor's views, languages, Settings. */
function isLazyScript(url: URL): boolean {
  const first = firstScripts();
  return (
    /\/assets\/[^/]+\.js$/.test(url.pathname) && !first.some((script) => url.pathname.endsWith(`/${script}`))
  );
}
const DIFF_READY = '[data-testid="diff-editor"][data-diff-ready="true"]';

let browser: Browser;
let app: HeadlessApp;
let claude: ClaudeTestClient;
let errors: string[];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});
beforeEach(async () => {
  app = await startHeadlessApp();
  claude = await connectClaudeClient(app.runtime.bridge.port, app.runtime.bridge.tokenFor('claude-ide'));
  errors = [];
});
afterEach(async () => {
  await claude.close();
  await app.close();
});

/** A page whose lazily loaded scripts go through `route` (not yet opened on the app). */
async function pageWithHeldScripts(route: (route: Route) => Promise<void>): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route(isLazyScript, route);
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return page;
}

function proposeEdit(name: string): void {
  const file = path.join(app.workspace, name);
  writeFileSync(file, BASE);
  void claude
    .callTool('openDiff', {
      old_file_path: file,
      new_file_path: file,
      new_file_contents: PROPOSED,
      tab_name: name,
    })
    .catch(() => {});
}

describe('opening the window', () => {
  it("the page's first script holds no Monaco, no Settings and no zod", () => {
    const html = readFileSync(path.join(RENDERER_DIR, 'index.html'), 'utf8');
    const entries = [...html.matchAll(/<script[^>]*src="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(entries).toHaveLength(1);
    for (const script of firstScripts()) {
      const code = readFileSync(path.join(RENDERER_DIR, script), 'utf8');
      expect(code).not.toContain('createDiffEditor');
      // A heading of the Settings view (sections/), not a word the rest of the page uses.
      expect(code).not.toContain('Extra lock folders');
      // zod checks calls in main; the window needs only the contract's types (scripts/first-script.mjs).
      expect(code).not.toContain('ZodError');
    }
  });

  it('the queue, History and Connections work while Monaco is held back; the diff follows it', async () => {
    proposeEdit('held.txt');
    const held: Route[] = [];
    let release = false;
    const page = await pageWithHeldScripts(async (route) => {
      if (release) await route.continue();
      else held.push(route);
    });
    try {
      await page.goto(app.url);
      const queue = page.getByRole('navigation', { name: 'Review queue' });
      await queue.getByRole('button', { name: /held\.txt/ }).waitFor();
      await page.getByTestId('editor-loading').getByText('Loading the editor…').waitFor();
      await expect.poll(() => held.length).toBeGreaterThan(0);

      await page.getByRole('tab', { name: 'History' }).click();
      await page.getByRole('navigation', { name: 'Review history' }).waitFor();
      await page.getByRole('tab', { name: 'Connections' }).click();
      await page.getByTestId('connections').waitFor();
      expect(await page.locator(DIFF_READY).count()).toBe(0);
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('main').getByRole('status').getByText('Loading Settings…').waitFor();

      release = true;
      for (const route of held.splice(0)) await route.continue();
      await page.getByTestId('settings').getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.locator(DIFF_READY).waitFor();
      expect(await page.getByTestId('editor-loading').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('opens with main\'s state: asks for it once, and never says "nothing waiting" while reviews wait', async () => {
    proposeEdit('first.txt');
    proposeEdit('second.txt');
    await waitForSnapshot(app.runtime.core, (snapshot) =>
      snapshot.reviews.filter((review) => review.state === 'pending').length === 2 ? true : undefined,
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // From the first moment: whether the page ever said there is nothing to review.
    await context.addInitScript(() => {
      const seen = window as unknown as { saidEmpty?: string };
      new MutationObserver(() => {
        const empty = document.querySelector('[data-testid="empty-state"], .dt-queue-empty');
        if (empty && !seen.saidEmpty) seen.saidEmpty = empty.textContent ?? '';
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    const sent: string[] = [];
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        const { method } = JSON.parse(String(payload)) as { method?: string };
        if (method) sent.push(method);
      }),
    );
    try {
      await page.goto(app.url);
      await page.locator(DIFF_READY).waitFor();
      const queue = page.getByRole('navigation', { name: 'Review queue' });
      await expect.poll(() => queue.getByRole('button').count()).toBe(2);
      // The server sends its state as the socket opens: the page does not ask for it again, and the
      // review on screen is named to main once, its texts asked for once.
      expect(sent.filter((method) => method === 'getSnapshot')).toEqual([]);
      expect(sent.filter((method) => method === 'focusReview')).toEqual(['focusReview']);
      expect(sent.filter((method) => method === 'getReviewContent')).toEqual(['getReviewContent']);
      expect(await page.evaluate(() => (window as unknown as { saidEmpty?: string }).saidEmpty)).toBe(
        undefined,
      );
    } finally {
      await context.close();
    }
  });

  it('a failed load says so, and a reload draws the diff', async () => {
    proposeEdit('flaky.txt');
    let fail = true;
    const page = await pageWithHeldScripts(async (route) => {
      if (fail) await route.abort();
      else await route.continue();
    });
    try {
      await page.goto(app.url);
      const alert = page.getByTestId('editor-loading').getByRole('alert');
      await alert.getByText(/The editor could not be loaded/).waitFor();
      fail = false;
      await alert.getByRole('button', { name: 'Reload the window' }).click();
      await page.locator(DIFF_READY).waitFor();
    } finally {
      await page.context().close();
    }
  });
});
