/**
 * The big-file case of the review experience, in headless Chromium against the real headless app:
 * a 20,000-line (about 1 MB) file with 500 hunks. Prints the time to compute the hunks (in main), the
 * time from the proposal to the first render of the diff with its hunk controls, and the longest
 * main-thread block in the page while it opens and while the person walks through every hunk.
 * Needs `npm run build` first (it serves dist/renderer).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { computeHunks } from '../shared/hunks';
import { launchChromium, openPage } from '../test/support/chromium';
import { startHeadlessApp } from '../test/support/headless-app';
import { connectClaudeClient } from '../test/support/claude-client';
import { largeFilePair } from '../test/support/fixtures';
import { median } from './stats';

const { base, proposed } = largeFilePair(20_000, 500);
const computeSamples: number[] = [];
for (let i = 0; i < 5; i++) {
  const start = performance.now();
  computeHunks(base, proposed);
  computeSamples.push(performance.now() - start);
}

const app = await startHeadlessApp();
const browser = await launchChromium();
try {
  const { page } = await openPage(browser, app.url);
  // Long tasks (> 50 ms on the main thread) are recorded from here on.
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  const longest = () =>
    page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      const value = Math.max(0, ...w.longTasks);
      w.longTasks = [];
      return value;
    });
  await longest();

  const claude = await connectClaudeClient(
    app.runtime.bridge.port,
    app.runtime.bridge.tokenFor('claude-ide'),
  );
  const file = path.join(app.workspace, 'big.ts');
  writeFileSync(file, base);
  const start = performance.now();
  void claude
    .callTool('openDiff', {
      old_file_path: file,
      new_file_path: file,
      new_file_contents: proposed,
      tab_name: 'big',
    })
    .catch(() => {});
  await page.locator('[data-testid="diff-editor"][data-diff-ready="true"]').waitFor({ timeout: 120_000 });
  const firstRender = performance.now() - start;
  const openBlock = await longest();

  const hunks = await page.evaluate(
    () => document.querySelector('[data-testid="hunk-counter"]')?.textContent ?? '',
  );
  const navStart = performance.now();
  for (let i = 0; i < 499; i++) await page.keyboard.press('j');
  await page.getByTestId('hunk-counter').filter({ hasText: 'Hunk 500 of 500' }).waitFor();
  const navigation = performance.now() - navStart;
  const navBlock = await longest();

  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(`file: ${(base.length / 1024 / 1024).toFixed(2)} MB, 20000 lines, ${hunks.trim()}`);
  console.log(`compute hunks (main, median of 5)          ${ms(median(computeSamples))}`);
  console.log(`proposal sent -> diff rendered and ready  ${ms(firstRender)}`);
  console.log(`longest main-thread block while opening  ${ms(openBlock)}`);
  console.log(
    `walk all 500 hunks with j                  ${ms(navigation)} (${ms(navigation / 499)} per hunk)`,
  );
  console.log(`longest main-thread block while walking  ${ms(navBlock)}`);
  await claude.close();
} finally {
  await browser.close();
  await app.close();
}
