/** Renders a TrayView (tray-model.ts) with Electron: icon, count, menu. Nothing is decided here. */
import { app, Menu, nativeImage, Tray, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';
import path from 'node:path';
import {
  trayAction,
  type DesktopPlatform,
  type TrayAction,
  type TrayMenuItem,
  type TrayView,
} from './tray-model';

export class AppTray {
  private readonly tray: Tray;
  private readonly overlayIcon: Electron.NativeImage;
  /** The view last rendered: most changes (a hunk decided) leave the tray as it is, and nothing is redone. */
  private shown = '';

  constructor(
    private readonly assetsDir: string,
    private readonly platform: DesktopPlatform,
    initial: TrayView,
    private readonly onAction: (action: TrayAction) => void,
  ) {
    this.tray = new Tray(this.icon(initial.icon));
    this.overlayIcon = nativeImage.createFromPath(path.join(assetsDir, 'overlay-badge.png'));
    // A click on the icon opens the window (the menu is the right click, or the click on macOS).
    this.tray.on('click', () => onAction({ kind: 'open' }));
  }

  render(view: TrayView, window: BrowserWindow | undefined): void {
    const key = JSON.stringify(view);
    if (key === this.shown) return;
    this.shown = key;
    this.tray.setToolTip(view.tooltip);
    // Documented for macOS; some Electron builds lack it elsewhere, where the tooltip carries the count.
    if (this.platform !== 'win32' && typeof this.tray.setTitle === 'function') this.tray.setTitle(view.title);
    if (view.dockBadge !== undefined) app.dock?.setBadge(view.dockBadge);
    if (view.overlay !== undefined && window && !window.isDestroyed()) {
      window.setOverlayIcon(view.overlay ? this.overlayIcon : null, view.overlay?.description ?? '');
    }
    this.tray.setContextMenu(Menu.buildFromTemplate(view.menu.map((item) => this.menuItem(item))));
  }

  destroy(): void {
    this.tray.destroy();
  }

  private menuItem(item: TrayMenuItem): MenuItemConstructorOptions {
    if (item.type === 'separator') return { type: 'separator', id: item.id };
    const action = trayAction(item.id);
    return {
      ...item,
      ...(action && { click: () => this.onAction(action) }),
    };
  }

  private icon(choice: TrayView['icon']): Electron.NativeImage {
    const image = nativeImage.createFromPath(path.join(this.assetsDir, choice.file));
    if (choice.template) image.setTemplateImage(true);
    return image;
  }
}
