/**
 * A big proposal as a person meets it: a 20,000-line file (about 1 MB) with 500 hunks, proposed over
 * openDiff, walked to its last hunk by keyboard, decided, and submitted; the client gets exactly the
 * composed text.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { largeFilePair } from '../test/support/fixtures';
import { computeHunks } from '../shared/hunks';
import { texts } from '../test/support/claude-client';
import { spliceChosenHunks } from '../test/support/hunk-oracles';
import { screenshot } from '../test/support/chromium';
import { useReviewSession } from './support/review-session';

const session = useReviewSession();
const { writeWorkspaceFile, openDiff, diffReady, hunk } = session;
const counter = (text: string) =>
  session.page.getByTestId('hunk-counter').filter({ hasText: new RegExp(`^${text}$`) });

interface DiffRequests {
  diffRequests: number;
}

/** Counts the diffs the page asks Monaco's worker for (the worker is made at the first). */
async function countDiffRequests(page: Page): Promise<void> {
  await page.evaluate(() => {
    const counted = window as unknown as DiffRequests & { Worker: typeof Worker };
    counted.diffRequests = 0;
    counted.Worker = class extends counted.Worker {
      override postMessage(message: unknown, options?: StructuredSerializeOptions | Transferable[]): void {
        if ((message as { method?: unknown } | null)?.method === '$computeDiff') counted.diffRequests += 1;
        super.postMessage(message, options as StructuredSerializeOptions);
      }
    };
  });
}

describe('a big file', () => {
  it(
    '20,000 lines with 500 hunks: opens, walks to the last hunk by keyboard, and submits exactly the composed text',
    { timeout: 180_000 },
    async () => {
      const { page } = session;
      const { base, proposed } = largeFilePair(20_000, 500);
      const hunks = computeHunks(base, proposed);
      expect(hunks).toHaveLength(500);
      const file = writeWorkspaceFile('big.ts', base);
      await countDiffRequests(page);
      const answer = openDiff(file, proposed, 'big.ts (edit)');

      await diffReady('big.ts');
      // Once: the view options Monaco's diff depends on were in place before the texts went in.
      expect(await page.evaluate(() => (window as unknown as DiffRequests).diffRequests)).toBe(1);
      await counter('Hunk 1 of 500').waitFor();
      // Only the hunks on screen have controls.
      const controls = await page.locator('[data-hunk]').count();
      expect(controls).toBeGreaterThan(0);
      expect(controls).toBeLessThan(50);
      await screenshot(page, 'big-file');

      // j, 499 times, to the last hunk.
      for (let i = 0; i < 499; i++) await page.keyboard.press('j');
      await counter('Hunk 500 of 500').waitFor();
      await page.locator('[data-testid="diff-editor"][data-current-hunk="500"]').waitFor();
      await hunk(500).waitFor();
      await page.keyboard.press('ControlOrMeta+y');
      await hunk(500).and(page.locator('[data-decision="accepted"]')).waitFor();

      await page.keyboard.press('k');
      await counter('Hunk 499 of 500').waitFor();
      await hunk(499).waitFor();
      await page.keyboard.press('ControlOrMeta+n');
      await hunk(499).and(page.locator('[data-decision="rejected"]')).waitFor();
      await page
        .getByTestId('submit-summary')
        .filter({ hasText: '1 accepted, 1 rejected, 498 undecided hunks will be accepted' })
        .waitFor();

      await page.getByRole('button', { name: 'Submit', exact: true }).click();
      // Undecided hunks go in as accepted: everything but hunk 499.
      const expected = spliceChosenHunks(
        base,
        proposed,
        hunks,
        hunks.map((h) => h.index !== 498),
      );
      expect(texts(await answer)).toEqual(['FILE_SAVED', expected]);
      expect(readFileSync(file, 'utf8')).toBe(base);
    },
  );
});
