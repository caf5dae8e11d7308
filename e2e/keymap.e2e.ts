/**
 * The keyboard map as a person changes it, in Chromium against the headless app: a key changed in
 * Settings → Keyboard decides the hunk on the review, the old key no longer does, and the legend shows
 * the new one; a key another command holds is refused on the spot and never saved.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { texts } from '../test/support/claude-client';
import { BASE, PROPOSED } from '../test/support/fixtures';
import { useReviewSession } from './support/review-session';

const session = useReviewSession();
const { writeWorkspaceFile, openDiff, diffReady, expectDecisions, keysUnpaused } = session;

/** How the window writes Mod (navigator.platform in Chromium follows the machine). */
const MOD = process.platform === 'darwin' ? '⌘' : 'Ctrl';

function savedKeyMap(home: string): unknown {
  try {
    const settings = JSON.parse(readFileSync(path.join(home, '.difftray', 'settings.json'), 'utf8')) as {
      keyMap?: unknown;
    };
    return settings.keyMap;
  } catch {
    return undefined;
  }
}

/** Opens Settings from the sidebar; answers its Keyboard section. */
async function keyboardSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const section = page.getByTestId('keymap-settings');
  await section.getByRole('heading', { name: 'Keyboard' }).waitFor();
  return section;
}

/** The keys the legend shows for a command, once they read `keys`. */
async function legendShows(page: Page, command: string, keys: string): Promise<void> {
  const legend = page.locator('.dt-legend');
  if ((await legend.getAttribute('open')) === null) await legend.locator('summary').click();
  await legend.locator(`[data-command="${command}"] kbd`, { hasText: keys }).waitFor();
}

describe('the keyboard map', () => {
  it('the legend shows the keys of the map in the words of the platform', async () => {
    const { page } = session;
    const file = writeWorkspaceFile('legend.txt', BASE);
    void openDiff(file, PROPOSED, 'legend.txt (edit)');
    await diffReady('legend.txt');
    await legendShows(page, 'acceptHunk', `${MOD}+Y`);
    await legendShows(page, 'nextHunk', 'J / ');
    await legendShows(page, 'sendToAgent', `${MOD}+Shift+S`);
    expect(await page.getByRole('button', { name: 'Previous hunk' }).getAttribute('title')).toMatch(
      /^Previous hunk \(K \/ (Alt|⌥)\+↑\)$/,
    );
  });

  // Waits for main's updateSettings (settings branch) and the Settings view (ui branch) on main.
  it('a key changed in Settings decides the hunk, and the old key no longer does', async () => {
    const { app, page } = session;
    const file = writeWorkspaceFile('keys.txt', BASE);
    const answer = openDiff(file, PROPOSED, 'keys.txt (edit)');
    await diffReady('keys.txt');

    const keys = await keyboardSettings(page);
    await keys.getByRole('button', { name: 'Change the keys of Accept current hunk' }).click();
    await keys.getByRole('textbox', { name: 'New key for Accept current hunk' }).waitFor();
    await page.keyboard.press('ControlOrMeta+Shift+H');
    await keys.locator('[data-command="acceptHunk"] kbd', { hasText: `${MOD}+Shift+H` }).waitFor();
    expect(await keys.locator('[data-command="acceptHunk"] kbd').allTextContents()).toEqual([
      `${MOD}+Shift+H`,
    ]);
    expect(savedKeyMap(app.home)).toEqual({ acceptHunk: ['Mod+Shift+H'] });

    await page.getByRole('button', { name: 'Close settings' }).click();
    await diffReady('keys.txt');
    await keysUnpaused();
    await page.keyboard.press('ControlOrMeta+Shift+H');
    await expectDecisions(['accepted', 'pending', 'pending']);
    // The old key, on hunk 2, does nothing: hunk 3 takes the new key after it and hunk 2 stays undecided.
    await page.keyboard.press('j');
    await page.keyboard.press('ControlOrMeta+y');
    await page.keyboard.press('j');
    await page.keyboard.press('ControlOrMeta+Shift+H');
    await expectDecisions(['accepted', 'pending', 'accepted']);
    await legendShows(page, 'acceptHunk', `${MOD}+Shift+H`);
    expect(await page.getByRole('button', { name: 'Accept hunk 1', exact: true }).getAttribute('title')).toBe(
      `Accept hunk 1 (${MOD}+Shift+H on the current hunk)`,
    );

    await page.getByRole('button', { name: 'Accept hunk 2', exact: true }).click();
    await page.keyboard.press('ControlOrMeta+Enter');
    expect(texts(await answer)).toEqual(['FILE_SAVED', PROPOSED]);
  });

  // Waits for main's updateSettings (settings branch) and the Settings view (ui branch) on main.
  it('a key another command holds is refused on the spot and not saved', async () => {
    const { app, page } = session;
    await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
    const keys = await keyboardSettings(page);
    await keys.getByRole('button', { name: 'Change the keys of Reject current hunk' }).click();
    const recorder = keys.getByRole('textbox', { name: 'New key for Reject current hunk' });
    await recorder.waitFor();
    await page.keyboard.press('ControlOrMeta+y');
    await keys
      .locator('[data-command="rejectHunk"] [role="alert"]', {
        hasText: `${MOD}+Y is already Accept current hunk`,
      })
      .waitFor();
    // Still listening for another key; Escape ends that, and leaves Settings open.
    expect(await recorder.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await recorder.waitFor({ state: 'detached' });
    expect(await page.getByTestId('settings').isVisible()).toBe(true);
    expect(await keys.locator('[data-command="rejectHunk"] kbd').allTextContents()).toEqual([`${MOD}+N`]);
    expect(savedKeyMap(app.home)).toBeUndefined();
  });
});
