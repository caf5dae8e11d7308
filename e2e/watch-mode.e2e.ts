/**
 * Watch mode switched from the app, in Chromium against the headless app: the empty state offers it,
 * the person turns "Review changes on disk" on in Connections, a file written in the workspace (as an
 * agent that writes directly would) comes up as a "Changes on disk" review that can be rejected, and the
 * switch is remembered in settings.json and shown again after a reload. A folder paused at a limit is
 * shown paused, with the reason, in Connections and in the sidebar, and resumes from there.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { WATCH_MAX_FILES_PER_REVIEW } from '../shared/limits';
import { screenshot } from '../test/support/chromium';
import type { HeadlessApp } from '../test/support/headless-app';
import { until } from '../test/support/wait';
import { appPageSession } from './support/app-page-session';
import { diffReady } from './support/review-page';

/** Short, so a burst becomes a review soon; tests wait for reviews, not for time. */
const QUIET_MS = 150;
const BASE = 'one\ntwo\nthree\n';
const EDITED = 'one\nTWO, as an agent wrote it\nthree\n';

const session = appPageSession();

async function start(watchFolders?: string[]): Promise<{ app: HeadlessApp; page: Page }> {
  return session.start({
    watchQuietMs: QUIET_MS,
    beforeStart: (home) => {
      if (!watchFolders) return;
      // The test runtime's workspace is beside its home.
      for (const folder of watchFolders) {
        mkdirSync(path.join(path.dirname(home), 'workspace', folder), { recursive: true });
      }
      mkdirSync(path.join(home, '.difftray'), { recursive: true });
      writeFileSync(path.join(home, '.difftray', 'settings.json'), JSON.stringify({ watchFolders }));
    },
  });
}

const settingsFile = (a: HeadlessApp) => path.join(a.home, '.difftray', 'settings.json');
const rememberedFolders = (a: HeadlessApp): unknown =>
  existsSync(settingsFile(a))
    ? (JSON.parse(readFileSync(settingsFile(a), 'utf8')) as { watchFolders?: unknown }).watchFolders
    : undefined;
const watchSwitch = (page: Page, folder: string) =>
  page.getByRole('switch', { name: `Review changes on disk in ${folder}`, exact: true });

async function openConnections(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Connections' }).click();
  await page
    .getByRole('heading', { name: /Workspace folders/ })
    .first()
    .waitFor();
}

async function switchShows(page: Page, folder: string, on: boolean): Promise<void> {
  await page
    .locator(`[role="switch"][aria-checked="${on}"][aria-label="Review changes on disk in ${folder}"]`)
    .waitFor();
}

