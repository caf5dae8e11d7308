/**
 * What the tray shows, as plain data computed from the app state: the count (badge, overlay, title,
 * tooltip per platform), the icon, and the menu. main.ts only renders it with Electron.
 */
import type { ReviewItem } from '../../shared/app-api';

export type DesktopPlatform = 'darwin' | 'win32' | 'linux';

/** The platforms DiffTray ships for; anything else (BSDs) is treated as Linux. */
export function desktopPlatform(platform: string): DesktopPlatform {
  return platform === 'darwin' || platform === 'win32' ? platform : 'linux';
}

/** How many pending reviews the menu lists; the rest are summed up in one "N more…" line. */
export const TRAY_MENU_REVIEWS = 10;

export interface TrayState {
  pending: ReadonlyArray<Pick<ReviewItem, 'id' | 'title' | 'createdAt' | 'client' | 'files'>>;
  /** Connected clients whose reviews are not paused (what "Pause all" would pause). */
  unpausedClients: number;
  /** Clients whose reviews are paused (what "Resume all" would resume). */
  pausedClients: number;
  /** Whether DiffTray starts at login (shown as a check box). */
  openAtLogin: boolean;
  /** The version of a downloaded update waiting for a restart, if any. */
  updateReady?: string;
}

/** Every menu action, by id: main.ts maps them to what they do (trayAction). */
export type TrayMenuItem =
  | { type: 'normal'; id: string; label: string; enabled: boolean }
  | { type: 'checkbox'; id: string; label: string; enabled: boolean; checked: boolean }
  | { type: 'separator'; id: string };

export interface TrayView {
  tooltip: string;
  /** Text beside the icon: macOS menu bar; Linux (where the desktop shows it). Empty clears it. */
  title: string;
  /** macOS dock badge; empty clears it. Undefined elsewhere. */
  dockBadge?: string;
  /** Windows taskbar overlay: its accessible description, or null to clear it. Undefined elsewhere. */
  overlay?: { description: string } | null;
  /** The icon file in assets/; on macOS a template image (monochrome, follows the menu bar). */
  icon: { file: string; template: boolean };
  menu: TrayMenuItem[];
}

export function pendingLabel(count: number): string {
  return count === 0 ? 'No pending reviews' : `${count} pending review${count === 1 ? '' : 's'}`;
}

export function trayView(state: TrayState, platform: DesktopPlatform): TrayView {
  const count = state.pending.length;
  const label = pendingLabel(count);
  const view: TrayView = {
    tooltip: `DiffTray — ${label}`,
    title: count === 0 ? '' : String(count),
    icon:
      platform === 'darwin'
        ? { file: 'tray-iconTemplate.png', template: true }
        : { file: 'tray-icon.png', template: false },
    menu: trayMenu(state),
  };
  if (platform === 'darwin') view.dockBadge = count === 0 ? '' : String(count);
  if (platform === 'win32') view.overlay = count === 0 ? null : { description: label };
  // Windows shows no text beside a tray icon.
  if (platform === 'win32') view.title = '';
  return view;
}

function trayMenu(state: TrayState): TrayMenuItem[] {
  const newestFirst = [...state.pending].sort((a, b) => b.createdAt - a.createdAt);
  const shown = newestFirst.slice(0, TRAY_MENU_REVIEWS);
  const more = newestFirst.length - shown.length;
  const items: TrayMenuItem[] = [
    { type: 'normal', id: 'pending', label: pendingLabel(newestFirst.length), enabled: false },
    ...shown.map((review): TrayMenuItem => ({
      type: 'normal',
      id: `review:${review.id}`,
      label: reviewLabel(review),
      enabled: true,
    })),
  ];
  if (more > 0) items.push({ type: 'normal', id: 'more', label: `${more} more…`, enabled: true });
  items.push(
    { type: 'separator', id: 'sep-pause' },
    { type: 'normal', id: 'pause-all', label: 'Pause all reviews', enabled: state.unpausedClients > 0 },
    { type: 'normal', id: 'resume-all', label: 'Resume all reviews', enabled: state.pausedClients > 0 },
    { type: 'separator', id: 'sep-app' },
    { type: 'normal', id: 'open', label: 'Open DiffTray', enabled: true },
    { type: 'normal', id: 'settings', label: 'Settings…', enabled: true },
    { type: 'checkbox', id: 'login', label: 'Start at login', enabled: true, checked: state.openAtLogin },
    { type: 'normal', id: 'install-cli', label: 'Install command line tool…', enabled: true },
  );
  if (state.updateReady) {
    items.push({
      type: 'normal',
      id: 'restart-update',
      label: `Restart to update (${state.updateReady})`,
      enabled: true,
    });
  }
  items.push(
    { type: 'separator', id: 'sep-quit' },
    { type: 'normal', id: 'quit', label: 'Quit DiffTray', enabled: true },
  );
  return items;
}

/** Menu labels stay short: the client and the title, cut with an ellipsis. */
const MENU_LABEL_CHARS = 60;

function reviewLabel(review: Pick<ReviewItem, 'title' | 'client' | 'files'>): string {
  const what = review.files.length > 1 ? `${review.title} (${review.files.length} files)` : review.title;
  const label = `${review.client.name}: ${what}`;
  return label.length > MENU_LABEL_CHARS ? `${label.slice(0, MENU_LABEL_CHARS - 1)}…` : label;
}

export type TrayAction =
  | { kind: 'open-review'; reviewId: string }
  | {
      kind:
        | 'open'
        | 'settings'
        | 'pause-all'
        | 'resume-all'
        | 'login'
        | 'install-cli'
        | 'restart-update'
        | 'quit';
    };

/** What a menu item's id asks for; null for an id no menu item has. */
export function trayAction(id: string): TrayAction | null {
  if (id.startsWith('review:') && id.length > 'review:'.length) {
    return { kind: 'open-review', reviewId: id.slice('review:'.length) };
  }
  // "N more…" opens the window, where the whole queue is.
  if (id === 'more') return { kind: 'open' };
  switch (id) {
    case 'open':
    case 'settings':
    case 'pause-all':
    case 'resume-all':
    case 'login':
    case 'install-cli':
    case 'restart-update':
    case 'quit':
      return { kind: id };
    default:
      return null;
  }
}
