/** What a test waits for and checks on the review screen, for any page showing the app. */
import type { Locator, Page } from 'playwright-core';

/** Waits out the brief pause of decision keys after a review came up by itself. */
export async function keysUnpaused(page: Page): Promise<void> {
  await page.locator('.dt-app[data-keys-paused]').waitFor({ state: 'detached' });
}

export interface DiffReadyOptions {
  /**
   * Whether to wait until decision keys are no longer paused (default true). A review that comes up by
   * itself pauses them briefly, so no keystroke meant for the previous one lands on it: a person sees
   * the notice and reads the diff first. False for a test that looks at the pause itself.
   */
  keysUnpaused?: boolean;
}

/** The review titled `title` is on screen with its diff drawn. */
export async function diffReady(page: Page, title: string, options: DiffReadyOptions = {}): Promise<void> {
  await page.locator('#dt-review-title', { hasText: title }).waitFor();
  await page.locator('[data-testid="diff-editor"][data-diff-ready="true"]').waitFor();
  if (options.keysUnpaused ?? true) await keysUnpaused(page);
}

/** The controls of hunk `n` (1-based), present while the hunk is on screen. */
export function hunk(page: Page, n: number): Locator {
  return page.locator(`[data-hunk="${n}"]`);
}

/** Waits until hunk 1, 2, … shows decision `decisions[0]`, `decisions[1]`, … */
export async function expectDecisions(page: Page, decisions: string[]): Promise<void> {
  for (const [i, decision] of decisions.entries()) {
    await hunk(page, i + 1)
      .and(page.locator(`[data-decision="${decision}"]`))
      .waitFor();
  }
}
