/**
 * The Electron shell: single instance, tray, one window that hides to the tray, IPC to core.
 * Thin on purpose: what it shows comes from core through the app API; its decisions live in
 * tray-model.ts and security.ts, which are tested without Electron.
 */
import {
  app,
  BrowserWindow,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  protocol,
  session,
  Tray,
} from 'electron';
import path from 'node:path';
import { RENDERER_CSP } from '../../shared/csp';
import { readStaticFile } from '../loopback/static-files';
import { parseLaunchArgs } from '../launch-options';
import { startRuntime, type Runtime } from '../runtime';
import {
  APP_ENTRY_URL,
  APP_SCHEME,
  IPC_CALL_CHANNEL,
  IPC_STATE_CHANNEL,
  isAllowedNavigation,
  isTrustedSenderUrl,
  secureWebPreferences,
} from './security';
import { arrivalNotices } from './arrival-notices';
import { connectionNotices } from './connection-notices';
import { trayModel } from './tray-model';
import { WindowFeed } from './window-feed';

const rendererDir = path.join(__dirname, '..', 'renderer');

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let runtime: Runtime | undefined;
let mainWindow: BrowserWindow | undefined;
let tray: Tray | undefined;
let quitting = false;

function showWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

function createWindow(feed: WindowFeed): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    show: false,
    title: 'DiffTray',
    webPreferences: secureWebPreferences(path.join(__dirname, 'preload.cjs')),
  });
  // Closing hides to the tray; reviews keep arriving and the CLIs keep waiting.
  window.on('close', (event) => {
    if (!quitting) {
      event.preventDefault();
      window.hide();
    }
  });
  // Nothing is built or sent for a hidden window; shown again, it gets the whole state first.
  window.on('show', () => feed.shown());
  window.on('hide', () => feed.hidden());
  window.on('closed', () => feed.hidden());
  window.once('ready-to-show', () => window.show());
  void window.loadURL(APP_ENTRY_URL);
  return window;
}

function updateTray(pendingCount: number): void {
  if (!tray) return;
  const model = trayModel(pendingCount);
  tray.setToolTip(model.tooltip);
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: model.pendingLabel, enabled: false },
      { type: 'separator' },
      { label: 'Open DiffTray', click: showWindow },
      { label: 'Quit DiffTray', click: () => app.quit() },
    ]),
  );
}

/** Tells of new reviews (and connection prompts) without raising the window: focus stays where it is. */
function notifyArrivals(notices: ReadonlyArray<{ title: string; body: string }>): void {
  if (!Notification.isSupported()) return;
  for (const notice of notices) {
    const notification = new Notification({ title: notice.title, body: notice.body, silent: true });
    notification.on('click', showWindow);
    notification.show();
  }
}

async function start(): Promise<void> {
  const options = parseLaunchArgs(process.argv.slice(app.isPackaged ? 1 : 2));
  runtime = await startRuntime({ workspaces: options.workspaces });
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
  ipcMain.handle(IPC_CALL_CHANNEL, (event, method: unknown, params: unknown) => {
    if (!isTrustedSenderUrl(event.senderFrame?.url)) throw new Error('Untrusted sender');
    return handler(method, params, feed.current);
  });

  tray = new Tray(nativeImage.createFromPath(path.join(__dirname, '..', '..', 'assets', 'tray-icon.png')));
  tray.on('click', showWindow);
  mainWindow = createWindow(feed);
  // `difftray open` shows this window.
  runtime.native.setAppHooks({ showWindow });
  // The tray and notifications follow the stream whether or not the window is shown.
  const toldConnections = new Set<string>();
  core.subscribe((change) => {
    updateTray(core.queue.pendingCount());
    notifyArrivals(arrivalNotices(change));
    notifyArrivals(connectionNotices(change, toldConnections));
  });
  updateTray(core.queue.pendingCount());
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event, url) => {
      if (!isAllowedNavigation(url)) event.preventDefault();
    });
  });
  // A tray app stays alive with no window open.
  app.on('window-all-closed', () => {});
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('will-quit', () => void runtime?.close());
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error(`DiffTray failed to start: ${error instanceof Error ? error.message : String(error)}`);
      app.exit(1);
    });
}
