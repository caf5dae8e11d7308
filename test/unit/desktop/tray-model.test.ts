/** The tray per platform: the count where each platform shows it, the icon, and the menu as data. */
import { describe, expect, it } from 'vitest';
import type { ReviewItem } from '../../../shared/app-api';
import {
  desktopPlatform,
  TRAY_MENU_REVIEWS,
  trayAction,
  trayView,
  type TrayState,
} from '../../../src-main/desktop/tray-model';

function pending(
  id: string,
  createdAt: number,
  title = `edit ${id}`,
  files = 1,
): TrayState['pending'][number] {
  const client: ReviewItem['client'] = {
    id: 'c1',
    name: 'Claude Code',
    protocol: 'claude-ide',
    connectedAt: 0,
    connected: true,
  };
  const file = { path: '/ws/a.ts' } as ReviewItem['files'][number];
  return { id, title, createdAt, client, files: Array.from({ length: files }, () => file) };
}

const idle: TrayState = { pending: [], unpausedClients: 0, pausedClients: 0, openAtLogin: false };
const two: TrayState = { ...idle, pending: [pending('r1', 1), pending('r2', 2)], unpausedClients: 1 };

describe('the count per platform', () => {
  it('macOS: a dock badge and the menu bar title, a template icon', () => {
    const view = trayView(two, 'darwin');
    expect(view).toMatchObject({
      dockBadge: '2',
      title: '2',
      tooltip: 'DiffTray — 2 pending reviews',
      icon: { file: 'tray-iconTemplate.png', template: true },
    });
    expect(view.overlay).toBeUndefined();
    expect(trayView(idle, 'darwin')).toMatchObject({ dockBadge: '', title: '' });
  });

  it('Windows: a taskbar overlay described for screen readers, and the tooltip; no title', () => {
    const view = trayView({ ...two, pending: [pending('r1', 1)] }, 'win32');
    expect(view).toMatchObject({
      overlay: { description: '1 pending review' },
      title: '',
      tooltip: 'DiffTray — 1 pending review',
      icon: { file: 'tray-icon.png', template: false },
    });
    expect(view.dockBadge).toBeUndefined();
    expect(trayView(idle, 'win32').overlay).toBeNull();
  });

  it('Linux: the tooltip and the title, no badge or overlay', () => {
    const view = trayView(two, 'linux');
    expect(view).toMatchObject({ title: '2', tooltip: 'DiffTray — 2 pending reviews' });
    expect(view.dockBadge).toBeUndefined();
    expect(view.overlay).toBeUndefined();
    expect(trayView(idle, 'linux')).toMatchObject({ title: '', tooltip: 'DiffTray — No pending reviews' });
  });

  it('any other platform is shown as Linux', () => {
    expect(desktopPlatform('freebsd')).toBe('linux');
    expect(desktopPlatform('darwin')).toBe('darwin');
    expect(desktopPlatform('win32')).toBe('win32');
  });
});

describe('the menu', () => {
  it('lists pending reviews newest first, then the app actions', () => {
    const menu = trayView(two, 'linux').menu;
    expect(menu.map((item) => (item.type === 'separator' ? '—' : item.label))).toEqual([
      '2 pending reviews',
      'Claude Code: edit r2',
      'Claude Code: edit r1',
      '—',
      'Pause all reviews',
      'Resume all reviews',
      '—',
      'Open DiffTray',
      'Settings…',
      'Start at login',
      'Install command line tool…',
      '—',
      'Quit DiffTray',
    ]);
    expect(menu[0]).toMatchObject({ id: 'pending', enabled: false });
    expect(menu[1]).toMatchObject({ id: 'review:r2', enabled: true, type: 'normal' });
  });

  it(`caps the list at ${TRAY_MENU_REVIEWS} with "N more…", which opens the window`, () => {
    const many = Array.from({ length: TRAY_MENU_REVIEWS + 3 }, (_, i) => pending(`r${i}`, i));
    const menu = trayView({ ...idle, pending: many }, 'darwin').menu;
    const reviews = menu.filter((item) => item.id.startsWith('review:'));
    expect(reviews).toHaveLength(TRAY_MENU_REVIEWS);
    expect(reviews[0]!.id).toBe(`review:r${TRAY_MENU_REVIEWS + 2}`);
    const more = menu.find((item) => item.id === 'more');
    expect(more).toMatchObject({ label: '3 more…', enabled: true });
    expect(trayAction('more')).toEqual({ kind: 'open' });
  });

  it('names how many files a review has, and cuts long titles', () => {
    const menu = trayView(
      { ...idle, pending: [pending('r1', 1, 'x'.repeat(100)), pending('r2', 2, 'rename', 3)] },
      'linux',
    ).menu;
    expect(menu[1]).toMatchObject({ label: 'Claude Code: rename (3 files)' });
    const long = menu[2] as { label: string };
    expect(long.label).toHaveLength(60);
    expect(long.label.endsWith('…')).toBe(true);
  });

  it('enables Pause all only with a client to pause, Resume all only with one paused', () => {
    const find = (state: TrayState, id: string) =>
      trayView(state, 'linux').menu.find((item) => item.id === id);
    expect(find(idle, 'pause-all')).toMatchObject({ enabled: false });
    expect(find(idle, 'resume-all')).toMatchObject({ enabled: false });
    expect(find({ ...idle, unpausedClients: 2 }, 'pause-all')).toMatchObject({ enabled: true });
    expect(find({ ...idle, pausedClients: 1 }, 'resume-all')).toMatchObject({ enabled: true });
  });

  it('shows whether DiffTray starts at login as a check box', () => {
    const login = trayView({ ...idle, openAtLogin: true }, 'win32').menu.find((item) => item.id === 'login');
    expect(login).toEqual({
      type: 'checkbox',
      id: 'login',
      label: 'Start at login',
      enabled: true,
      checked: true,
    });
  });

  it('offers "Restart to update" only once an update is downloaded, just above Quit', () => {
    expect(trayView(idle, 'linux').menu.some((item) => item.id === 'restart-update')).toBe(false);
    const menu = trayView({ ...idle, updateReady: '1.2.0' }, 'linux').menu;
    const at = menu.findIndex((item) => item.id === 'restart-update');
    expect(menu[at]).toEqual({
      type: 'normal',
      id: 'restart-update',
      label: 'Restart to update (1.2.0)',
      enabled: true,
    });
    expect(menu.slice(at + 1).map((item) => item.id)).toEqual(['sep-quit', 'quit']);
    expect(trayAction('restart-update')).toEqual({ kind: 'restart-update' });
  });

  it('has one id per item, and every id maps to an action (separators and the count aside)', () => {
    const menu = trayView(
      { ...two, pending: Array.from({ length: 12 }, (_, i) => pending(`r${i}`, i)), updateReady: '2.0.0' },
      'darwin',
    ).menu;
    const ids = menu.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const item of menu) {
      if (item.type === 'separator' || item.id === 'pending') continue;
      expect(trayAction(item.id), item.id).not.toBeNull();
    }
  });

  it('maps ids to actions, and unknown ids to none', () => {
    expect(trayAction('review:r7')).toEqual({ kind: 'open-review', reviewId: 'r7' });
    expect(trayAction('quit')).toEqual({ kind: 'quit' });
    expect(trayAction('install-cli')).toEqual({ kind: 'install-cli' });
    expect(trayAction('review:')).toBeNull();
    expect(trayAction('format-disk')).toBeNull();
  });
});
