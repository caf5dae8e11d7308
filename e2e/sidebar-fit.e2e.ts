/**
 * The sidebar and the empty state at 1024×700, in Chromium against the real headless app: the empty state
 * fits without scrolling; the view tabs stay on one row with large counts; History's words for a review
 * accepted in part; the status line clearing when another review is opened; a Claude Code tab name's
 * glyphs.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readDiskSnapshot } from '../src-main/core/disk/disk-snapshot';
import { screenshot } from '../test/support/chromium';
import { BASE, PROPOSED } from '../test/support/fixtures';
import { waitForReview } from '../test/support/wait';
import { useReviewSession } from './support/review-session';

const session = useReviewSession({ openPage: false });

/** Opens the page at 1024×700, the smallest window the issue asks to fit. */
async function openSmall(): Promise<Page> {
  await session.open();
  await session.page.setViewportSize({ width: 1024, height: 700 });
  return session.page;
}

/** Every element that scrolls (its content taller than its box, with overflow that scrolls). */
function scrollers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.scrollingElement;
    if (root && root.scrollHeight > root.clientHeight) found.push('document');
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const { overflowY } = getComputedStyle(element);
      if ((overflowY === 'auto' || overflowY === 'scroll') && element.scrollHeight > element.clientHeight + 1)
        found.push(element.className || element.tagName);
    }
    return found;
  });
}

/** Where each sidebar tab is: its top, and whether its content is cut off. */
function tabBoxes(page: Page): Promise<Array<{ name: string; top: number; clipped: boolean }>> {
  return page.getByRole('tab').evaluateAll((tabs) =>
    tabs.map((tab) => {
      const box = tab.getBoundingClientRect();
      const list = tab.parentElement!.getBoundingClientRect();
      return {
        name: tab.textContent ?? '',
        top: Math.round(box.top),
        clipped:
          tab.scrollWidth > tab.clientWidth || box.right > list.right + 0.5 || box.left < list.left - 0.5,
      };
    }),
  );
}

describe('the sidebar and the empty state at 1024×700', () => {
  it('the empty state fits: neither the document nor any pane scrolls, even under the wheel', async () => {
    const page = await openSmall();
    const empty = page.getByTestId('empty-state');
    await empty.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
    await page.mouse.move(600, 400);
    await page.mouse.wheel(0, 2000);
    await page.mouse.move(100, 300);
    await page.mouse.wheel(0, 2000);
    expect(await scrollers(page)).toEqual([]);
    expect(await page.evaluate(() => document.scrollingElement!.scrollTop)).toBe(0);
    await screenshot(page, 'empty-state-1024x700');
    // The rarely used agents are folded, and open on demand.
    const more = empty.locator('details.dt-more-agents');
    expect(await more.getAttribute('open')).toBeNull();
    expect(await empty.getByRole('heading', { name: 'NEXUS3' }).isVisible()).toBe(false);
    await more.locator('summary').click();
    await empty.getByRole('heading', { name: 'NEXUS3' }).waitFor();
    await screenshot(page, 'empty-state-more-agents');
  });

  it('the view tabs stay on one row with counts past 99, at 1024×700 and at the narrowest sidebar', async () => {
    const page = await openSmall();
    const { app } = session;
    const { core } = app.runtime;
    // 240 approval cards from three scripts (at most 100 pending each), 130 of them then ended.
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      const client = core.clients.connect(`script ${name}`, 'native');
      for (let i = 0; i < 80; i++) {
        const added = core.queue.add({
          client,
          title: `Run ${name} ${i}`,
          files: [],
          approval: { kind: 'command', command: `echo ${name} ${i}` },
        });
        added.outcome.catch(() => {});
        ids.push(added.id);
      }
    }
    for (const id of ids.slice(0, 130)) core.queue.reject(id);
    const tabs = page.getByRole('tablist', { name: 'Sidebar views' });
    await tabs.getByRole('tab', { name: 'History' }).getByText('99+').waitFor();
    await tabs.getByRole('tab', { name: 'Queue' }).getByText('99+').waitFor();
    const check = async () => {
      const boxes = await tabBoxes(page);
      expect(boxes.map((box) => box.name)).toEqual(['Queue99+', 'History99+', 'Connections4']);
      expect(new Set(boxes.map((box) => box.top)).size).toBe(1);
      expect(boxes.filter((box) => box.clipped)).toEqual([]);
    };
    await check();
    // Narrower, down to the sidebar's narrowest (its column's minimum, 220 px).
    for (const width of [275, 250, 220]) {
      await page.evaluate((px) => {
        const sidebar = document.querySelector<HTMLElement>('.dt-sidebar')!;
        sidebar.style.width = sidebar.style.maxWidth = `${px}px`;
      }, width);
      await check();
    }
    await screenshot(page, 'sidebar-tabs-narrow');
  });

  it('History says "Partially accepted" after a real partial decision; the status line clears as another review opens', async () => {
    const page = await openSmall();
    const { app } = session;
    const file = session.writeWorkspaceFile('mixed.txt', BASE);
    const answer = session.openDiff(file, PROPOSED, 'mixed.txt (edit)');
    await session.diffReady('mixed.txt');
    // Hunk 1 accepted, hunk 2 rejected, hunk 3 left undecided (it goes in as accepted).
    await page.keyboard.press('ControlOrMeta+y');
    await page.keyboard.press('j');
    await page.keyboard.press('ControlOrMeta+n');
    await session.expectDecisions(['accepted', 'rejected', 'pending']);
    await page.keyboard.press('ControlOrMeta+Enter');
    await answer;
    await waitForReview(app.runtime.core, (r) => r.state === 'accepted');
    const status = page.getByRole('status').filter({ hasText: 'Review submitted' });
    await status.waitFor();

    // A second review, all rejected, and a third one, accepted whole.
    const other = session.writeWorkspaceFile('other.txt', BASE);
    const rejected = app.runtime.core.queue.add({
      client: app.runtime.core.clients.connect('Script', 'native'),
      title: 'other.txt',
      files: [{ path: other, base: await readDiskSnapshot(other), proposedText: PROPOSED }],
    });
    rejected.outcome.catch(() => {});
    app.runtime.core.queue.reject(rejected.id, 'not now');

    await page.getByRole('tab', { name: 'History' }).click();
    const history = page.getByRole('navigation', { name: 'Review history' });
    const partial = history.getByRole('button', { name: /mixed\.txt/ });
    await partial.getByText('Partially accepted', { exact: true }).waitFor();
    const whole = history.getByRole('button', { name: /other\.txt/ });
    await whole.getByText('Rejected', { exact: true }).waitFor();
    // The submit's message still applies: nothing else was opened.
    expect(await status.count()).toBe(1);
    await whole.click();
    await page.getByTestId('ended-banner').waitFor();
    await page.getByRole('status').filter({ hasText: 'Review submitted' }).waitFor({ state: 'detached' });
    expect((await page.getByRole('status').textContent())?.trim()).toBe('');
  });

  it('a Claude Code tab name shows without its glyphs the UI font lacks (⧉)', async () => {
    const page = await openSmall();
    const file = session.writeWorkspaceFile('glyph.txt', BASE);
    void session.openDiff(file, PROPOSED, '✻ [Claude Code] glyph.txt (1a2b3c) ⧉');
    await session.diffReady('glyph.txt');
    const queue = page.getByRole('navigation', { name: 'Review queue' });
    await queue.getByText('[Claude Code] glyph.txt (1a2b3c)', { exact: true }).waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(/[⧉✻]/);
  });
});
