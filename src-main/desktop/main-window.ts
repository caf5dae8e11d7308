/**
 * The one window: secure, served from difftray://, back where it was left (window-bounds.ts), and
 * hidden to the tray when closed. Thin: the decisions are in window-bounds.ts and window-feed.ts.
 */
import { BrowserWindow, screen } from 'electron';
import path from 'node:path';
import { APP_ENTRY_URL, secureWebPreferences } from './security';
import { readSavedBounds, restoredPlacement, writeSavedBounds } from './window-bounds';
import type { WindowFeed } from './window-feed';

export interface MainWindowOptions {
  feed: WindowFeed;
  /** Where the window's bounds are remembered. */
  dataDir: string;
  /** Started at login: stay in the tray until asked. */
  startHidden: boolean;
  /** True once the app is quitting: then closing really closes. */
  quitting: () => boolean;
}

export function createMainWindow({ feed, dataDir, startHidden, quitting }: MainWindowOptions): BrowserWindow {
  const workAreas = screen.getAllDisplays().map((display) => display.workArea);
  const placement = restoredPlacement(readSavedBounds(dataDir), workAreas);
  const window = new BrowserWindow({
    width: placement.width,
    height: placement.height,
    ...(placement.x !== undefined && placement.y !== undefined && { x: placement.x, y: placement.y }),
    show: false,
    title: 'DiffTray',
    webPreferences: secureWebPreferences(path.join(__dirname, 'preload.cjs')),
  });
  const remember = () => writeSavedBounds(dataDir, window.getNormalBounds(), window.isMaximized());
  // Closing hides to the tray; reviews keep arriving and the CLIs keep waiting.
  window.on('close', (event) => {
    try {
      remember();
    } catch {
      // A read-only data folder only costs the remembered position.
    }
    if (!quitting()) {
      event.preventDefault();
      window.hide();
    }
  });
  // Nothing is built or sent for a hidden window; shown again, it gets the whole state first.
  window.on('show', () => feed.shown());
  window.on('hide', () => feed.hidden());
  window.on('closed', () => feed.hidden());
  window.once('ready-to-show', () => {
    if (placement.maximized) window.maximize();
    if (!startHidden) window.show();
  });
  void window.loadURL(APP_ENTRY_URL);
  return window;
}
