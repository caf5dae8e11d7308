/**
 * (o) Opening the window. DiffTray: the real headless app with three reviews pending, its page opened in
 * a fresh Chromium context; the floor: a bare React page (bench/pages/bare-react, built here with Vite)
 * that gets three titles over a WebSocket as it connects and draws them as a list. Timed in the page
 * from navigation (performance.now()): until the first queue item (`<li>` on the floor) is in the DOM
 * and a frame has begun after it. Long tasks (PerformanceObserver 'longtask') are recorded from the
 * start: the longest one that began before the queue was visible, and the longest one until the review
 * the app opens by itself is ready (diff computed, hunk controls placed) and 1 s after, Monaco's
 * loading and the editor's creation included; the floor's until its list, and 1 s after it.
 * Then a click on the second queued review until its diff is ready, raced against a bare Monaco diff
 * editor page (bench/pages/bare-monaco) handed the same texts over a WebSocket.
 * BOOT_RENDERER_DIR serves another build of the renderer (main's, for the "before" row) from the same app.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HeadlessServer } from '../src-main/headless/headless-server';
import { launchChromium } from '../test/support/chromium';
import { connectClaudeClient } from '../test/support/claude-client';
import { largeFilePair } from '../test/support/fixtures';
import { RENDERER_DIR } from '../test/support/headless-app';
import { startTestRuntime } from '../test/support/test-runtime';
import { buildBareMonaco } from './support/bare-monaco';
import { buildBareReact } from './support/bare-react';
import { openDiffArgs, writeFiles } from './support/claude-fleet';
import { startPageServer } from './support/page-server';
import { armArrival, arrival } from './support/page-probes';
import { figure } from './support/results';
import { interleave, since, sleep } from './support/stats';

const REPS = 7;
const PENDING = 3;
/** A 2,000-line file with 40 changed places: a review with some substance, not a stress case. */
const TEXTS = largeFilePair(2_000, 40);
/** Long tasks are counted until this long after the page's first screen is complete. */
const SETTLE_MS = 1_000;
const QUEUE_ITEM = '.dt-queue-item';
const DIFF_READY = '[data-testid="diff-editor"][data-diff-ready="true"]';

interface BootSample {
  queueVisibleMs: number;
  /** The longest task that began before the queue was visible. */
  longestBeforeQueueMs: number;
  /** The longest task until the page's first screen was complete, and SETTLE_MS after. */
  longestTaskMs: number;
}

interface BootProbeWindow {
  benchBoot: Record<string, number>;
  /** Every long task so far: [start, duration] in ms since navigation. */
  benchBootTasks: [number, number][];
}

/**
 * From the start of every page of `context`: the time (ms since navigation) at which each selector
 * first matched and a frame began after it, in window.benchBoot under its name.
 */
async function recordFirstMatches(context: BrowserContext, selectors: Record<string, string>): Promise<void> {
  await context.addInitScript((wanted: Record<string, string>) => {
    const w = window as unknown as BootProbeWindow;
    w.benchBoot = {};
    w.benchBootTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.benchBootTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
    const waiting = new Map(Object.entries(wanted));
    const observer = new MutationObserver(() => {
      for (const [name, selector] of waiting) {
        if (!document.querySelector(selector)) continue;
        waiting.delete(name);
        requestAnimationFrame(() => (w.benchBoot[name] = performance.now()));
      }
      if (waiting.size === 0) observer.disconnect();
    });
    observer.observe(document, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['data-diff-ready'],
    });
  }, selectors);
}

/** The time `name` was recorded at (see recordFirstMatches), once it has been. */
async function firstMatch(page: Page, name: string): Promise<number> {
  const handle = await page.waitForFunction(
    (key) => (window as unknown as BootProbeWindow).benchBoot[key],
    name,
    { timeout: 60_000 },
  );
  return Number(await handle.jsonValue());
}

/** The longest task that began before `until` (ms since navigation), and the longest of all so far. */
async function longestTasks(page: Page, until: number): Promise<{ before: number; all: number }> {
  const tasks = await page.evaluate(() => (window as unknown as BootProbeWindow).benchBootTasks);
  const longest = (list: [number, number][]) => Math.max(0, ...list.map(([, duration]) => duration));
  return { before: longest(tasks.filter(([start]) => start < until)), all: longest(tasks) };
}

async function freshPage(
  browser: Browser,
  selectors: Record<string, string>,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await recordFirstMatches(context, selectors);
  return { context, page: await context.newPage() };
}

