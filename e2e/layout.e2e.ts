/**
 * The window is the app, and the diff takes the room (real Chromium against the real headless app): the
 * document never scrolls under the wheel on any view at 800×600, 1024×700 and 1440×900; the diff keeps
 * at least 65% / 75% of the window's height with a described review and a note; the toolbar is one row
 * with Submit in one place; actions on selected lines appear only with a selection; the description
 * shows two lines with "more"; the note key opens the note box; at 1024×700 the hunk bars fit the diff
 * and a saved comment shows whole.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NATIVE_AUTH_HEADER } from '../shared/native-protocol';
import { RawNative } from '../test/support/raw-native';
import { BASE, PROPOSED } from '../test/support/fixtures';
import { screenshot } from '../test/support/chromium';
import { useReviewSession } from './support/review-session';

const session = useReviewSession();
const { writeWorkspaceFile, diffReady } = session;

const SIZES = [
  { width: 800, height: 600 },
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
] as const;

/** A rationale of several sentences: more than two lines at every width tested. */
const RATIONALE = Array.from(
  { length: 12 },
  (_, i) => `Step ${i + 1}: the Greek letters that start a sentence are capitalised, the others are kept.`,
).join(' ');

/** A native client proposing BASE → PROPOSED for `name`, with a long rationale (the review's description). */
async function describedReview(name: string, title: string): Promise<RawNative> {
  writeWorkspaceFile(name, BASE);
  const { native } = session.app.runtime;
  const client = await RawNative.open(native.port, { [NATIVE_AUTH_HEADER]: native.token });
  expect((await client.request('hello', { client_name: 'layout-agent', client_version: '1.0' })).type).toBe(
    'response',
  );
  const proposed = await client.request('propose_change_set', {
    title,
    rationale: RATIONALE,
    files: [{ path: name, after: PROPOSED }],
  });
  expect(proposed.type).toBe('response');
  return client;
}

/** The document's scroll state: its scrollable height against its visible height, and where it is. */
const documentScroll = (page: Page) =>
  page.evaluate(() => {
    const root = document.scrollingElement!;
    return { scrollHeight: root.scrollHeight, clientHeight: root.clientHeight, scrollTop: root.scrollTop };
  });

/** Wheels over each element that is on screen, then expects the document not to have moved or grown. */
async function expectNoDocumentScroll(page: Page, selectors: readonly string[]): Promise<void> {
  for (const selector of selectors) {
    const box = await page.locator(selector).first().boundingBox();
    if (!box) throw new Error(`${selector} is not on screen`);
    await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 40));
    await page.mouse.wheel(0, 2000);
    await page.mouse.wheel(0, 2000);
  }
  // Let the scroll (if any) land before reading it.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  const scroll = await documentScroll(page);
  expect(scroll.scrollHeight).toBe(scroll.clientHeight);
  expect(scroll.scrollTop).toBe(0);
}

/** Every visible button of the toolbar shares one top offset: one row. */
async function toolbarTops(page: Page): Promise<number[]> {
  return page.getByTestId('toolbar').evaluate((toolbar) =>
    [...toolbar.querySelectorAll('button')]
      .map((button) => button.getBoundingClientRect())
      .filter((rect) => rect.width > 0)
      .map((rect) => Math.round(rect.top)),
  );
}

const diffRatio = (page: Page) =>
  page
    .getByTestId('diff-editor')
    .evaluate((diff) => diff.getBoundingClientRect().height / window.innerHeight);

const noteBox = (page: Page) => page.getByRole('textbox', { name: 'Note to the agent' });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

