/**
 * The Electron shell: single instance, tray, one window that hides to the tray, IPC to core.
 * Thin on purpose: what it shows comes from core through the app API; its decisions live in
 * tray-model.ts, quit-prompt.ts, window-bounds.ts, login-items.ts, cli-install.ts, security.ts,
 * folder-picker.ts, desktop-settings.ts and updates.ts, which are tested without Electron.
 */
import { app, dialog, ipcMain, protocol, session, type BrowserWindow } from 'electron';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RENDERER_CSP } from '../../shared/csp';
import type { StateEvent } from '../../shared/app-api';
import { DEFAULT_APP_SETTINGS } from '../../shared/app-settings';
import { difftrayHome } from '../core/settings/settings';
import { readStaticFile } from '../loopback/static-files';
import { parseLaunchArgs, type LaunchOptions } from '../launch-options';
import { checkWorkspaceArgs, LaunchArgsError } from '../workspace-args';
import { instanceFile, readRecord } from '../instance-file';
import { ignoreClosedOutput, installLastResort, raiseOpenFileLimit } from '../process-guard';
import {
  askToShow,
  claimInstance,
  electronHandOver,
  handOverWanted,
  secondDesktopStart,
  printSecondStart,
  secondStart,
  type OwnInstance,
} from '../single-instance';
import { startRuntime, type Runtime } from '../runtime';
import {
  APP_SCHEME,
  IPC_CALL_CHANNEL,
  IPC_STATE_CHANNEL,
  isAllowedNavigation,
  isTrustedSenderUrl,
} from './security';
import { AppTray } from './app-tray';
import { arrivalNotices } from './arrival-notices';
import { cliEntryPath } from './cli-install';
import { installCommandLineTool } from './cli-install-run';
import { connectionNotices } from './connection-notices';
import { arrivalNotification } from './desktop-settings';
import { desktopCalls, type ShowFolderDialog } from './folder-picker';
import { isOpenAtLogin, setOpenAtLogin } from './login-item-shell';
import { createMainWindow } from './main-window';
import { notify } from './notify';
import { quitPrompt } from './quit-prompt';
import { SettingsFollower } from './settings-follower';
import { pauseAll, rejectPendingOnQuit, resumeAll, trayStateOf } from './tray-actions';
import { desktopPlatform, trayView, type TrayAction } from './tray-model';
import { restartToUpdate, startUpdates } from './update-shell';
import { updateFeedFile, updatePolicy, updateReadyNotice } from './updates';
import { WindowFeed } from './window-feed';
import { messageOf } from '../../shared/error-message';

const rendererDir = path.join(__dirname, '..', 'renderer');
const assetsDir = path.join(__dirname, '..', '..', 'assets');
const platform = desktopPlatform(process.platform);
const loginContext = { platform, execPath: process.execPath, env: process.env, home: os.homedir() };

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let runtime: Runtime | undefined;
/** This app's instance record (single-instance.ts): another start finds it and hands over. */
let instance: OwnInstance | undefined;
let mainWindow: BrowserWindow | undefined;
let tray: AppTray | undefined;
/** Set once quitting is decided (asked and confirmed, or nothing pending): closing then really closes. */
let quitting = false;
/** The person's settings, and the login item that follows them. */
let settingsFollower: SettingsFollower | undefined;
/** A downloaded update's version, waiting for "Restart to update". */
let updateReady: string | undefined;

function showWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

/** Shows the window on that review: shown first, the window has the whole state before it selects. */
function openReview(reviewId: string): void {
  showWindow();
  const event: StateEvent = { show: { reviewId } };
  mainWindow?.webContents.send(IPC_STATE_CHANNEL, event);
}

/** Shows the window on its Settings view. */
function openSettings(): void {
  showWindow();
  const event: StateEvent = { open: 'settings' };
  mainWindow?.webContents.send(IPC_STATE_CHANNEL, event);
}

function trayState(core: Runtime['core']) {
  const openAtLogin = settingsFollower?.openAtLogin ?? false;
  return { ...trayStateOf(core, openAtLogin), ...(updateReady && { updateReady }) };
}

function updateTray(): void {
  if (runtime) tray?.render(trayView(trayState(runtime.core), platform), mainWindow);
}

