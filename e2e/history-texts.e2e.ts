/**
 * A History entry whose texts are no longer kept (issue 7, finding 4): opened from History, it shows
 * its outcome and says plainly that its texts are gone, instead of an empty or broken diff.
 */
import { describe, expect, it } from 'vitest';
import { waitForReview } from '../test/support/wait';
import { BASE, PROPOSED } from '../test/support/fixtures';
import { useReviewSession } from './support/review-session';

const session = useReviewSession();

describe('History', () => {
  it('a cancelled review, opened later, says its texts are no longer kept', async () => {
    const { app, claude, page } = session;
    const file = session.writeWorkspaceFile('closed.txt', BASE);
    void session.openDiff(file, PROPOSED, 'closed.txt (edit)');
    await waitForReview(app.runtime.core, (r) => r.state === 'pending');
    // Claude Code closes its diff tabs at the start of a turn: nobody answered this review.
    await claude.callTool('closeAllDiffTabs', {});
    await waitForReview(app.runtime.core, (r) => r.state === 'cancelled' && r.textsDropped === true);

    // The page dropped its token from the address bar; the session cookie admits the reload.
    expect(page.url()).not.toContain('token');
    await page.reload();
    await page.getByRole('tab', { name: 'History' }).click();
    const history = page.getByRole('navigation', { name: 'Review history' });
    await history.getByRole('button', { name: /closed\.txt/ }).click();
    await page.getByTestId('ended-banner').waitFor();
    const message = page.getByTestId('texts-dropped');
    await message.waitFor();
    expect(await message.textContent()).toMatch(/The texts of this review are no longer kept/);
    expect(await page.locator('[data-hunk]').count()).toBe(0);
    expect(session.errors).toEqual([]);
  });
});