describe('the window is the app', () => {
  for (const size of SIZES) {
    it(`no view scrolls the document at ${size.width}×${size.height}`, async () => {
      const { page } = session;
      await page.setViewportSize(size);

      // The empty state.
      await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
      await expectNoDocumentScroll(page, ['.dt-sidebar', '.dt-main']);

      // The queue with a review open: over the sidebar, the toolbar and the diff.
      const client = await describedReview('scroll.txt', 'Scroll test');
      await diffReady('Scroll test');
      await noteBox(page).fill('Keep the lowercase ones.');
      await expectNoDocumentScroll(page, [
        '.dt-sidebar',
        '[data-testid="toolbar"]',
        '[data-testid="diff-editor"]',
      ]);
      await screenshot(page, `layout-queue-${size.width}x${size.height}`);
      // The toolbar fits its row: Submit and Reject… are in view, nothing hides behind a scroll.
      const toolbar = await page
        .getByTestId('toolbar')
        .evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
      expect(toolbar.scrollWidth).toBeLessThanOrEqual(toolbar.clientWidth);
      for (const name of ['Submit', 'Reject…']) {
        const box = await button(page, name).boundingBox();
        expect(box && box.x + box.width).toBeLessThanOrEqual(size.width);
      }
      // The tabs and the status line are still where they were.
      expect(await page.getByRole('tab', { name: /^History/ }).isVisible()).toBe(true);
      const status = await page.getByRole('status').first().boundingBox();
      expect(status && status.y + status.height).toBeLessThanOrEqual(size.height + 0.5);

      // History, then Connections, then Settings.
      await page.getByRole('tab', { name: /^History/ }).click();
      await expectNoDocumentScroll(page, ['.dt-sidebar', '.dt-main']);
      await page.getByRole('tab', { name: /^Connections/ }).click();
      await expectNoDocumentScroll(page, ['.dt-sidebar', '.dt-main']);
      await button(page, 'Settings').click();
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await expectNoDocumentScroll(page, ['.dt-sidebar', '.dt-settings']);
      client.close();
    });
  }
});

