/**
 * The desktop side of settings, on the real Electron shell: the window's calls over IPC, notifications
 * as the settings say, the tray's Settings… item, the native folder picker, and Start at login. Only the
 * OS boundaries are stood in for: the folder dialog (dialog.showOpenDialog answers a folder), the quit
 * question (dialog.showMessageBox), and notifications are watched as they are shown (Notification's show
 * records what it was given, then does its work) and clicked by emitting the click the OS would send.
 * Skipped, saying so, where no Electron binary exists.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { _electron as electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typedCall } from '../../shared/app-api';
import { findElectronBinary } from '../../scripts/electron-binary.mjs';
import { connectClaudeClient, type ClaudeTestClient } from '../../test/support/claude-client';
import { makeTempDir } from '../../test/support/temp';
import { until } from '../../test/support/wait';
import { desktopSandboxEnv } from '../support/desktop-env';

const binary = findElectronBinary();
if (!binary) console.warn('Electron binary not available on this machine: the settings suite is skipped.');

interface ShownNotice {
  title: string;
  body: string;
  silent: boolean;
}
interface Watched {
  notices: ShownNotice[];
  folderDialogs: unknown[];
  tooltip: string;
}
interface WatchState {
  watched: Watched;
  shownNotifications: Electron.Notification[];
  trayMenu?: Electron.Menu;
  folderAnswer: { canceled: boolean; filePaths: string[] };
}

/** Electron starts slower than the headless app: a longer bound on each wait. */
const eventually = <T>(probe: () => Promise<T | undefined>, what: string): Promise<T> =>
  until(probe, what, 10_000);

