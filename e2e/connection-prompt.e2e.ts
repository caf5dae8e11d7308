/**
 * Connection prompts in Chromium against the headless app: a Clio client without a token (a child
 * process, as the real Clio CLI is) brings up a card at the top of the window naming its pid and folder,
 * read out by the live region; Allow once lets it in; another is denied from the card and closed; a third
 * is allowed always, listed under Connections, and revoked there, after which a new one is asked again.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../test/support/chromium';
import { ClioChild } from '../test/support/clio-child';
import type { HeadlessApp } from '../test/support/headless-app';
import { until } from '../test/support/wait';
import { appPageSession } from './support/app-page-session';
import path from 'node:path';

const session = appPageSession();

function clioChild(a: HeadlessApp): ClioChild {
  const child = ClioChild.start(a.runtime.clio.port, a.workspace);
  session.afterTest(() => child.stop());
  return child;
}

const prompt = (page: Page, child: ClioChild) =>
  page.locator('[data-testid="connection-prompts"] article', { hasText: `pid ${child.pid},` });

const settingsFile = (a: HeadlessApp) => path.join(a.home, '.difftray', 'settings.json');
const trustedInSettings = (a: HeadlessApp): unknown =>
  existsSync(settingsFile(a))
    ? (JSON.parse(readFileSync(settingsFile(a), 'utf8')) as { trustedPrograms?: unknown }).trustedPrograms
    : undefined;

describe.runIf(process.platform === 'linux')('a Clio client without a token, from the window', () => {
  it('the prompt names the process; Allow once lets it in; the next one is denied and closed', async () => {
    const { app, page } = await session.start();
    const first = clioChild(app);
    const card = prompt(page, first);
    await card.waitFor();
    expect(await card.locator('strong').textContent()).toBe(
      `Clio (pid ${first.pid}, ${app.workspace}) wants to connect`,
    );
    await page
      .locator('[role="status"]', { hasText: `Clio (pid ${first.pid}, ${app.workspace}) wants to connect` })
      .waitFor();
    // Not a dialog: nothing took the focus.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BODY');
    await screenshot(page, 'connection-prompt');
    await card.getByRole('button', { name: 'Allow once' }).click();
    await first.waitFor((m) => m.type === 'connected');
    await card.waitFor({ state: 'detached' });

    const second = clioChild(app);
    await prompt(page, second).getByRole('button', { name: 'Deny' }).click();
    expect((await second.closed).code).toBe(1008);
    expect(second.received.at(-1)).toMatchObject({ type: 'error', message: expect.stringMatching(/denied/) });
    await page.locator('[data-testid="connection-prompts"]').waitFor({ state: 'detached' });
  });

  it('Always allow this program: listed under Connections, remembered; Revoke asks again next time', async () => {
    const { app, page } = await session.start();
    const first = clioChild(app);
    await prompt(page, first).getByRole('button', { name: 'Always allow this program' }).click();
    await first.waitFor((m) => m.type === 'connected');
    expect(trustedInSettings(app)).toEqual([
      expect.objectContaining({ name: 'Clio', script: expect.stringMatching(/clio-child-client\.mjs$/) }),
    ]);

    // Let in at once now: no prompt.
    const again = clioChild(app);
    await again.waitFor((m) => m.type === 'connected');

    await page.getByRole('tab', { name: 'Connections' }).click();
    const trusted = page.locator('[data-testid="trusted-programs"]');
    await trusted.getByText(/clio-child-client\.mjs/).waitFor();
    await screenshot(page, 'connection-prompt-trusted');
    await trusted.getByRole('button', { name: 'Revoke Clio' }).click();
    await trusted.waitFor({ state: 'detached' });
    await until(
      () => (sameValue(trustedInSettings(app!), []) ? true : undefined),
      'revoked in settings.json',
    );

    const revoked = clioChild(app);
    await prompt(page, revoked).waitFor();
    expect(revoked.received).toEqual([{ open: true }]);
  });
});

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
