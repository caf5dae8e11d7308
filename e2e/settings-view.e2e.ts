/**
 * The Settings view in Chromium against the headless app: opened from the sidebar by keyboard and left
 * with Escape; a workspace folder main refuses says why beside the field; a theme or notifications
 * change applies at once and lands in settings.json; a settings.json that is not JSON is named in a
 * banner and left byte for byte as it was. (The README's picture of Settings: readme-screenshots.e2e.ts.)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NATIVE_AUTH_HEADER, NATIVE_PROTOCOL_VERSION } from '../shared/native-protocol';
import { screenshot } from '../test/support/chromium';
import type { HeadlessApp } from '../test/support/headless-app';
import { JsonSocket } from '../test/support/json-socket';
import { until } from '../test/support/wait';
import { appPageSession } from './support/app-page-session';

const session = appPageSession();

const settingsPath = (home: string): string => path.join(home, '.difftray', 'settings.json');

function readSettings(app: HeadlessApp): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(settingsPath(app.home), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Opens Settings the way a keyboard user does: to the sidebar's Settings button, then Enter. */
async function openSettings(page: Page) {
  const button = page.getByRole('button', { name: 'Settings', exact: true });
  await button.focus();
  await page.keyboard.press('Enter');
  const view = page.getByTestId('settings');
  await view.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  return view;
}

/** A script on DiffTray's own protocol, so the Clients section has someone to list. */
async function connectScript(app: HeadlessApp, name: string): Promise<void> {
  const { native } = app.runtime;
  const socket = await JsonSocket.open(native.port, { [NATIVE_AUTH_HEADER]: native.token });
  session.afterTest(() => socket.close());
  socket.send({
    protocol_version: NATIVE_PROTOCOL_VERSION,
    message_id: 'hello',
    type: 'request',
    command: 'hello',
    payload: { client_name: name, client_version: '1.0' },
  });
  await socket.waitFor((m) => m.message_id === 'hello' && m.type === 'response');
}

