/**
 * Gemini CLI's own client code (`IdeClient` from @google/gemini-cli-core) finds the headless app
 * through its discovery file and proposes an edit; the person decides in Chromium. IdeClient is a
 * per-process singleton, so this file is one ordered sequence against one app and one client.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { IdeClient, type DiffUpdateResult } from '@google/gemini-cli-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUMBERS } from '../test/support/fixtures';
import { enterGeminiEnvironment } from '../test/support/gemini-environment';
import { waitForReview } from '../test/support/wait';
import { launchChromium, openPage, screenshot } from '../test/support/chromium';
import { startHeadlessApp, type HeadlessApp } from '../test/support/headless-app';
import { diffReady } from './support/review-page';

const { base: BASE, proposed: PROPOSED, composed: COMPOSED } = NUMBERS;

let app: HeadlessApp;
let browser: Browser;
let page: Page;
let errors: string[];
let ide: IdeClient;
let file: string;
let leaveGeminiEnvironment: () => void = () => {};

beforeAll(async () => {
  app = await startHeadlessApp();
  file = path.join(app.workspace, 'notes.txt');
  writeFileSync(file, BASE);
  leaveGeminiEnvironment = enterGeminiEnvironment(app);
  ide = await IdeClient.getInstance();
  await ide.connect({ logToConsole: false });
  browser = await launchChromium();
  ({ page, errors } = await openPage(browser, app.url));
});

afterAll(async () => {
  await ide?.disconnect();
  leaveGeminiEnvironment();
  await browser?.close();
  await app?.close();
});

const reviewOnScreen = () => diffReady(page, 'notes.txt');

describe('Gemini CLI through the UI', () => {
  it('accepting two of three hunks in the UI sends the CLI exactly the composed text', async () => {
    const result = ide.openDiff(file, PROPOSED);
    await reviewOnScreen();
    await page.getByText('Gemini CLI').first().waitFor();
    await page.getByRole('button', { name: 'Accept hunk 1', exact: true }).click();
    await page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
    await page.getByRole('button', { name: 'Accept hunk 3', exact: true }).click();
    await page.locator('[data-hunk="3"][data-decision="accepted"]').waitFor();
    await screenshot(page, 'gemini-review');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    expect(await result).toEqual<DiffUpdateResult>({ status: 'accepted', content: COMPOSED });
    expect(readFileSync(file, 'utf8')).toBe(BASE);
  });

  it('a reject with a reason reaches the CLI as rejected', async () => {
    const result = ide.openDiff(file, PROPOSED);
    await reviewOnScreen();
    await page.getByRole('button', { name: 'Reject…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject review' });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('keep the numbers lowercase');
    await dialog.getByRole('button', { name: 'Reject review' }).click();
    expect(await result).toEqual<DiffUpdateResult>({ status: 'rejected', content: undefined });
  });

  it('closeDiff with suppressNotification: the CLI settles it with the proposal as edited in DiffTray', async () => {
    const result = ide.openDiff(file, PROPOSED);
    await reviewOnScreen();
    const review = await waitForReview(app.runtime.core, (r) => r.state === 'pending');
    // The person edits the proposal in the UI before the CLI's own prompt is answered.
    await page.getByRole('button', { name: /Edit proposal/ }).click();
    await page.locator('.editor.modified .view-lines').getByText('FIVE').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' (edited)');
    await waitForReview(app.runtime.core, (r) => r.id === review.id && r.files[0]!.contentRevision > 1);
    await ide.resolveDiffFromCli(file, 'accepted');
    expect(await result).toEqual<DiffUpdateResult>({
      status: 'accepted',
      content: PROPOSED.replace('FIVE', 'FIVE (edited)'),
    });
    // Closed by the client: marked, kept visible.
    await page.getByTestId('ended-banner').waitFor();
    expect(errors).toEqual([]);
  });
});