const rendererDir = path.resolve(process.env.BOOT_RENDERER_DIR ?? RENDERER_DIR);
const runtime = await startTestRuntime();
const headless = await HeadlessServer.start({
  core: runtime.runtime.core,
  handler: runtime.runtime.handler,
  rendererDir,
});
const titles = Array.from({ length: PENDING }, (_, i) => `boot-${i}`);
const reactServer = await startPageServer(await buildBareReact(), { queue: titles });
const monacoServer = await startPageServer(await buildBareMonaco());
const browser = await launchChromium();
try {
  if (process.env.BOOT_RENDERER_DIR) console.log(`Renderer: ${rendererDir}`);
  const claude = await connectClaudeClient(
    runtime.runtime.bridge.port,
    runtime.runtime.bridge.tokenFor('claude-ide'),
  );
  const files = writeFiles(runtime.workspace, 'boot', PENDING, TEXTS.base);
  files.forEach((file, i) => {
    void claude.callTool('openDiff', openDiffArgs(file, TEXTS.proposed, titles[i]!)).catch(() => {});
  });

  const appBoot = async (): Promise<BootSample & { clickMs: number }> => {
    const { context, page } = await freshPage(browser, { queue: QUEUE_ITEM, ready: DIFF_READY });
    try {
      await page.goto(headless.url);
      const queueVisibleMs = await firstMatch(page, 'queue');
      await firstMatch(page, 'ready');
      await sleep(SETTLE_MS);
      const tasks = await longestTasks(page, queueVisibleMs);
      // The review opened by itself is the first; the second waits in the queue.
      await page
        .locator(QUEUE_ITEM)
        .nth(PENDING - 1)
        .waitFor();
      const second = await page.locator(QUEUE_ITEM).nth(1).getAttribute('data-review-id');
      await armArrival(page, `main [data-review-id="${second}"] ${DIFF_READY}`);
      const start = performance.now();
      await page.locator(`${QUEUE_ITEM}[data-review-id="${second}"]`).click();
      await arrival(page);
      return {
        queueVisibleMs,
        longestBeforeQueueMs: tasks.before,
        longestTaskMs: tasks.all,
        clickMs: since(start),
      };
    } finally {
      await context.close();
    }
  };

  const floorBoot = async (): Promise<BootSample & { clickMs: number }> => {
    const { context, page } = await freshPage(browser, { queue: 'li' });
    let sample: BootSample;
    try {
      await page.goto(reactServer.url);
      const queueVisibleMs = await firstMatch(page, 'queue');
      await sleep(SETTLE_MS);
      const tasks = await longestTasks(page, queueVisibleMs);
      sample = { queueVisibleMs, longestBeforeQueueMs: tasks.before, longestTaskMs: tasks.all };
    } finally {
      await context.close();
    }
    const monaco = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const editorPage = await monaco.newPage();
      await editorPage.goto(monacoServer.url);
      await editorPage.locator('body[data-connected="true"]').waitFor({ state: 'attached' });
      await armArrival(editorPage, '#diff[data-diff-ready="true"]');
      const start = performance.now();
      monacoServer.send({ path: files[1], ...TEXTS });
      await arrival(editorPage);
      return { ...sample, clickMs: since(start) };
    } finally {
      await monaco.close();
    }
  };

  const [app, floor] = await interleave(REPS, appBoot, floorBoot);
  const of = <K extends keyof (BootSample & { clickMs: number })>(samples: typeof app, key: K) =>
    samples.map((sample) => sample[key]);
  figure(
    'o',
    'navigation → queue visible',
    'ms',
    of(app, 'queueVisibleMs'),
    'bare React page',
    of(floor, 'queueVisibleMs'),
    '≤ 1.3×',
  );
  figure(
    'o',
    'longest main-thread task until the queue is visible',
    'ms',
    of(app, 'longestBeforeQueueMs'),
    'bare React page',
    of(floor, 'longestBeforeQueueMs'),
    '≤ 100 ms',
  );
  figure(
    'o',
    'longest main-thread task until the first review is ready, + 1 s',
    'ms',
    of(app, 'longestTaskMs'),
    'bare React page',
    of(floor, 'longestTaskMs'),
    '≤ 100 ms',
  );
  figure(
    'o',
    'click on a queued review → diff ready (2,000 lines / 40 hunks)',
    'ms',
    of(app, 'clickMs'),
    'bare Monaco, texts sent',
    of(floor, 'clickMs'),
    'unchanged or faster',
  );
  await claude.close();
} finally {
  await browser.close();
  await monacoServer.close();
  await reactServer.close();
  await headless.close();
  await runtime.close();
}
