/**
 * The first working path, as a person sees it: a Claude Code client proposes an edit, the person
 * decides hunk by hunk in the UI (Chromium, driven by Playwright) and the client gets the result.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { texts } from '../test/support/claude-client';
import { waitForReview } from '../test/support/wait';
import { screenshot } from '../test/support/chromium';
import { BASE, COMPOSED, PROPOSED } from '../test/support/fixtures';
import { useReviewSession } from './support/review-session';

const session = useReviewSession();
const { writeWorkspaceFile, openDiff, queueEdits, diffReady, expectDecisions } = session;

describe('reviewing an openDiff in the browser', () => {
  it('shows how to connect when nothing waits', async () => {
    const { page } = session;
    await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
    expect(await page.getByText('claude --ide').first().isVisible()).toBe(true);
  });

  it('mouse on the first review, keyboard on the second: each client gets exactly the composed text', async () => {
    const { page } = session;
    const [first, second] = await queueEdits(['first.txt', 'second.txt'], BASE, PROPOSED);

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
    expect(texts(await first.answer)).toEqual(['FILE_SAVED', COMPOSED]);

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
    expect(texts(await second.answer)).toEqual(['FILE_SAVED', COMPOSED]);

    // The CLI writes files for this protocol: nothing on disk changed.
    expect(readFileSync(first.file, 'utf8')).toBe(BASE);
    expect(readFileSync(second.file, 'utf8')).toBe(BASE);
    await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
  });

  it('rejecting with a reason returns DIFF_REJECTED and the tab name; the reason is kept', async () => {
    const { app, page } = session;
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
    // And the person sees it where they look for it: in History, beside the review.
    await page.getByRole('tab', { name: 'History' }).click();
    const entry = page
      .getByRole('navigation', { name: 'Review history' })
      .getByRole('button', { name: /reject\.txt/ });
    await entry.getByText('keep the lowercase namesj').waitFor();
    expect(await entry.textContent()).toContain('Rejected');
  });

  it('reject all, then submit, returns DIFF_REJECTED', async () => {
    const { page } = session;
    const file = writeWorkspaceFile('all.txt', BASE);
    const answer = openDiff(file, PROPOSED, 'all.txt (edit)');
    await diffReady('all.txt');
    await page.getByRole('button', { name: 'Reject all' }).click();
    await expectDecisions(['rejected', 'rejected', 'rejected']);
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    expect(texts(await answer)).toEqual(['DIFF_REJECTED', 'all.txt (edit)']);
  });

  it('keyboard accept-all and reject-all, with undo', async () => {
    const { page } = session;
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
    const { app, claude, page } = session;
    const file = writeWorkspaceFile('gone.txt', BASE);
    void openDiff(file, PROPOSED, 'gone.txt (edit)');
    await diffReady('gone.txt');
    claude.socket.terminate();
    await waitForReview(app.runtime.core, (r) => r.state === 'cancelled');
    await page
      .getByTestId('ended-banner')
      .getByText(/client disconnected/i)
      .waitFor();
    // Still on screen, but nothing can be decided for it any more.
    expect(await page.locator('[data-hunk]').count()).toBe(3);
    // Nothing offers a decision: no Submit, no per-hunk controls that act.
    expect(await page.getByRole('button', { name: 'Submit', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Accept hunk 1' }).count()).toBe(0);
  });
});