/** The window in front of the person: a review arriving there needs no notification. */
function windowInFront(): boolean {
  return Boolean(mainWindow && !mainWindow.isDestroyed() && mainWindow.isVisible() && mainWindow.isFocused());
}

function onTrayAction(action: TrayAction): void {
  const core = runtime?.core;
  if (!core) return;
  switch (action.kind) {
    case 'open-review':
      return openReview(action.reviewId);
    case 'open':
      return showWindow();
    case 'settings':
      return openSettings();
    case 'pause-all':
      return pauseAll(core);
    case 'resume-all':
      return resumeAll(core);
    case 'login':
      void settingsFollower?.toggleOpenAtLogin().catch((error: unknown) => {
        void dialog.showMessageBox({
          type: 'error',
          message: 'Start at login was not changed',
          detail: messageOf(error),
        });
      });
      return;
    case 'install-cli':
      void installCommandLineTool({
        ...loginContext,
        cliPath: cliEntryPath({
          packaged: app.isPackaged,
          resourcesPath: process.resourcesPath,
          mainBundleDir: __dirname,
        }),
        exists: existsSync,
      });
      return;
    case 'restart-update':
      return confirmLeaving(restartToUpdate);
    case 'quit':
      return app.quit();
  }
}

const openers = { review: openReview, window: showWindow };

async function start(options: LaunchOptions): Promise<void> {
  checkWorkspaceArgs(options.workspaces);
  // Electron's lock keeps out a second desktop app; the record, a headless DiffTray for the same home.
  const claim = await claimInstance({ home: difftrayHome(process.env), shell: 'desktop' });
  if (claim.kind !== 'claimed') {
    const said = secondStart(claim, { newInstance: options.newInstance, show: askToShow });
    printSecondStart(said);
    app.exit(said.exitCode);
    return;
  }
  instance = claim.instance;
  raiseOpenFileLimit(process.pid, (message) => console.error(message));
  runtime = await startRuntime({ workspaces: options.workspaces });
  installLastResort((message) => console.error(message));
  const { core, handler } = runtime;

  protocol.handle(APP_SCHEME, async (request) => {
    const file = await readStaticFile(rendererDir, new URL(request.url).pathname);
    if (!file) return new Response('Not found', { status: 404 });
    return new Response(new Uint8Array(file.body), {
      headers: { 'content-type': file.type, 'content-security-policy': RENDERER_CSP },
    });
  });
  // Nothing is fetched from outside the app.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));

  const feed = new WindowFeed(core, (state) => mainWindow?.webContents.send(IPC_STATE_CHANNEL, state));
  const showFolderDialog: ShowFolderDialog = (dialogOptions) =>
    mainWindow ? dialog.showOpenDialog(mainWindow, dialogOptions) : dialog.showOpenDialog(dialogOptions);
  const calls = desktopCalls(handler, showFolderDialog);
  ipcMain.handle(IPC_CALL_CHANNEL, (event, method: unknown, params: unknown) => {
    if (!isTrustedSenderUrl(event.senderFrame?.url)) throw new Error('Untrusted sender');
    return calls(method, params, feed.current);
  });

  settingsFollower = new SettingsFollower({
    loginItem: { read: () => isOpenAtLogin(loginContext), write: (on) => setOpenAtLogin(on, loginContext) },
    updateSettings: (patch) => handler('updateSettings', patch),
    loginItemChanged: updateTray,
    warn: (message) => console.warn(`DiffTray: ${message}`),
  });
  tray = new AppTray(assetsDir, platform, trayView(trayState(core), platform), onTrayAction);
  // Started at login (--hidden; on macOS the login item says so), DiffTray waits in the tray.
  const startHidden =
    options.hidden || (platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);
  mainWindow = createMainWindow({
    feed,
    dataDir: difftrayHome(process.env),
    startHidden,
    quitting: () => quitting,
  });
  // `difftray open` shows this window.
  runtime.native.setAppHooks({ showWindow });
  // Serving, with a window to show: a headless start for the same home finds it and asks for it.
  instance.serving({ port: runtime.native.port }, showWindow);
  // The tray and notifications follow the stream whether or not the window is shown.
  const toldConnections = new Set<string>();
  core.subscribe((change) => {
    if (change.settings) settingsFollower?.follow(change.settings);
    updateTray();
    // New reviews and connection prompts are told without raising the window: focus stays where it is.
    const notifications = settingsFollower?.settings.notifications ?? DEFAULT_APP_SETTINGS.notifications;
    const arrival = arrivalNotification(notifications, windowInFront());
    if (arrival)
      notify(
        arrivalNotices(change).map((notice) => ({ ...notice, ...arrival })),
        openers,
      );
    notify(connectionNotices(change, toldConnections), openers);
  });
  settingsFollower.follow(core.snapshot().settings);
  updateTray();

  const policy = updatePolicy({
    packaged: app.isPackaged,
    feedConfigured: app.isPackaged && existsSync(updateFeedFile(process.resourcesPath)),
    env: process.env,
  });
  startUpdates(policy, (version) => {
    updateReady = version;
    updateTray();
    if (settingsFollower?.settings.notifications.enabled) notify([updateReadyNotice(version)], openers);
  });
}

