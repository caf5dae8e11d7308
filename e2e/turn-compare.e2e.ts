/**
 * "Changes since your last review" in Chromium against the headless app (issue 26): a bare native client
 * speaks for an agent's turn hooks. The first turn review is kept; the agent writes the file again, and
 * the next turn review compares with what the person kept, with a toggle that shows, read-only, the whole
 * turn's change to the file since it started; and back.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { turnKey } from '../src-main/core/turns/agent-turns';
import type { RawNative } from '../test/support/raw-native';
import { ask, openTurnHook } from '../test/support/turn-hook-client';
import { until } from '../test/support/wait';
import { appPageSession } from './support/app-page-session';

const session = appPageSession();

const BEFORE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';
const WRITTEN = 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';
const AGAIN = 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\n';

describe('a turn review of a file reviewed earlier in the turn', () => {
  it('compares with your review, and on request, read-only, with the turn’s start', async () => {
    const { app, page } = await session.start();
    await app.runtime.handler('updateSettings', { turnReview: { 'claude-code': { edits: 'turn' } } });
    const client: RawNative = await openTurnHook(app);
    session.afterTest(() => client.close());
    const file = path.join(app.workspace, 'a.txt');
    writeFileSync(file, BEFORE);
    await ask(client, 'turn_begin', { prompt: 'Make the ends loud' });
    await ask(client, 'turn_touch', { paths: [file], permission_mode: 'default' });
    writeFileSync(file, WRITTEN);
    const first = await ask(client, 'turn_end', {});
    await app.runtime.handler('submit', { reviewId: first.review_id });
    await client.nextPush();
    await until(
      () =>
        app.runtime.core.turns.find(turnKey('Claude Code', 'session-1'))?.reviewing === false || undefined,
      'the first turn review settled',
    );
    writeFileSync(file, AGAIN);
    const again = await ask(client, 'turn_end', { stop_hook_active: true });
    expect(again).toMatchObject({ files: 1 });

    const toggle = page.getByRole('group', { name: 'Compare with' });
    await toggle.waitFor();
    const sinceReview = toggle.getByRole('button', { name: 'Since your review' });
    const sinceStart = toggle.getByRole('button', { name: 'Since the turn started' });
    expect(await sinceReview.getAttribute('aria-pressed')).toBe('true');
    // The review's own diff: one hunk, the line written after the person's review.
    await page.getByText('Hunk 1 of 1').first().waitFor();

    await sinceStart.click();
    const other = page.getByTestId('other-base-diff');
    await other.waitFor();
    expect(await sinceStart.getAttribute('aria-pressed')).toBe('true');
    expect(await other.textContent()).toContain('Left: the file when the turn started');
    // The left side is the file before the turn: the change the person reviewed before shows again.
    const left = other.locator('.editor.original .view-lines');
    await left.locator('.view-line', { hasText: /^one$/ }).waitFor();
    expect(await left.locator('.view-line', { hasText: /^ONE$/ }).count()).toBe(0);

    await sinceReview.click();
    await other.waitFor({ state: 'detached' });
    await page.getByText('Hunk 1 of 1').first().waitFor();
  });
});
