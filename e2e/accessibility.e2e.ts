/**
 * Every view of the app through axe-core, in the light theme and in the dark one, at 1024×700 and at
 * 1440×900 (issue 27), in Chromium against the real headless app: the empty queue; a review with
 * accepted, rejected and undecided hunks, a description and a comment; the Reject dialog; an approval
 * card; a turn review; History and a past review; Connections and the hooks dialog; each section of
 * Settings. None may have a violation of impact serious or critical; the failure lists them all, each
 * with its theme, size, rule, element and summary. One app and page per theme: each view is built once
 * and checked at both sizes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDiskSnapshot } from '../src-main/core/disk/disk-snapshot';
import { BASE, PROPOSED } from '../test/support/fixtures';
import { ask, openTurnHook } from '../test/support/turn-hook-client';
import { seriousViolations } from './support/axe-check';
import { resizeAndSettle, type ViewportSize } from './support/viewport';
import { useReviewSession } from './support/review-session';

const session = useReviewSession({ openPage: false });

const button = (name: string) => session.page.getByRole('button', { name, exact: true });
const SIDEBAR_PANEL = '[role="tabpanel"]';
const queueItem = (text: string) => session.page.locator('.dt-queue-item', { hasText: text });
/** The sizes issue 27 asks the review screen to work at: a small laptop's window and a roomy one. */
const SMALL: ViewportSize = { width: 1024, height: 700 };
const LARGE: ViewportSize = { width: 1440, height: 900 };
const SIZES = [SMALL, LARGE] as const;

describe.each(['light', 'dark'] as const)('the %s theme', (theme) => {
  it('every view has no serious or critical axe violation', { timeout: 600_000 }, async () => {
    const { app } = session;
    await session.open(theme);
    const { page } = session;
    await resizeAndSettle(page, SMALL);
    await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
    const found: string[] = [];
    const checkAt = async (size: ViewportSize, view: string, include?: string) => {
      await resizeAndSettle(page, size);
      const where = `${theme} ${size.width}×${size.height}: ${view}`;
      found.push(...(await seriousViolations(page, where, include ? { include } : {})));
    };
    const check = async (view: string, include?: string) => {
      for (const size of SIZES) await checkAt(size, view, include);
    };

    // The empty queue.
    await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
    await check('empty queue');

    // A review with a description: hunk 1 accepted, hunk 2 rejected, hunk 3 undecided, a comment.
    const file = session.writeWorkspaceFile('greek.txt', BASE);
    const script = app.runtime.core.clients.connect('Script', 'native');
    app.runtime.core.queue.add({
      client: script,
      title: 'Capitalise Greek',
      description: 'Three edits: two capitals and a new last line.',
      files: [{ path: file, base: await readDiskSnapshot(file), proposedText: PROPOSED }],
    });
    await session.diffReady('Capitalise Greek');
    await button('Accept hunk 1').click();
    await button('Reject hunk 2').click();
    await session.expectDecisions(['accepted', 'rejected', 'pending']);
    const modified = page.getByTestId('diff-editor').locator('.editor.modified');
    const lineNumber = (line: number) =>
      modified.locator('.line-numbers').filter({ hasText: new RegExp(`^${line}$`) });
    await lineNumber(10).click();
    const comment = page.getByRole('group', { name: 'Comment on line 10' });
    await comment.getByRole('textbox').fill('kappa belongs to another change');
    await check('review, comment box open');
    await comment.getByRole('button', { name: 'Save' }).click();
    await comment.getByText('kappa belongs to another change').waitFor();
    await check('review');
    // The rejected line is drawn in --rejected-text (the colour the unit test measures), not Monaco's.
    const rejected = modified.locator('.dt-text-rejected').first();
    await expect
      .poll(() =>
        rejected.evaluate((span) => {
          const probe = document.createElement('span');
          probe.style.color = 'var(--rejected-text)';
          document.body.append(probe);
          const wanted = getComputedStyle(probe).color;
          probe.remove();
          return getComputedStyle(span).color === wanted && getComputedStyle(span).opacity === '1';
        }),
      )
      .toBe(true);

    await button('Reject…').click();
    const reject = page.getByRole('dialog', { name: 'Reject review' });
    await reject.waitFor();
    await check('Reject dialog');
    await reject.getByRole('button', { name: 'Cancel' }).click();
    await reject.waitFor({ state: 'detached' });

    // An approval card.
    app.runtime.core.queue.add({
      client: script,
      title: 'Run command: make release',
      files: [],
      approval: {
        kind: 'command',
        toolName: 'Bash',
        command: 'make release VERSION=2.0.0-rc.1',
        cwd: app.workspace,
        reason: 'Build the release candidate',
        riskLevel: 'high',
      },
    });
    await queueItem('Run command: make release').click();
    await page.getByTestId('approval-card').waitFor();
    await check('approval card');

    // A turn review.
    await app.runtime.handler('updateSettings', { turnReview: { 'claude-code': { edits: 'turn' } } });
    const hook = await openTurnHook(app);
    try {
      const turnFile = path.join(app.workspace, 'turn.txt');
      writeFileSync(turnFile, BASE);
      await ask(hook, 'turn_begin', { prompt: 'Make the ends loud' });
      await ask(hook, 'turn_touch', { paths: [turnFile], permission_mode: 'default' });
      writeFileSync(turnFile, PROPOSED);
      await ask(hook, 'turn_end', {});
      await queueItem('Make the ends loud').click();
      await session.diffReady('Make the ends loud');
      await check('turn review');
    } finally {
      hook.close();
    }

    // History: the list, and a past review opened from it.
    await queueItem('Capitalise Greek').click();
    await session.diffReady('Capitalise Greek');
    await button('Submit').click();
    await page.getByRole('tab', { name: 'History' }).click();
    const history = page.getByRole('navigation', { name: 'Review history' });
    await history.getByRole('button', { name: /Capitalise Greek/ }).waitFor();
    // The sidebar alone where only it changed: the review beside it was checked above.
    await check('History', SIDEBAR_PANEL);
    await history.getByRole('button', { name: /Capitalise Greek/ }).click();
    await page.getByTestId('ended-banner').waitFor();
    await check('a past review');

    // Connections, and the hooks dialog opened from it.
    await page.getByRole('tab', { name: 'Connections' }).click();
    const codex = page.getByTestId('agent-hooks').locator('[data-agent="codex"]');
    await codex.getByRole('button', { name: 'Set up Codex CLI hooks…' }).waitFor();
    await check('Connections', SIDEBAR_PANEL);
    await codex.getByRole('button', { name: 'Set up Codex CLI hooks…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set up Codex CLI hooks' });
    await dialog.getByTestId('hooks-plan').waitFor();
    await check('hooks dialog');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Settings, section by section, each scrolled into view.
    await button('Settings').click();
    const settings = page.getByTestId('settings');
    await settings.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const sections = await settings
      .locator('section.dt-settings-section')
      .evaluateAll((all) => all.map((s) => s.getAttribute('aria-labelledby')));
    expect(sections.length).toBeGreaterThan(5);
    for (const size of SIZES) {
      await resizeAndSettle(page, size);
      for (const labelledBy of sections) {
        const selector = `section.dt-settings-section[aria-labelledby="${labelledBy}"]`;
        await page.locator(selector).scrollIntoViewIfNeeded();
        await checkAt(size, `Settings ${labelledBy}`, selector);
      }
    }

    expect(found, `axe found serious or critical violations:\n${found.join('\n')}`).toEqual([]);
  });
});