function pendingQuitPrompt() {
  return runtime ? quitPrompt(runtime.core.queue.pendingCount()) : null;
}

/**
 * Leaving (quit, or restart to update) asks only when reviews are pending; confirmed, they are rejected
 * ("DiffTray quit") first, then `leave` runs.
 */
function confirmLeaving(leave: () => void): void {
  const prompt = pendingQuitPrompt();
  if (!prompt) {
    quitting = true;
    leave();
    return;
  }
  const { quitButton, ...options } = prompt;
  void dialog.showMessageBox({ type: 'question', ...options }).then(({ response }) => {
    if (response !== quitButton || !runtime) return;
    rejectPendingOnQuit(runtime.core);
    quitting = true;
    // The rejections are sent first: their answers are written before the sockets close.
    setImmediate(leave);
  });
}

function onBeforeQuit(event: Electron.Event): void {
  if (quitting) return;
  if (!pendingQuitPrompt()) {
    quitting = true;
    return;
  }
  event.preventDefault();
  confirmLeaving(() => app.quit());
}

/**
 * Ctrl-C, `kill`, a closed terminal: the signal is the answer, nothing is asked. Lock files and the
 * instance record go at once; pending reviews end as cancelled when the servers close (will-quit).
 */
function quitOnSignal(): void {
  runtime?.stopServing();
  instance?.release();
  quitting = true;
  app.quit();
}

/** The command line, or the reason it is refused (said, and the app exits). */
function launchOptions(): LaunchOptions | undefined {
  try {
    return parseLaunchArgs(process.argv.slice(app.isPackaged ? 1 : 2));
  } catch (error) {
    console.error(`DiffTray failed to start: ${messageOf(error)}`);
    app.exit(1);
    return undefined;
  }
}

ignoreClosedOutput();
const launch = launchOptions();
if (!launch) {
  // Refused above.
} else if (!app.requestSingleInstanceLock(electronHandOver(launch.newInstance))) {
  // Another desktop app runs: it shows its window (second-instance), unless this start asked not to.
  const said = secondDesktopStart(
    readRecord(instanceFile(difftrayHome(process.env)))?.record,
    launch.newInstance,
  );
  printSecondStart(said);
  app.exit(said.exitCode);
} else {
  app.on('second-instance', (_event, _argv, _workingDirectory, additionalData) => {
    if (handOverWanted(additionalData)) showWindow();
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, quitOnSignal);
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event, url) => {
      if (!isAllowedNavigation(url)) event.preventDefault();
    });
  });
  // A tray app stays alive with no window open.
  app.on('window-all-closed', () => {});
  app.on('before-quit', onBeforeQuit);
  app.on('will-quit', () => {
    tray?.destroy();
    instance?.release();
    // Its lock files are removed at once, before anything is awaited.
    void runtime?.close();
  });
  app
    .whenReady()
    .then(() => start(launch))
    .catch((error: unknown) => {
      console.error(`DiffTray failed to start: ${messageOf(error)}`);
      runtime?.stopServing();
      instance?.release();
      app.exit(error instanceof LaunchArgsError ? error.exitCode : 1);
    });
}
