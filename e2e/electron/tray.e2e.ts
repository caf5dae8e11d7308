/**
 * The tray, the window's life and the command line, on the real Electron shell. Electron's own calls are
 * watched (Tray's setters record what they were given, then do their work) and the dialog is answered at
 * its boundary (dialog.showMessageBox), nothing else. Skipped, saying so, where no Electron binary exists.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { _electron as electron, type ElectronApplication } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../scripts/electron-binary.mjs';
import { connectClaudeClient, texts, type ClaudeTestClient } from '../../test/support/claude-client';
import { makeTempDir } from '../../test/support/temp';
import { until } from '../../test/support/wait';
import { desktopSandboxEnv } from '../support/desktop-env';

const binary = findElectronBinary();
if (!binary) console.warn('Electron binary not available on this machine: the tray suite is skipped.');

interface MenuRecord {
  id: string;
  label: string;
  enabled: boolean;
  type: string;
}
interface Recorded {
  tooltip: string;
  title: string;
  menu: MenuRecord[];
  dialogs: Array<{ message: string; detail?: string }>;
}

/** Electron starts slower than the headless app: a longer bound on each wait. */
const eventually = <T>(probe: () => Promise<T | undefined>, what: string): Promise<T> =>
  until(probe, what, 10_000);

describe.skipIf(!binary)('Electron tray, window and command line', () => {
  let app: ElectronApplication;
  let temp: { dir: string; cleanup: () => void };
  let workspace: string;
  let home: string;
  let env: Record<string, string>;
  let claude: ClaudeTestClient;
  const args = () => ['dist/main/main.cjs', '--workspace', workspace];

  const recorded = () =>
    app.evaluate(() => (globalThis as unknown as { recorded: Recorded }).recorded) as Promise<Recorded>;
  const clickMenuItem = (id: string) =>
    app.evaluate((_electron, itemId) => {
      const menu = (globalThis as unknown as { trayMenu: Electron.Menu }).trayMenu;
      const item = menu.getMenuItemById(itemId);
      if (!item) throw new Error(`No tray menu item ${itemId}`);
      item.click();
    }, id);
  const windowVisible = () =>
    app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.isVisible());
  const hideWindow = () => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.close());

  beforeAll(async () => {
    temp = makeTempDir('electron-tray');
    const root = realpathSync(temp.dir);
    workspace = path.join(root, 'workspace');
    home = path.join(root, 'home');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(path.join(home, '.local', 'bin'), { recursive: true });
    env = desktopSandboxEnv(home, {
      PATH: `${path.join(home, '.local', 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    });
    app = await electron.launch({ executablePath: binary!, args: args(), env });
    await app.firstWindow();
    // Watch the tray's setters (they still do their work) and answer dialogs at their boundary.
    await app.evaluate(({ Tray, dialog }) => {
      const state = globalThis as unknown as {
        recorded: Recorded;
        trayMenu?: Electron.Menu;
        dialogAnswer: number;
      };
      state.recorded = { tooltip: '', title: '', menu: [], dialogs: [] };
      state.dialogAnswer = 0;
      const tray = Tray.prototype as unknown as Record<string, (...values: unknown[]) => unknown>;
      const setToolTip = tray.setToolTip!;
      tray.setToolTip = function (this: unknown, text: unknown) {
        state.recorded.tooltip = text as string;
        return setToolTip.call(this, text);
      };
      const setTitle = tray.setTitle;
      if (setTitle) {
        tray.setTitle = function (this: unknown, text: unknown, ...rest: unknown[]) {
          state.recorded.title = text as string;
          return setTitle.call(this, text, ...rest);
        };
      }
      const setContextMenu = tray.setContextMenu!;
      tray.setContextMenu = function (this: unknown, menu: unknown) {
        state.trayMenu = menu as Electron.Menu;
        state.recorded.menu = (menu as Electron.Menu).items.map((item) => ({
          id: item.id,
          label: item.label,
          enabled: item.enabled,
          type: item.type,
        }));
        return setContextMenu.call(this, menu);
      };
      dialog.showMessageBox = (async (...values: unknown[]) => {
        const options = (values.length > 1 ? values[1] : values[0]) as { message: string; detail?: string };
        state.recorded.dialogs.push({ message: options.message, detail: options.detail });
        return { response: state.dialogAnswer, checkboxChecked: false };
      }) as typeof dialog.showMessageBox;
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

  let answer: ReturnType<ClaudeTestClient['callTool']>;

  it('shows the pending count and lists the review in the menu', async () => {
    const file = path.join(workspace, 'a.txt');
    writeFileSync(file, 'one\ntwo\n');
    answer = claude.callTool('openDiff', {
      old_file_path: file,
      new_file_path: file,
      new_file_contents: 'ONE\ntwo\n',
      tab_name: 'a.txt',
    });
    const shown = await eventually(async () => {
      const now = await recorded();
      return now.tooltip === 'DiffTray — 1 pending review' ? now : undefined;
    }, 'the tray to count the review');
    if (process.platform === 'darwin') expect(shown.title).toBe('1');
    expect(shown.menu[0]).toMatchObject({ id: 'pending', label: '1 pending review', enabled: false });
    expect(shown.menu[1]).toMatchObject({ id: expect.stringMatching(/^review:/), enabled: true });
    expect(shown.menu[1]!.label).toMatch(/^Claude Code: /);
    expect(shown.menu.filter((item) => item.type !== 'separator').map((item) => item.label)).toEqual(
      expect.arrayContaining([
        'Pause all reviews',
        'Resume all reviews',
        'Open DiffTray',
        'Settings…',
        'Quit DiffTray',
      ]),
    );
    expect(shown.menu.find((item) => item.id === 'pause-all')).toMatchObject({ enabled: true });
  });

  it('opens the window on a review chosen in the menu', async () => {
    await hideWindow();
    expect(await windowVisible()).toBe(false);
    const reviewItem = (await recorded()).menu[1]!;
    await clickMenuItem(reviewItem.id);
    expect(await windowVisible()).toBe(true);
    const window = await app.firstWindow();
    await window.getByRole('button', { name: 'Accept hunk 1' }).waitFor();
  });

  it('hides to the tray when the window is closed; the tray still counts', async () => {
    await hideWindow();
    expect(await windowVisible()).toBe(false);
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
    expect((await recorded()).tooltip).toBe('DiffTray — 1 pending review');
  });

  it('stays a single instance: a second start shows the first window and exits', async () => {
    const second = spawn(binary!, args(), { env, stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    expect(code).toBe(0);
    await eventually(async () => ((await windowVisible()) ? true : undefined), 'the first window to show');
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  it('installs the command line tool into ~/.local/bin, and it runs', async () => {
    await clickMenuItem('install-cli');
    const dialog = await eventually(
      async () => (await recorded()).dialogs.at(-1),
      'the install to be reported',
    );
    expect(dialog.message).toBe('The difftray command is installed');
    const launcher = path.join(
      home,
      '.local',
      'bin',
      process.platform === 'win32' ? 'difftray.cmd' : 'difftray',
    );
    expect(existsSync(launcher)).toBe(true);
    if (process.platform === 'win32') return;
    expect(statSync(launcher).mode & 0o777).toBe(0o755);
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    const run = spawnSync('difftray', ['--version'], { env, cwd: home, encoding: 'utf8' });
    expect(run.stdout).toBe(`${version}\n`);
  });

  it.runIf(process.platform === 'linux')(
    '"Start at login" writes and removes the autostart entry',
    async () => {
      const entry = path.join(home, '.config', 'autostart', 'difftray.desktop');
      // The item writes the launchAtLogin setting; the entry follows the setting's change.
      await clickMenuItem('login');
      await eventually(async () => (existsSync(entry) ? true : undefined), 'the autostart entry');
      expect(readFileSync(entry, 'utf8')).toMatch(/^Exec=".+" --hidden$/m);
      expect((await recorded()).menu.find((item) => item.id === 'login')).toBeDefined();
      await clickMenuItem('login');
      await eventually(async () => (existsSync(entry) ? undefined : true), 'the entry to go');
    },
  );

  it('asks before quitting with a review pending; Cancel keeps it, Quit rejects it as "DiffTray quit"', async () => {
    const setAnswer = (answerIndex: number) =>
      app.evaluate((_electron, value) => {
        (globalThis as unknown as { dialogAnswer: number }).dialogAnswer = value;
      }, answerIndex);
    await setAnswer(1);
    await app.evaluate(({ app: electronApp }) => electronApp.quit());
    const asked = await eventually(
      async () => (await recorded()).dialogs.find((dialog) => dialog.message.startsWith('Quit DiffTray?')),
      'the quit question',
    );
    expect(asked).toEqual({
      message: 'Quit DiffTray? 1 review is still pending.',
      detail: 'It is rejected and each agent is told "DiffTray quit".',
    });
    expect((await recorded()).tooltip).toBe('DiffTray — 1 pending review');

    await setAnswer(0);
    const closed = new Promise<void>((resolve) => app.process().on('exit', () => resolve()));
    await app.evaluate(({ app: electronApp }) => electronApp.quit());
    expect(texts(await answer)[0]).toBe('DIFF_REJECTED');
    await closed;
  });
});
