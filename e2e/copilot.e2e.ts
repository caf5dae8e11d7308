/**
 * Copilot CLI's `/ide`, spoken over the Unix socket as the real CLI speaks it, against the headless app;
 * the person decides in Chromium. Copilot CLI writes its own proposal once it hears SAVED, so a partial
 * decision cannot be submitted: Submit says why, and Accept all lets it through.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, screenshot } from '../test/support/chromium';
import {
  callTool,
  closeCopilotStreams,
  connectCopilot,
  readCopilotLock,
  type CopilotSession,
} from '../test/support/copilot-client';
import { NUMBERS } from '../test/support/fixtures';
import { startHeadlessApp, type HeadlessApp } from '../test/support/headless-app';
import { diffReady, expectDecisions } from './support/review-page';

const { base: BASE, proposed: PROPOSED } = NUMBERS;

let app: HeadlessApp;
let browser: Browser;
let page: Page;
let errors: string[];
let session: CopilotSession;
let file: string;

beforeAll(async () => {
  app = await startHeadlessApp();
  file = path.join(app.workspace, 'notes.txt');
  writeFileSync(file, BASE);
  session = await connectCopilot(readCopilotLock(path.join(app.home, '.copilot', 'ide')));
  browser = await launchChromium();
  ({ page, errors } = await openPage(browser, app.url));
});

afterAll(async () => {
  closeCopilotStreams();
  await browser?.close();
  await app?.close();
});

const openDiff = (tabName: string) =>
  callTool(session, 'open_diff', {
    original_file_path: file,
    new_file_contents: PROPOSED,
    tab_name: tabName,
  });

describe('Copilot CLI through the UI', () => {
  it('a partial decision cannot be submitted (button or keyboard), says why; Accept all answers SAVED', async () => {
    const answer = openDiff('Numbers');
    await diffReady(page, 'notes.txt');
    await page.getByText('Copilot CLI').first().waitFor();
    await page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
    await expectDecisions(page, ['pending', 'rejected', 'pending']);
    const blocked = page.getByTestId('submit-blocked');
    await blocked.waitFor();
    expect(await blocked.textContent()).toContain('Copilot CLI applies its proposal whole');
    expect(await page.getByRole('button', { name: 'Submit', exact: true }).isDisabled()).toBe(true);
    await screenshot(page, 'copilot-partial-blocked');
    // Submit by keyboard is held back the same way, and the review stays.
    await page.keyboard.press('Control+Enter');
    const refused = page.getByTestId('submit-error');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('Copilot CLI applies its proposal whole');
    await page.getByRole('button', { name: 'Accept all', exact: true }).click();
    await expectDecisions(page, ['accepted', 'accepted', 'accepted']);
    await blocked.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    expect(JSON.parse((await answer).text)).toMatchObject({
      success: true,
      result: 'SAVED',
      trigger: 'accepted_via_button',
      tab_name: 'Numbers',
    });
    // The CLI writes its proposal itself.
    expect(readFileSync(file, 'utf8')).toBe(BASE);
  });

  it('close_diff from the CLI ends the review on screen, marked so', async () => {
    const answer = openDiff('Closing');
    await diffReady(page, 'notes.txt');
    await callTool(session, 'close_diff', { tab_name: 'Closing' });
    expect(JSON.parse((await answer).text)).toMatchObject({ result: 'REJECTED', trigger: 'closed_via_tool' });
    await page.getByTestId('ended-banner').waitFor();
    expect(errors).toEqual([]);
  });

  it('Connections shows the pid the CLI named in X-Copilot-PID as its claim, not as a fact', async () => {
    await page.getByRole('tab', { name: 'Connections' }).click();
    const client = page.locator('.dt-client', { hasText: 'Copilot CLI' });
    const claimed = client.getByTestId('claimed-mark');
    await claimed.first().waitFor();
    expect(await claimed.first().textContent()).toBe(' (as the client says)');
    expect(errors).toEqual([]);
  });
});
