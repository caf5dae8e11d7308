import { describe, expect, it } from 'vitest';
import type { AppSnapshot } from '../../../shared/app-api';
import { DEFAULT_APP_SETTINGS } from '../../../shared/app-settings';
import {
  clientRowDetail,
  isAutoApplied,
  knownClients,
  settingsFileNotice,
  settingsOrDefaults,
  themeChoice,
  withAutoApply,
  withFolderAdded,
  withFolderRemoved,
} from '../../../src-renderer/settings/settings-model';
import { openSettingsOnRequest, useSettingsView } from '../../../src-renderer/settings/settings-view';
import { useAppStore } from '../../../src-renderer/state/store';
import { client } from './fixtures-app-shell';

function snapshot(extra: Partial<AppSnapshot> = {}): AppSnapshot {
  return {
    version: 1,
    reviews: [],
    clients: [],
    pausedClients: [],
    workspaceFolders: ['/w'],
    watchedFolders: [],
    connectionRequests: [],
    trustedPrograms: [],
    ...extra,
  };
}

describe('settings and theme', () => {
  it('the defaults stand in while main sends no settings', () => {
    expect(settingsOrDefaults(null)).toEqual(DEFAULT_APP_SETTINGS);
    expect(settingsOrDefaults(snapshot())).toEqual(DEFAULT_APP_SETTINGS);
    const settings = { ...DEFAULT_APP_SETTINGS, theme: 'dark' as const };
    expect(settingsOrDefaults(snapshot({ settings }))).toBe(settings);
  });

  it('the theme is the settings’ once there are settings, else the window’s own', () => {
    expect(themeChoice(undefined, 'light')).toBe('light');
    expect(themeChoice({ ...DEFAULT_APP_SETTINGS, theme: 'dark' }, 'light')).toBe('dark');
    expect(themeChoice({ ...DEFAULT_APP_SETTINGS, theme: 'system' }, 'dark')).toBe('system');
  });
});

describe('the auto-apply list', () => {
  it('matches names trimmed and without regard to case, as main does', () => {
    expect(isAutoApplied([' clio '], 'Clio')).toBe(true);
    expect(isAutoApplied(['Clio'], 'Claude Code')).toBe(false);
  });

  it('turning a client on adds its name once; off takes out every spelling of it', () => {
    expect(withAutoApply(['Clio'], 'Claude Code', true)).toEqual(['Clio', 'Claude Code']);
    expect(withAutoApply(['clio'], 'Clio', true)).toEqual(['Clio']);
    expect(withAutoApply(['clio', 'CLIO ', 'Gemini CLI'], 'Clio', false)).toEqual(['Gemini CLI']);
  });
});

describe('knownClients', () => {
  it('lists connected, paused and auto-applied clients once each, by name', () => {
    const rows = knownClients(
      snapshot({
        clients: [
          client('a', { name: 'Claude Code', protocol: 'claude-ide' }),
          client('b', { name: 'Claude Code', protocol: 'claude-ide' }),
          client('c', { name: 'Clio', protocol: 'clio' }),
          client('gone', { name: 'Old', protocol: 'native', connected: false }),
        ],
        pausedClients: [{ key: 'claude-hooks:Claude Code', name: 'Claude Code', protocol: 'claude-hooks' }],
        settings: { ...DEFAULT_APP_SETTINGS, autoApply: ['clio', 'Qwen Code'] },
      }),
    );
    expect(rows.map((row) => [row.name, row.protocol, row.connected, row.autoApply, row.paused])).toEqual([
      ['Claude Code', 'claude-hooks', false, false, true],
      ['Claude Code', 'claude-ide', true, false, false],
      ['Clio', 'clio', true, true, false],
      ['Qwen Code', undefined, false, true, false],
    ]);
  });

  it('only clients that can go ahead on their own get a pause key', () => {
    const rows = knownClients(
      snapshot({
        clients: [
          client('a', { name: 'difftray review', protocol: 'native' }),
          client('b', { name: 'Gemini CLI', protocol: 'gemini-ide' }),
        ],
      }),
    );
    expect(rows.map((row) => [row.name, row.pauseKey])).toEqual([
      ['difftray review', 'native:difftray review'],
      ['Gemini CLI', undefined],
    ]);
  });

  it('leaves out DiffTray’s own merge reviews, and a blank auto-apply name', () => {
    const rows = knownClients(
      snapshot({
        clients: [client('d', { name: 'DiffTray', protocol: 'difftray' })],
        settings: { ...DEFAULT_APP_SETTINGS, autoApply: ['  '] },
      }),
    );
    expect(rows).toEqual([]);
  });

  it('says how each connects and whether it is connected now', () => {
    const [hooks, ide, named] = knownClients(
      snapshot({
        clients: [client('a', { protocol: 'claude-ide' })],
        pausedClients: [{ key: 'claude-hooks:Claude Code', name: 'Claude Code', protocol: 'claude-hooks' }],
        settings: { ...DEFAULT_APP_SETTINGS, autoApply: ['Zed'] },
      }),
    );
    expect(clientRowDetail(hooks!)).toBe('hooks, not connected');
    expect(clientRowDetail(ide!)).toBe('IDE connection, connected');
    expect(clientRowDetail(named!)).toBe('not connected in this run');
  });
});

