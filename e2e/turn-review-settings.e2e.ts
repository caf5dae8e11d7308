/**
 * Settings → Turn review in Chromium against the headless app: one group per agent; a choice applies at
 * once and lands in settings.json under `turnReview` (only what differs from the defaults); a time limit
 * that is not whole minutes is refused beside its field and not saved; with the turn review off, the
 * choice of edits is not offered.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { HeadlessApp } from '../test/support/headless-app';
import { until } from '../test/support/wait';
import { appPageSession } from './support/app-page-session';

const session = appPageSession();

function turnReviewOf(app: HeadlessApp): unknown {
  try {
    const file = path.join(app.home, '.difftray', 'settings.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { turnReview?: unknown }).turnReview;
  } catch {
    return undefined;
  }
}

/** Waits until settings.json's `turnReview` is `wanted`. */
const saved = (app: HeadlessApp, wanted: unknown) =>
  until(
    () => (isDeepStrictEqual(turnReviewOf(app), wanted) ? true : undefined),
    `turnReview ${JSON.stringify(wanted)} in settings.json`,
  );

async function openTurnReview(page: Page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const view = page.getByTestId('settings');
  await view.getByRole('heading', { name: 'Turn review', level: 2 }).waitFor();
  return view;
}

describe('Settings → Turn review', () => {
  it('one group per agent with its defaults; a choice applies at once and lands in settings.json', async () => {
    const { app, page } = await session.start();
    const view = await openTurnReview(page);
    for (const name of ['Claude Code', 'Codex CLI', 'Gemini CLI', 'Copilot CLI', 'Qwen Code']) {
      await view.getByRole('group', { name }).waitFor();
    }
    const claude = view.getByRole('group', { name: 'Claude Code' });
    const codex = view.getByRole('group', { name: 'Codex CLI' });
    expect(await claude.getByRole('combobox', { name: 'Review edits' }).inputValue()).toBe('mode');
    expect(await codex.getByRole('combobox', { name: 'Review edits' }).inputValue()).toBe('each');
    // Following the agent's mode is Claude Code's alone.
    expect(await codex.getByRole('option', { name: 'As Claude Code’s mode' }).count()).toBe(0);
    expect(await codex.getByRole('combobox', { name: 'Turn review' }).inputValue()).toBe('unreviewed');

    await codex.getByRole('combobox', { name: 'Review edits' }).selectOption('With the whole turn');
    await saved(app, { codex: { edits: 'turn' } });
    await claude.getByRole('combobox', { name: 'Turn review' }).selectOption('Always');
    await saved(app, { codex: { edits: 'turn' }, 'claude-code': { review: 'always' } });
    // Back to the default: the entry goes.
    await codex.getByRole('combobox', { name: 'Review edits' }).selectOption('One by one');
    await saved(app, { 'claude-code': { review: 'always' } });
    expect(app.runtime.settings.settings.turnReview).toEqual({ 'claude-code': { review: 'always' } });
  });

  it('a time limit: whole minutes saved on Enter, anything else refused beside the field, empty for none', async () => {
    const { app, page } = await session.start();
    const view = await openTurnReview(page);
    const gemini = view.getByRole('group', { name: 'Gemini CLI' });
    const field = gemini.getByRole('textbox', { name: 'Turn review time limit for Gemini CLI, in minutes' });
    await field.fill('0');
    await field.press('Enter');
    await gemini
      .getByRole('alert')
      .filter({ hasText: /whole minutes/ })
      .waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(turnReviewOf(app)).toBeUndefined();

    await field.fill('10');
    await field.press('Enter');
    await saved(app, { gemini: { timeoutMinutes: 10 } });
    expect(await field.getAttribute('aria-invalid')).toBeNull();
    // Focus stays in the field after saving.
    expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);

    await field.fill('');
    await field.press('Tab');
    await saved(app, {});
  });

  it('with the turn review off, every edit is reviewed one by one: the edits choice is not offered', async () => {
    const { app, page } = await session.start();
    const view = await openTurnReview(page);
    const qwen = view.getByRole('group', { name: 'Qwen Code' });
    await qwen.getByRole('combobox', { name: 'Turn review' }).selectOption('Off');
    await saved(app, { qwen: { review: 'off' } });
    await qwen.getByText('Every edit is reviewed one by one.').waitFor();
    expect(await qwen.getByRole('combobox', { name: 'Review edits' }).isDisabled()).toBe(true);
    expect(await qwen.getByRole('textbox').isDisabled()).toBe(true);
  });
});
