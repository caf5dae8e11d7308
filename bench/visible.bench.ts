/**
 * (c) Request → visible: a Claude Code client sends openDiff to the real headless app; the time until
 * its item is in the queue of the page (Chromium). Raced against the floor: Node sends a message on a
 * bare page's WebSocket and the page inserts an <li>. Both timed the same way: from the send in Node to
 * a MutationObserver in the page seeing the element (its answer crosses Playwright's CDP back, alike).
 * One review stays on screen meanwhile, as when a person is reading one while others arrive.
 */
import path from 'node:path';
import { launchChromium } from '../test/support/chromium';
import { connectClaudeClient } from '../test/support/claude-client';
import { startHeadlessApp } from '../test/support/headless-app';
import { openDiffArgs, SMALL_EDIT, writeFiles } from './support/claude-fleet';
import { startPageServer } from './support/page-server';
import { armArrival, arrival } from './support/page-probes';
import { figure } from './support/results';
import { interleave, since } from './support/stats';

const REPS = 40;
const QUEUE_ITEM = '.dt-queue-item';

const app = await startHeadlessApp();
const floorServer = await startPageServer(path.resolve('bench/pages/ws-floor'));
const browser = await launchChromium();
try {
  const port = app.runtime.bridge.port;
  const token = app.runtime.bridge.tokenFor('claude-ide');
  const reader = await connectClaudeClient(port, token);
  const agent = await connectClaudeClient(port, token);
  const [onScreen, file] = writeFiles(app.workspace, 'visible', 2, SMALL_EDIT.base);

  const newPage = async (url: string) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(url);
    return page;
  };
  const appPage = await newPage(app.url);
  void reader.callTool('openDiff', openDiffArgs(onScreen!, SMALL_EDIT.proposed, 'on screen')).catch(() => {});
  await appPage.locator('[data-testid="diff-editor"][data-diff-ready="true"]').waitFor();
  const floorPage = await newPage(floorServer.url);
  await floorPage.locator('body[data-connected="true"]').waitFor({ state: 'attached' });

  let n = 0;
  const appRep = async () => {
    const tab = `arrival-${n++}`;
    await armArrival(appPage, QUEUE_ITEM, tab);
    const start = performance.now();
    const answer = agent.callTool('openDiff', openDiffArgs(file!, SMALL_EDIT.proposed, tab));
    await arrival(appPage);
    const elapsed = since(start);
    // Decided through the app API, then gone from the page before the next round.
    const item = appPage.locator(QUEUE_ITEM, { hasText: tab });
    const reviewId = await item.getAttribute('data-review-id');
    await app.runtime.handler('submit', { reviewId });
    await answer;
    await item.waitFor({ state: 'detached' });
    return elapsed;
  };
  const floorRep = async () => {
    const title = `arrival-${n++}`;
    await armArrival(floorPage, 'li', title);
    const start = performance.now();
    floorServer.send({ add: title });
    await arrival(floorPage);
    const elapsed = since(start);
    floorServer.send({ remove: title });
    await floorPage.locator('li', { hasText: title }).waitFor({ state: 'detached' });
    return elapsed;
  };

  const [appSamples, floorSamples] = await interleave(REPS, appRep, floorRep, 3);
  figure(
    'c',
    'request → queue item in the page (p50)',
    'ms',
    appSamples,
    'bare page WebSocket → `<li>`',
    floorSamples,
    '≤ 3×',
  );
  await reader.close();
  await agent.close();
} finally {
  await browser.close();
  await floorServer.close();
  await app.close();
}