describe('Settings', () => {
  it('opens from the sidebar by keyboard with every section, and Escape goes back with focus', async () => {
    const { app, page } = await session.start();
    await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
    const view = await openSettings(page);
    expect(
      await view
        .getByRole('heading', { name: 'Settings', level: 1 })
        .evaluate((h) => h === document.activeElement),
    ).toBe(true);
    for (const section of [
      'Workspace folders',
      'Clients',
      'Notifications',
      'Launch at login',
      'Theme',
      'Keyboard',
      'Extra lock folders',
    ]) {
      await view.getByRole('heading', { name: section, level: 2 }).waitFor();
    }
    const folders = view.getByRole('list', { name: 'Workspace folders' });
    expect(await folders.getByText(app.workspace, { exact: true }).isVisible()).toBe(true);
    await view.getByRole('button', { name: `Remove ${app.workspace}` }).waitFor();
    // A browser has no folder picker, and cannot start DiffTray at login.
    expect(await view.getByRole('button', { name: 'Choose folder…' }).count()).toBe(0);
    const login = view.getByRole('switch', { name: 'Start DiffTray in the tray when I log in' });
    expect(await login.isDisabled()).toBe(true);
    expect(await view.getByText('Desktop app only.').isVisible()).toBe(true);
    // The button shows that Settings is what is on screen.
    expect(
      await page.getByRole('button', { name: 'Settings', exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');

    await page.keyboard.press('Escape');
    await page.getByTestId('empty-state').waitFor();
    expect(await page.getByTestId('settings').count()).toBe(0);
    expect(
      await page
        .getByRole('button', { name: 'Settings', exact: true })
        .evaluate((button) => button === document.activeElement),
    ).toBe(true);
  });

  it('a workspace folder main refuses says why beside the field, and the list stays as it was', async () => {
    const { app, page } = await session.start();
    const view = await openSettings(page);
    await view.getByRole('textbox', { name: 'Workspace folder to add' }).fill('/');
    await view.getByRole('button', { name: 'Add', exact: true }).first().click();
    const refusal = view.getByRole('alert').filter({ hasText: /\S/ });
    await refusal.waitFor();
    expect((await refusal.textContent())?.trim()).not.toBe('');
    expect(app.runtime.core.snapshot().workspaceFolders).toEqual([app.workspace]);
    expect(await view.getByRole('list', { name: 'Workspace folders' }).getByRole('listitem').count()).toBe(1);
  });

  // Waits for updateSettings (the settings helper's store) in main.
  it('a theme chosen in Settings applies at once and is in settings.json; Settings is its one control', async () => {
    const { app, page } = await session.start();
    const view = await openSettings(page);
    await view.getByRole('radio', { name: 'Dark' }).check();
    await page.locator('html[data-theme="dark"]').waitFor();
    await until(
      () => (readSettings(app)?.theme === 'dark' ? true : undefined),
      'theme dark in settings.json',
    );
    // No second Theme control anywhere in the window.
    expect(await page.getByRole('combobox', { name: 'Theme' }).count()).toBe(0);
    expect(await page.getByRole('radiogroup', { name: 'Theme' }).count()).toBe(1);

    await view.getByRole('radio', { name: 'Light' }).check();
    await page.locator('html[data-theme="light"]').waitFor();
    await until(
      () => (readSettings(app)?.theme === 'light' ? true : undefined),
      'theme light in settings.json',
    );
    expect(await view.getByRole('radio', { name: 'Light' }).isChecked()).toBe(true);
  });

  // Waits for updateSettings (the settings helper's store) in main.
  it('turning notifications off is written to settings.json, and the switch shows it', async () => {
    const { app, page } = await session.start();
    const view = await openSettings(page);
    const notify = view.getByRole('switch', { name: 'Notify of new reviews' });
    expect(await notify.getAttribute('aria-checked')).toBe('true');
    await notify.click();
    await view
      .locator('[role="switch"][aria-checked="false"]', { hasText: 'Notify of new reviews' })
      .waitFor();
    await until(() => {
      const notifications = readSettings(app)?.notifications as { enabled?: boolean } | undefined;
      return notifications?.enabled === false ? true : undefined;
    }, 'notifications off in settings.json');
    expect(await view.getByRole('switch', { name: 'With sound' }).isDisabled()).toBe(true);
  });

  // Waits for updateSettings (the settings helper's store) in main.
  it('a client’s two switches: apply without review lands in settings.json, pause in the paused list', async () => {
    const { app, page } = await session.start();
    await connectScript(app, 'release-script');
    const view = await openSettings(page);
    const row = view.getByRole('group', { name: 'release-script' });
    await row.getByRole('switch', { name: 'Apply without review' }).click();
    await row.locator('[role="switch"][aria-checked="true"]', { hasText: 'Apply without review' }).waitFor();
    await until(
      () =>
        (readSettings(app)?.autoApply as string[] | undefined)?.includes('release-script') ? true : undefined,
      'release-script in autoApply',
    );
    await row.getByRole('switch', { name: 'Pause reviews' }).click();
    await row.locator('[role="switch"][aria-checked="true"]', { hasText: 'Pause reviews' }).waitFor();
    expect(app.runtime.core.snapshot().pausedClients.map((entry) => entry.name)).toEqual(['release-script']);
    await row.getByRole('switch', { name: 'Apply without review' }).click();
    await until(
      () => ((readSettings(app)?.autoApply as string[] | undefined)?.length === 0 ? true : undefined),
      'autoApply empty again',
    );
  });

  // Waits for the settings helper's store in main (AppSnapshot.settingsFile and its problem).
  it('a settings.json that is not JSON is named in a banner, changes are refused, and the file is untouched', async () => {
    const broken = '{ "theme": "dark", \n';
    let file = '';
    const { page } = await session.start({
      beforeStart: (home) => {
        file = settingsPath(home);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, broken);
      },
    });
    const before = readFileSync(file);
    // Seen without opening Settings.
    const notice = page.getByTestId('settings-file-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(file);
    await notice.getByRole('button', { name: 'Open Settings' }).click();
    const banner = page.getByTestId('settings-file-problem');
    await banner.waitFor();
    const text = (await banner.textContent()) ?? '';
    expect(text).toContain(file);
    expect(text).toContain('default settings');
    expect(text).toContain('not valid JSON');
    expect(text).toContain('will not change what you wrote there until it is fixed');
    // The defaults are shown, not the file's "dark".
    const view = page.getByTestId('settings');
    expect(await view.getByRole('radio', { name: 'System' }).isChecked()).toBe(true);

    await view.getByRole('switch', { name: 'Notify of new reviews' }).click();
    await view.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
    expect(
      await view.getByRole('switch', { name: 'Notify of new reviews' }).getAttribute('aria-checked'),
    ).toBe('true');
    expect(readFileSync(file).equals(before)).toBe(true);
    await screenshot(page, 'settings-file-problem');
  });

  // Waits for removeWorkspaceFolder and addWorkspaceFolder (the lead's live workspace folders) in main.
  it('without a workspace folder the empty state says why and adds one, then shows the guides', async () => {
    const { app, page } = await session.start();
    const view = await openSettings(page);
    await view.getByRole('button', { name: `Remove ${app.workspace}` }).click();
    await view.getByText('None yet: agents cannot propose edits anywhere.').waitFor();
    await page.keyboard.press('Escape');
    const empty = page.getByTestId('empty-state');
    await empty.getByRole('heading', { name: 'Choose a workspace folder' }).waitFor();
    expect(await empty.textContent()).toContain('it does not take / or your home folder by itself');
    expect(await empty.getByRole('heading', { name: 'Claude Code' }).count()).toBe(0);
    await empty.getByRole('textbox', { name: 'Workspace folder to add' }).fill(app.workspace);
    await empty.getByRole('button', { name: 'Add', exact: true }).click();
    await empty.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
    expect(app.runtime.core.snapshot().workspaceFolders).toEqual([app.workspace]);
  });

  // The README's picture of Settings is taken in readme-screenshots.e2e.ts, in a project-like scene.
  it('the screenshot: Settings with a client connected', async () => {
    const { app, page } = await session.start();
    await connectScript(app, 'release-script');
    const view = await openSettings(page);
    await view.getByRole('group', { name: 'release-script' }).waitFor();
    await view
      .getByRole('group', { name: 'release-script' })
      .getByRole('switch', { name: 'Pause reviews' })
      .waitFor();
    await screenshot(page, 'settings');
    // And dark, to look at.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('html[data-theme="dark"]').waitFor();
    await screenshot(page, 'settings-dark');
  });
});
