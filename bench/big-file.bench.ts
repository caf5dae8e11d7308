/**
 * (d) Open and walk big files in Chromium. DiffTray: a Claude Code client proposes the file to the real
 * headless app; from the send until the diff is ready with its hunk controls, then `j` from hunk to
 * hunk. The floor: a bare Monaco diff editor page (bench/pages/bare-monaco, built here from the same
 * monaco-editor and the app's Monaco setup and options) handed the same texts over a WebSocket; from
 * the send until Monaco has computed the diff, then `j` → the diff editor's goToDiff('next').
 * Each repetition is a fresh page (and a fresh app), alternating app and floor. Also: the longest
 * main-thread task while opening and the page's JS heap once open.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../test/support/chromium';
import { connectClaudeClient } from '../test/support/claude-client';
import { largeFilePair } from '../test/support/fixtures';
import { startHeadlessApp } from '../test/support/headless-app';
import { buildBareMonaco } from './support/bare-monaco';
import { openDiffArgs } from './support/claude-fleet';
import { startPageServer, type PageServer } from './support/page-server';
import { armArrival, arrival, jsHeapMb, longestTask, recordLongTasks } from './support/page-probes';
import { figure } from './support/results';
import { interleave, since } from './support/stats';
import { minifiedPair } from './support/texts';

const REPS = 5;
/** Hunks walked per repetition: enough to see the per-hunk cost, few enough to keep the bench short. */
const WALK = 200;
const OPEN_TIMEOUT_MS = 180_000;

interface Case {
  label: string;
  file: string;
  texts: { base: string; proposed: string };
  walk: boolean;
}

interface Sample {
  openMs: number;
  longestTaskMs: number;
  heapMb: number;
  heapAsIsMb: number;
  walkPerHunkMs: number;
}

const CASES: Case[] = [
  { label: '20k lines / 500 hunks', file: 'big.ts', texts: largeFilePair(20_000, 500), walk: true },
  { label: '100k lines / 2,500 hunks', file: 'big.ts', texts: largeFilePair(100_000, 2_500), walk: true },
  {
    label: '5 MB minified JS (5 lines of 1 MB)',
    file: 'bundle.min.js',
    texts: minifiedPair(5, 1 << 20),
    walk: false,
  },
];

/** What each case reports: the sample's field, the figure's name, its unit and the goal. */
const FIGURES: [keyof Sample, string, string, string][] = [
  ['openMs', 'open → diff ready', 'ms', '≤ 1.10×'],
  ['longestTaskMs', 'longest main-thread task while opening', 'ms', '≤ 1.0×'],
  ['heapMb', 'page JS heap once open (after GC)', 'MB', '≤ 1.2×'],
  ['heapAsIsMb', 'page JS heap once open (garbage included)', 'MB', '≤ 1.2×'],
  ['walkPerHunkMs', 'walk per hunk with j', 'ms', '≤ 1.10×, flat in hunk count'],
];

/** `promise`, or an error once `ms` have passed. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function freshPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await recordLongTasks(context);
  return { context, page: await context.newPage() };
}

/** Presses `j` WALK times; per press, until the page's counter says the last one was handled. */
async function walk(page: Page, counter: string, done: string): Promise<number> {
  await armArrival(page, counter, done);
  const start = performance.now();
  for (let i = 0; i < WALK; i++) await page.keyboard.press('j');
  await arrival(page);
  return since(start) / WALK;
}

/** The app's diff host size, so the bare editor draws the same area. */
let hostSize = { w: 900, h: 600 };

async function appRep(browser: Browser, c: Case): Promise<Sample> {
  const app = await startHeadlessApp();
  const { context, page } = await freshPage(browser);
  try {
    const file = path.join(app.workspace, c.file);
    writeFileSync(file, c.texts.base);
    const claude = await connectClaudeClient(
      app.runtime.bridge.port,
      app.runtime.bridge.tokenFor('claude-ide'),
    );
    await page.goto(app.url);
    await page.getByTestId('empty-state').waitFor();
    // Monaco loads after the first screen (editor-loader.ts): opening is timed once it has, as before.
    await page.locator('html[data-editor="ready"]').waitFor({ state: 'attached' });
    await longestTask(page);
    await armArrival(page, '[data-testid="diff-editor"][data-diff-ready="true"]');
    const start = performance.now();
    void claude.callTool('openDiff', openDiffArgs(file, c.texts.proposed, 'big')).catch(() => {});
    await withTimeout(arrival(page), OPEN_TIMEOUT_MS);
    const openMs = since(start);
    const longestTaskMs = await longestTask(page);
    const box = await page.locator('.dt-diff-host').boundingBox();
    if (box) hostSize = { w: Math.round(box.width), h: Math.round(box.height) };
    const heap = await jsHeapMb(page);
    let walkPerHunkMs = NaN;
    if (c.walk) {
      // A review that came up by itself pauses decision keys briefly (review-page.ts keysUnpaused).
      await page.locator('.dt-app[data-keys-paused]').waitFor({ state: 'detached' });
      await page
        .getByTestId('hunk-counter')
        .filter({ hasText: /^Hunk 1 of/ })
        .waitFor();
      walkPerHunkMs = await walk(page, '[data-testid="hunk-counter"]', `Hunk ${WALK + 1} of`);
    }
    await claude.close();
    return { openMs, longestTaskMs, heapMb: heap.retained, heapAsIsMb: heap.asIs, walkPerHunkMs };
  } finally {
    await context.close();
    await app.close();
  }
}

async function bareRep(browser: Browser, server: PageServer, c: Case): Promise<Sample> {
  const { context, page } = await freshPage(browser);
  try {
    await page.goto(`${server.url}?w=${hostSize.w}&h=${hostSize.h}`);
    await page.locator('body[data-connected="true"]').waitFor({ state: 'attached' });
    await longestTask(page);
    await armArrival(page, '#diff[data-diff-ready="true"]');
    const start = performance.now();
    server.send({ path: c.file, ...c.texts });
    await withTimeout(arrival(page), OPEN_TIMEOUT_MS);
    const openMs = since(start);
    const longestTaskMs = await longestTask(page);
    const heap = await jsHeapMb(page);
    const walkPerHunkMs = c.walk ? await walk(page, '#counter', `Change ${WALK}`) : NaN;
    return { openMs, longestTaskMs, heapMb: heap.retained, heapAsIsMb: heap.asIs, walkPerHunkMs };
  } finally {
    await context.close();
  }
}

const bareServer = await startPageServer(await buildBareMonaco());
const browser = await launchChromium();
try {
  for (const c of CASES) {
    const mb = (c.texts.base.length / 1024 / 1024).toFixed(1);
    console.log(`-- ${c.label} (${mb} MB)`);
    const [app, bare] = await interleave(
      REPS,
      () => appRep(browser, c),
      () => bareRep(browser, bareServer, c),
      0,
    );
    for (const [key, name, unit, goal] of FIGURES) {
      if (key === 'walkPerHunkMs' && !c.walk) continue;
      const values = (samples: Sample[]) => samples.map((sample) => sample[key]);
      figure('d', `${name}, ${c.label}`, unit, values(app), 'bare Monaco', values(bare), goal);
    }
  }
} finally {
  await browser.close();
  await bareServer.close();
}