describe('folder lists', () => {
  it('adds a trimmed path, and says why not when it is empty or listed already', () => {
    expect(withFolderAdded(['/a'], '  /b ')).toEqual({ list: ['/a', '/b'] });
    expect(withFolderAdded(['/a'], '   ')).toEqual({ problem: 'Type the folder’s path first.' });
    expect(withFolderAdded(['/a/'], '/a')).toEqual({ problem: '/a is listed already.' });
  });

  it('removes exactly the entry named', () => {
    expect(withFolderRemoved(['/a', '/b'], '/a')).toEqual(['/b']);
  });
});

describe('settingsFileNotice', () => {
  it('says nothing while the file is fine', () => {
    expect(settingsFileNotice(undefined)).toBeUndefined();
    expect(settingsFileNotice({ path: '/h/.difftray/settings.json' })).toBeUndefined();
  });

  it('names the file and the problem, and that the defaults are used and what was written kept', () => {
    const text = settingsFileNotice({
      path: '/h/.difftray/settings.json',
      problem: '"theme" is not used (Invalid option): its default applies',
    });
    expect(text).toBe(
      '/h/.difftray/settings.json: "theme" is not used (Invalid option): its default applies. DiffTray is ' +
        'using the default settings for what it cannot read, and will not change what you wrote there ' +
        'until it is fixed.',
    );
  });

  it('does not name the file twice when main’s problem names it already', () => {
    const text = settingsFileNotice({
      path: '/h/s.json',
      problem: '/h/s.json is not valid JSON (Unexpected end of JSON input)',
    });
    expect(text?.startsWith('/h/s.json is not valid JSON (Unexpected end of JSON input). DiffTray')).toBe(
      true,
    );
  });
});

describe('the Settings view’s open state', () => {
  it('opens on the tray’s request, and only on that event', () => {
    useSettingsView.getState().hide();
    let listener: Parameters<Parameters<typeof openSettingsOnRequest>[0]['onState']>[0] = () => {};
    const stop = openSettingsOnRequest({
      onState: (callback) => {
        listener = callback;
        return () => {};
      },
    });
    listener({ show: { reviewId: 'r1' } });
    expect(useSettingsView.getState().open).toBe(false);
    listener({ open: 'settings' });
    expect(useSettingsView.getState().open).toBe(true);
    stop();
  });

  it('closes when the person chooses a review, not when one arrives', () => {
    useSettingsView.getState().show();
    useAppStore.getState().applySnapshot(snapshot({ version: 50 }));
    expect(useSettingsView.getState().open).toBe(true);
    useAppStore.getState().selectReview('r1');
    expect(useSettingsView.getState().open).toBe(false);
  });
});