describe.skipIf(!binary)('Electron: settings, notifications, folder picker and the IPC carrier', () => {
  let app: ElectronApplication;
  let window: Page;
  let temp: { dir: string; cleanup: () => void };
  let root: string;
  let workspace: string;
  let home: string;
  let claude: ClaudeTestClient;
  let notificationsSupported = false;

  const watched = () => app.evaluate(() => (globalThis as unknown as WatchState).watched) as Promise<Watched>;
  const windowVisible = () =>
    app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.isVisible());
  const hideWindow = () => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.close());
  const clickMenuItem = (id: string) =>
    app.evaluate((_electron, itemId) => {
      const item = (globalThis as unknown as WatchState).trayMenu?.getMenuItemById(itemId);
      if (!item) throw new Error(`No tray menu item ${itemId}`);
      item.click();
    }, id);
  /** A call from the window, through the preload's carrier and IPC, as the renderer makes it. */
  const send = (method: string, params: unknown): Promise<unknown> =>
    window.evaluate(
      ([name, args]) =>
        (
          globalThis as unknown as {
            difftrayCarrier: { call(method: string, params: unknown): Promise<unknown> };
          }
        ).difftrayCarrier.call(name, args),
      [method, params] as const,
    );
  /** The same, typed by the app API contract. */
  const call = typedCall(send);
  const pendingTooltip = (count: number) =>
    eventually(
      async () => ((await watched()).tooltip.startsWith(`DiffTray — ${count} pending`) ? true : undefined),
      `the tray to count ${count} pending`,
    );
  const propose = (name: string) => {
    const file = path.join(workspace, name);
    writeFileSync(file, 'one\ntwo\n');
    void claude.openDiff(file, 'ONE\ntwo\n', name).catch(() => {});
  };

  beforeAll(async () => {
    temp = makeTempDir('electron-settings');
    root = realpathSync(temp.dir);
    workspace = path.join(root, 'workspace');
    home = path.join(root, 'home');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(home, { recursive: true });
    app = await electron.launch({
      executablePath: binary!,
      args: ['dist/main/main.cjs', '--workspace', workspace],
      env: desktopSandboxEnv(home, { DIFFTRAY_NO_UPDATES: '1' }),
    });
    window = await app.firstWindow();
    notificationsSupported = await app.evaluate(({ Notification }) => Notification.isSupported());
    await app.evaluate(({ dialog, Notification, Tray }) => {
      const state = globalThis as unknown as WatchState;
      state.watched = { notices: [], folderDialogs: [], tooltip: '' };
      state.shownNotifications = [];
      state.folderAnswer = { canceled: true, filePaths: [] };
      const show = Notification.prototype.show;
      Notification.prototype.show = function (this: Electron.Notification) {
        state.watched.notices.push({ title: this.title, body: this.body, silent: this.silent });
        state.shownNotifications.push(this);
        return show.call(this);
      };
      const tray = Tray.prototype as unknown as Record<string, (...values: unknown[]) => unknown>;
      const setToolTip = tray.setToolTip!;
      tray.setToolTip = function (this: unknown, text: unknown) {
        state.watched.tooltip = text as string;
        return setToolTip.call(this, text);
      };
      const setContextMenu = tray.setContextMenu!;
      tray.setContextMenu = function (this: unknown, menu: unknown) {
        state.trayMenu = menu as Electron.Menu;
        return setContextMenu.call(this, menu);
      };
      dialog.showOpenDialog = (async (...values: unknown[]) => {
        state.watched.folderDialogs.push(values.length > 1 ? values[1] : values[0]);
        return state.folderAnswer;
      }) as typeof dialog.showOpenDialog;
      // Quitting at the end, with reviews pending, answers "Quit".
      dialog.showMessageBox = (async () => ({
        response: 0,
        checkboxChecked: false,
      })) as unknown as typeof dialog.showMessageBox;
    });
    const lockDir = path.join(home, '.claude', 'ide');
    const lockName = readdirSync(lockDir).find((name) => name.endsWith('.lock'))!;
    const lock = JSON.parse(readFileSync(path.join(lockDir, lockName), 'utf8')) as { authToken: string };
    claude = await connectClaudeClient(Number(path.basename(lockName, '.lock')), lock.authToken);
  });

  afterAll(async () => {
    await claude?.close().catch(() => {});
    await app?.close().catch(() => {});
    temp?.cleanup();
  });

  it("carries the window's calls to core and their answers (and refusals) back", async () => {
    const snapshot = await call('getSnapshot', {});
    expect(snapshot.workspaceFolders).toEqual([workspace]);
    await expect(send('formatDisk', {})).rejects.toThrow(/Unknown method: formatDisk/);
    await expect(send('reject', { reviewId: 42 })).rejects.toThrow(/Invalid parameters for reject/);
  });

  it('notifies a review that arrives while the window is hidden, silently by default; a click opens it', async (context) => {
    if (!notificationsSupported) context.skip();
    await hideWindow();
    propose('a.txt');
    const notice = await eventually(async () => (await watched()).notices.at(-1), 'a notification');
    expect(notice).toEqual({
      title: 'Claude Code proposes a change',
      body: 'a.txt',
      silent: true,
    });
    expect(await windowVisible()).toBe(false);
    await app.evaluate(() => {
      (globalThis as unknown as WatchState).shownNotifications.at(-1)!.emit('click');
    });
    expect(await windowVisible()).toBe(true);
    await window.getByRole('button', { name: 'Accept hunk 1' }).waitFor();
  });

  it('plays the sound when the settings ask for it, and stays quiet when notifications are off', async (context) => {
    if (!notificationsSupported) context.skip();
    const pendingBefore = (await call('getSnapshot', {})).reviews.filter(
      (review) => review.state === 'pending',
    ).length;
    await call('updateSettings', { notifications: { enabled: true, sound: true } });
    await hideWindow();
    propose('b.txt');
    const withSound = await eventually(async () => {
      const notices = (await watched()).notices;
      return notices.at(-1)?.body === 'b.txt' ? notices.at(-1) : undefined;
    }, 'the second notification');
    expect(withSound.silent).toBe(false);

    await call('updateSettings', { notifications: { enabled: false, sound: true } });
    const shown = (await watched()).notices.length;
    propose('c.txt');
    // The tray counts the review in the same step that would notify it.
    await pendingTooltip(pendingBefore + 2);
    expect((await watched()).notices).toHaveLength(shown);
  });

  it('opens the Settings view from the tray, where "Choose folder…" adds the folder picked in the dialog', async () => {
    const chosen = path.join(root, 'another-project');
    mkdirSync(chosen);
    await hideWindow();
    await eventually(
      async () =>
        (await app.evaluate(() => Boolean((globalThis as unknown as WatchState).trayMenu))) || undefined,
      'the tray menu',
    );
    await clickMenuItem('settings');
    expect(await windowVisible()).toBe(true);
    const folders = window.getByRole('region', { name: 'Workspace folders' });
    await folders.waitFor();

    // Cancelled, nothing is added.
    await folders.getByRole('button', { name: 'Choose folder…' }).click();
    await eventually(
      async () => ((await watched()).folderDialogs.length === 1 ? true : undefined),
      'the dialog',
    );
    expect((await call('getSnapshot', {})).workspaceFolders).toEqual([workspace]);

    await app.evaluate((_electron, folder) => {
      (globalThis as unknown as WatchState).folderAnswer = { canceled: false, filePaths: [folder] };
    }, chosen);
    await folders.getByRole('button', { name: 'Choose folder…' }).click();
    await folders.getByRole('list', { name: 'Workspace folders' }).getByText(chosen).waitFor();
    expect((await call('getSnapshot', {})).workspaceFolders).toEqual([workspace, chosen]);
    expect((await watched()).folderDialogs.at(-1)).toEqual({
      properties: ['openDirectory', 'createDirectory'],
    });
  });

  it.runIf(process.platform === 'linux')(
    'writes the autostart entry when launchAtLogin is set, and the tray item writes the setting back',
    async () => {
      const entry = path.join(home, '.config', 'autostart', 'difftray.desktop');
      await call('updateSettings', { launchAtLogin: true });
      await eventually(async () => (existsSync(entry) ? true : undefined), 'the autostart entry');
      expect(readFileSync(entry, 'utf8')).toMatch(/^Exec=".+" --hidden$/m);
      await eventually(
        async () =>
          (await app.evaluate(
            () => (globalThis as unknown as WatchState).trayMenu?.getMenuItemById('login')?.checked,
          ))
            ? true
            : undefined,
        'the tray to check Start at login',
      );

      await clickMenuItem('login');
      await eventually(async () => (existsSync(entry) ? undefined : true), 'the entry to go');
      const settings = (await call('getSnapshot', {})).settings;
      expect(settings?.launchAtLogin).toBe(false);
    },
  );
});