describe('watch mode from the app', () => {
  it('turned on in Connections: a file written on disk is reviewed and rejected; off: not reviewed; remembered', async () => {
    const { app, page } = await start();
    const file = path.join(app.workspace, 'notes.txt');
    writeFileSync(file, BASE);

    // Watch mode off: the empty state offers it for agents that write files themselves.
    const guide = page.getByTestId('watch-guide');
    await guide.waitFor();
    expect(await guide.getByRole('heading', { name: 'Agents that write files themselves' }).isVisible()).toBe(
      true,
    );
    expect(await guide.textContent()).toContain('Codex CLI, Aider, Cursor CLI, OpenCode, Goose, Crush, Amp');
    await guide.getByRole('button', { name: `Turn on Review changes on disk in ${app.workspace}` }).waitFor();
    await guide.getByRole('button', { name: 'Copy watch mode command: difftray watch' }).waitFor();

    // The person turns the switch on in Connections.
    await openConnections(page);
    const toggle = watchSwitch(page, app.workspace);
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await switchShows(page, app.workspace, true);
    await page.getByRole('status').getByText(`Reviewing changes on disk in ${app.workspace}`).waitFor();
    await guide.getByTestId('watch-guide-on').waitFor();
    expect(await until(() => rememberedFolders(app), 'watchFolders in settings.json')).toEqual([
      app.workspace,
    ]);
    await screenshot(page, 'watch-switch-on');

    // An agent writes the file directly: a review comes up, and rejecting it puts the old text back.
    writeFileSync(file, EDITED);
    await diffReady(page, 'Changes on disk: notes.txt');
    await page.getByRole('button', { name: 'Reject…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject review' });
    await dialog.getByRole('button', { name: 'Reject review' }).click();
    await until(() => (readFileSync(file, 'utf8') === BASE ? true : undefined), 'the old text back on disk');

    // A reload shows the switch as main has it.
    await page.reload();
    await openConnections(page);
    await switchShows(page, app.workspace, true);

    // Off: remembered as off, and a write is no longer reviewed.
    await watchSwitch(page, app.workspace).click();
    await switchShows(page, app.workspace, false);
    await until(() => {
      const remembered = rememberedFolders(app);
      return Array.isArray(remembered) && remembered.length === 0 ? true : undefined;
    }, 'watchFolders emptied in settings.json');
    writeFileSync(file, EDITED);
    // Nothing can announce an absence: give a review several quiet periods to come, then look.
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS * 6));
    expect(app.runtime.core.queue.summaries().filter((r) => r.state === 'pending')).toEqual([]);
    await page.getByTestId('empty-state').waitFor();
    expect(readFileSync(file, 'utf8')).toBe(EDITED);

    await page.reload();
    await openConnections(page);
    await switchShows(page, app.workspace, false);
  });

  it('a watched subfolder from the settings is listed under its workspace folder with its own switch', async () => {
    const { app, page } = await start(['src']);
    const sub = path.join(app.workspace, 'src');
    // The empty state names it instead of offering to turn watch mode on, and leads to its switch.
    const watchedNote = page.getByTestId('watch-guide-on');
    expect(await watchedNote.textContent()).toContain(sub);
    await watchedNote.getByRole('button', { name: 'Open Connections' }).click();
    await page.locator('[role="tab"][aria-selected="true"]', { hasText: 'Connections' }).waitFor();
    await switchShows(page, sub, true);
    await switchShows(page, app.workspace, false);

    // Turning the workspace folder on takes the subfolder's place.
    await watchSwitch(page, app.workspace).click();
    await switchShows(page, app.workspace, true);
    await watchSwitch(page, sub).waitFor({ state: 'detached' });
    expect(await until(() => rememberedFolders(app), 'settings')).toEqual([app.workspace]);
  });

  it("the empty state's Turn on button turns it on for the one workspace folder", async () => {
    const { app, page } = await start();
    const guide = page.getByTestId('watch-guide');
    await guide.getByRole('button', { name: `Turn on Review changes on disk in ${app.workspace}` }).click();
    await guide.getByTestId('watch-guide-on').waitFor();
    expect(app.runtime.watch.watchedFolders).toEqual([app.workspace]);
    await openConnections(page);
    await switchShows(page, app.workspace, true);
  });

  it(`a burst of more than ${WATCH_MAX_FILES_PER_REVIEW} files: the person sees the folder paused with the reason, deals with the review and resumes`, async () => {
    const { app, page } = await start(['.']);
    await openConnections(page);
    await switchShows(page, app.workspace, true);
    // The watched agent writes one file more than a review holds, in one burst.
    const names = Array.from(
      { length: WATCH_MAX_FILES_PER_REVIEW + 1 },
      (_, i) => `f${String(i).padStart(4, '0')}.txt`,
    );
    for (const name of names) writeFileSync(path.join(app.workspace, name), `${name}\n`);

    // Connections: the folder's row says Paused, why, and what is held; the switch stays on.
    const row = page.locator(`.dt-watch-row[data-folder="${app.workspace}"]`);
    await row.and(page.locator('[data-watching="paused"]')).waitFor();
    expect(await row.locator('.dt-watch-badge').textContent()).toBe('Paused');
    const paused = row.getByTestId('watch-paused');
    expect(await paused.textContent()).toContain(
      `Paused: more than ${WATCH_MAX_FILES_PER_REVIEW} files changed while its review waits`,
    );
    expect(await paused.textContent()).toContain('1 change is held since, not reviewed yet');
    await switchShows(page, app.workspace, true);
    // The sidebar says it too, whatever tab is open.
    const notice = page.getByTestId('watch-notice');
    expect(await notice.textContent()).toContain(
      `Reviewing changes on disk is paused in ${app.workspace}: more than ${WATCH_MAX_FILES_PER_REVIEW} files changed`,
    );
    await screenshot(page, 'watch-folder-paused');

    // The person rejects the pending review, then resumes: the held file comes up for review.
    await page.getByRole('tab', { name: 'Queue' }).click();
    await diffReady(page, 'Changes on disk: f0000.txt');
    await page.getByRole('button', { name: 'Reject…' }).click();
    await page
      .getByRole('dialog', { name: 'Reject review' })
      .getByRole('button', { name: 'Reject review' })
      .click();
    await notice
      .getByRole('button', { name: `Resume reviewing changes on disk in ${app.workspace}` })
      .click();
    await diffReady(page, `Changes on disk: ${names.at(-1)!}`);
    await notice.waitFor({ state: 'detached' });
    await openConnections(page);
    await row.getByTestId('watch-issue').waitFor({ state: 'detached' });
  });
});