describe('the diff takes the room', () => {
  for (const [size, least] of [
    [{ width: 1024, height: 700 }, 0.65],
    [{ width: 1440, height: 900 }, 0.75],
  ] as const) {
    it(`the diff keeps ${least * 100}% of ${size.width}×${size.height} with a description and a note; one toolbar row`, async () => {
      const { page } = session;
      await page.setViewportSize(size);
      const client = await describedReview('room.txt', 'Room test');
      await diffReady('Room test');
      await noteBox(page).fill('Keep the lowercase ones.');
      await noteBox(page).press('Escape');
      await page.getByTestId('review-description').waitFor();
      await expect.poll(() => diffRatio(page)).toBeGreaterThanOrEqual(least);

      const tops = await toolbarTops(page);
      expect(tops.length).toBeGreaterThanOrEqual(7);
      expect(new Set(tops).size).toBe(1);
      await screenshot(page, `layout-review-${size.width}x${size.height}`);
      client.close();
    });
  }

  it('Submit stays in place as the summary changes; selection actions appear only with a selection', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1024, height: 700 });
    const client = await describedReview('still.txt', 'Still test');
    await diffReady('Still test');
    const submit = button(page, 'Submit');
    const summary = page.getByTestId('submit-summary');
    const before = await submit.boundingBox();
    const beforeText = await summary.textContent();

    await page.getByRole('button', { name: 'Accept hunk 1', exact: true }).click();
    await expect.poll(() => summary.textContent()).not.toBe(beforeText);
    expect(await submit.boundingBox()).toEqual(before);
    await page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
    await expect.poll(() => summary.textContent()).toContain('1 rejected');
    expect(await submit.boundingBox()).toEqual(before);

    // No line actions until lines are selected: then they float over the diff, which does not move.
    for (const name of ['Accept selected lines', 'Reject selected lines', 'Send to agent']) {
      expect(await button(page, name).count()).toBe(0);
    }
    const diffBefore = await page.getByTestId('diff-editor').boundingBox();
    // A click on the proposal's line 5 (hunk 2) selects it: the caret stands for its line.
    const editor = page.getByTestId('diff-editor').locator('.editor.modified');
    const lineFive = await editor.locator('.line-numbers').filter({ hasText: /^5$/ }).boundingBox();
    const editorBox = await editor.boundingBox();
    await page.mouse.click(editorBox!.x + editorBox!.width * 0.6, lineFive!.y + lineFive!.height / 2);
    await button(page, 'Accept selected lines').waitFor();
    expect(await button(page, 'Reject selected lines').isVisible()).toBe(true);
    expect(await button(page, 'Send to agent').isVisible()).toBe(true);
    expect(await page.getByTestId('diff-editor').boundingBox()).toEqual(diffBefore);
    expect(await submit.boundingBox()).toEqual(before);
    await screenshot(page, 'layout-selection-actions');
    client.close();
  });

  it('the description shows two lines with "more"; the note key opens the one-line note box', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1024, height: 700 });
    const client = await describedReview('words.txt', 'Words test');
    await diffReady('Words test');
    const description = page.getByTestId('review-description');
    const lineHeight = await description.evaluate((p) => parseFloat(getComputedStyle(p).lineHeight));
    const clamped = await description.boundingBox();
    expect(clamped!.height).toBeLessThanOrEqual(2 * lineHeight + 1);
    // The whole text is there (for a screen reader too), and the description is not a scroll box.
    expect(await description.textContent()).toBe(RATIONALE);
    expect(await description.evaluate((p) => getComputedStyle(p).overflowY)).toBe('hidden');
    await button(page, 'more').click();
    await expect.poll(async () => (await description.boundingBox())!.height).toBeGreaterThan(clamped!.height);
    await button(page, 'less').click();
    await expect.poll(async () => (await description.boundingBox())!.height).toBe(clamped!.height);

    // One line; the note key gives it focus and room, the review keys stay out of it, Escape leaves it.
    const box = noteBox(page);
    const oneLine = (await box.boundingBox())!.height;
    expect(oneLine).toBeLessThan(32);
    await page.keyboard.press('n');
    await expect.poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
    expect((await box.boundingBox())!.height).toBeGreaterThan(oneLine * 2);
    await page.keyboard.type('just j and k');
    expect(await box.inputValue()).toBe('just j and k');
    expect(await page.getByTestId('hunk-counter').textContent()).toBe('Hunk 1 of 3');
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await box.boundingBox())!.height).toBe(oneLine);
    await page.keyboard.press('j');
    await expect.poll(() => page.getByTestId('hunk-counter').textContent()).toBe('Hunk 2 of 3');
    client.close();
  });

  it("at 1024×700 each hunk bar fits the proposal's side, and a saved comment of two lines shows whole", async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1024, height: 700 });
    const client = await describedReview('narrow.txt', 'Narrow test');
    await diffReady('Narrow test');
    const modified = page.getByTestId('diff-editor').locator('.editor.modified');
    const side = await modified.locator('.overflow-guard').boundingBox();
    const bars = await page
      .locator('.dt-hunk-bar')
      .evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().right));
    expect(bars.length).toBeGreaterThan(0);
    for (const right of bars) expect(right).toBeLessThanOrEqual(side!.x + side!.width);
    // Its buttons stay whole when the bar gives way.
    const accept = await page.getByRole('button', { name: 'Accept hunk 1', exact: true }).boundingBox();
    expect(accept!.x + accept!.width).toBeLessThanOrEqual(side!.x + side!.width);

    await modified.locator('.line-numbers').filter({ hasText: /^1$/ }).click();
    const comment = page.getByRole('group', { name: 'Comment on line 1' });
    await comment
      .getByRole('textbox')
      .fill('Spell it Alpha: only the first letter is a capital one, please.');
    await comment.getByRole('button', { name: 'Save' }).click();
    const text = comment.locator('.dt-line-comment-text');
    await text.waitFor();
    expect(await text.evaluate((p) => p.scrollHeight > p.clientHeight + 1)).toBe(false);
    client.close();
  });
});
