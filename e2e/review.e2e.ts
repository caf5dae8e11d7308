/**
 * The first working path, as a person sees it: a Claude Code client proposes an edit, the person
 * decides hunk by hunk in the UI (Chromium, driven by Playwright) and the client gets the result.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectClaudeClient, texts, type ClaudeTestClient } from '../test/support/claude-client';
import { waitForReview, waitForSnapshot } from '../test/support/wait';
import { launchChromium, openPage, screenshot } from './support/chromium';
import { startHeadlessApp, type HeadlessApp } from './support/headless-app';

const BASE = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota'].join('\n') + '\n';
// Three hunks: line 1 changed, line 5 changed, a line added after line 9.
const PROPOSED =
  ['ALPHA', 'beta', 'gamma', 'delta', 'EPSILON', 'zeta', 'eta', 'theta', 'iota', 'kappa'].join('\n') + '\n';
// Hunks 1 and 3 accepted, hunk 2 rejected.
const COMPOSED =
  ['ALPHA', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'].join('\n') + '\n';

let browser: Browser;
let app: HeadlessApp;
let claude: ClaudeTestClient;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  app = await startHeadlessApp();
  claude = await connectClaudeClient(app.runtime.bridge.port, app.runtime.bridge.tokenFor('claude-ide'));
  ({ page, errors } = await openPage(browser, app.url));
});

afterEach(async () => {
  // No CSP violation, no uncaught error, in any test.
  expect(errors).toEqual([]);
  await page.context().close();
  await claude.close();
  await app.close();
});

function writeWorkspaceFile(name: string, text: string): string {
  const file = path.join(app.workspace, name);
  writeFileSync(file, text);
  return file;
}

function openDiff(file: string, proposed: string, tabName: string) {
  return claude.callTool('openDiff', {
    old_file_path: file,
    new_file_path: file,
    new_file_contents: proposed,
    tab_name: tabName,
  });
}

async function diffReady(title: string): Promise<void> {
  await page.locator('#dt-review-title', { hasText: title }).waitFor();
  await page.locator('[data-testid="diff-editor"][data-diff-ready="true"]').waitFor();
  // A review that comes up by itself pauses decision keys briefly (so no keystroke meant for the
  // previous one lands on it): wait that out, as a person would see the notice and read the diff.
  await page.locator('.dt-app[data-keys-paused]').waitFor({ state: 'detached' });
}

const hunk = (n: number) => page.locator(`[data-hunk="${n}"]`);

async function expectDecisions(decisions: string[]): Promise<void> {
  for (const [i, decision] of decisions.entries()) {
    await hunk(i + 1)
      .and(page.locator(`[data-decision="${decision}"]`))
      .waitFor();
  }
}

describe('reviewing an openDiff in the browser', () => {
  it('shows how to connect when nothing waits', async () => {
    await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
    expect(await page.getByText('claude --ide').first().isVisible()).toBe(true);
  });

  it('mouse on the first review, keyboard on the second: each client gets exactly the composed text', async () => {
    const first = writeWorkspaceFile('first.txt', BASE);
    const second = writeWorkspaceFile('second.txt', BASE);
    const firstAnswer = openDiff(first, PROPOSED, 'first.txt (edit)');
    await waitForReview(app.runtime.core);
    const secondAnswer = openDiff(second, PROPOSED, 'second.txt (edit)');
    await waitForSnapshot(app.runtime.core, (s) => (s.reviews.length === 2 ? true : undefined));

    // The queue lists both; the oldest is on screen.
    const queue = page.getByRole('navigation', { name: 'Review queue' });
    await queue.getByRole('button', { name: /second\.txt/ }).waitFor();
    await diffReady('first.txt');
    expect(await page.locator('[data-hunk]').count()).toBe(3);

    // Mouse.
    await page.getByRole('button', { name: 'Accept hunk 1', exact: true }).click();
    await page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
    await page.getByRole('button', { name: 'Accept hunk 3', exact: true }).click();
    await expectDecisions(['accepted', 'rejected', 'accepted']);
    await screenshot(page, 'review-decided');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    expect(texts(await firstAnswer)).toEqual(['FILE_SAVED', COMPOSED]);

    // The next review comes up with its first hunk current; the keyboard alone decides it.
    await diffReady('second.txt');
    await page.getByTestId('hunk-counter').filter({ hasText: 'Hunk 1 of 3' }).waitFor();
    await page.keyboard.press('ControlOrMeta+y');
    await page.keyboard.press('j');
    await page.keyboard.press('ControlOrMeta+n');
    await page.keyboard.press('j');
    await page.keyboard.press('ControlOrMeta+y');
    await expectDecisions(['accepted', 'rejected', 'accepted']);
    await page.keyboard.press('ControlOrMeta+Enter');
    expect(texts(await secondAnswer)).toEqual(['FILE_SAVED', COMPOSED]);

    // The CLI writes files for this protocol: nothing on disk changed.
    expect(readFileSync(first, 'utf8')).toBe(BASE);
    expect(readFileSync(second, 'utf8')).toBe(BASE);
    await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
  });

  it('rejecting with a reason returns DIFF_REJECTED and the tab name; the reason is kept', async () => {
    const file = writeWorkspaceFile('reject.txt', BASE);
    const answer = openDiff(file, PROPOSED, 'reject.txt (edit)');
    await diffReady('reject.txt');
    await page.getByRole('button', { name: 'Reject…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject review' });
    // Keys typed into the reason box are text, not shortcuts.
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('keep the lowercase names');
    await page.keyboard.press('j');
    await dialog.getByRole('button', { name: 'Reject review' }).click();
    expect(texts(await answer)).toEqual(['DIFF_REJECTED', 'reject.txt (edit)']);
    const [review] = app.runtime.core.snapshot().reviews;
    expect(review).toMatchObject({ state: 'rejected', reason: 'keep the lowercase namesj' });
  });

  it('reject all, then submit, returns DIFF_REJECTED', async () => {
    const file = writeWorkspaceFile('all.txt', BASE);
    const answer = openDiff(file, PROPOSED, 'all.txt (edit)');
    await diffReady('all.txt');
    await page.getByRole('button', { name: 'Reject all' }).click();
    await expectDecisions(['rejected', 'rejected', 'rejected']);
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    expect(texts(await answer)).toEqual(['DIFF_REJECTED', 'all.txt (edit)']);
  });

  it('keyboard accept-all and reject-all, with undo', async () => {
    const file = writeWorkspaceFile('keys.txt', BASE);
    const answer = openDiff(file, PROPOSED, 'keys.txt (edit)');
    await diffReady('keys.txt');
    await page.keyboard.press('ControlOrMeta+Alt+n');
    await expectDecisions(['rejected', 'rejected', 'rejected']);
    await page.keyboard.press('u');
    await expectDecisions(['pending', 'pending', 'pending']);
    await page.keyboard.press('ControlOrMeta+Alt+y');
    await expectDecisions(['accepted', 'accepted', 'accepted']);
    await page.keyboard.press('ControlOrMeta+Enter');
    expect(texts(await answer)).toEqual(['FILE_SAVED', PROPOSED]);
  });

  it('a client that vanishes leaves its review visible, marked, and undecidable', async () => {
    const file = writeWorkspaceFile('gone.txt', BASE);
    void openDiff(file, PROPOSED, 'gone.txt (edit)').catch(() => {});
    await diffReady('gone.txt');
    claude.socket.terminate();
    await waitForReview(app.runtime.core, (r) => r.state === 'cancelled');
    await page
      .getByTestId('ended-banner')
      .getByText(/client disconnected/i)
      .waitFor();
    // Still on screen, but nothing can be decided for it any more.
    expect(await page.locator('[data-hunk]').count()).toBe(3);
    const submit = page.getByRole('button', { name: 'Submit', exact: true });
    if ((await submit.count()) > 0) expect(await submit.isDisabled()).toBe(true);
  });
});
