/**
 * What every real-client test does in DiffTray's window, as a person would: wait for the CLI's edit to
 * come up, then accept hunk 1 and reject hunk 2 and submit, or reject the whole proposal with a note.
 * And the texts they edit: a file whose proposal has exactly two hunks.
 */
import type { Page } from 'playwright-core';
import { lines } from '../../../test/support/fixtures';

/** Ten lines; the proposal changes line 2 and line 9: two hunks far enough apart to stay two. */
export const TWO_HUNKS = {
  base: lines('# notes', 'first draft', 'a', 'b', 'c', 'd', 'e', 'f', 'last draft', 'end'),
  proposed: lines('# notes', 'first FINAL', 'a', 'b', 'c', 'd', 'e', 'f', 'last FINAL', 'end'),
  /** Hunk 1 accepted, hunk 2 rejected: what must be on disk. */
  composed: lines('# notes', 'first FINAL', 'a', 'b', 'c', 'd', 'e', 'f', 'last draft', 'end'),
} as const;

/** Waits for the review of `fileName` to be on screen with its two hunks; the message names what did not come. */
export async function waitForReviewOf(page: Page, fileName: string, timeoutMs = 60_000): Promise<void> {
  try {
    await page.getByRole('button', { name: 'Reject hunk 2', exact: true }).waitFor({ timeout: timeoutMs });
  } catch {
    throw new Error(`The CLI's edit of ${fileName} did not come up for review in DiffTray's window`);
  }
}

/** Accepts hunk 1, rejects hunk 2, types `note` (if any) in the note to the agent, submits. */
export async function acceptFirstRejectSecond(page: Page, { note }: { note?: string } = {}): Promise<void> {
  await page.getByRole('button', { name: 'Accept hunk 1', exact: true }).click();
  await page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
  if (note !== undefined) await page.getByRole('textbox', { name: 'Note to the agent' }).fill(note);
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
}

/** Rejects the whole proposal with `reason`, through the Reject… dialog. */
export async function rejectAll(page: Page, reason: string): Promise<void> {
  await page.getByRole('button', { name: 'Reject…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').fill(reason);
  await dialog
    .getByRole('button', { name: /Reject/ })
    .last()
    .click();
  await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
}
