/**
 * Start at login kept as one thing with the launchAtLogin setting, on Linux's real autostart entry in a
 * temp folder. `updateSettings` stands for core's settings store: it keeps the patch and sends the
 * settings back through the stream, as the store's change does.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_APP_SETTINGS, type AppSettings, type AppSettingsPatch } from '../../../shared/app-settings';
import {
  applyAutostartFile,
  autostartEnabled,
  autostartFile,
  loginItemPlan,
  type LoginItemContext,
} from '../../../src-main/desktop/login-items';
import { SettingsFollower } from '../../../src-main/desktop/settings-follower';
import { makeTempDir } from '../../support/temp';

describe('SettingsFollower', () => {
  let temp: { dir: string; cleanup: () => void } | undefined;
  afterEach(() => temp?.cleanup());

  function setUp(options: { stored?: Partial<AppSettings>; refuse?: string; loginItemOn?: boolean } = {}) {
    temp = makeTempDir('settings-follower');
    const context: LoginItemContext = {
      platform: 'linux',
      execPath: '/opt/DiffTray/difftray',
      env: {},
      home: temp.dir,
    };
    const entry = autostartFile(context);
    if (options.loginItemOn)
      applyAutostartFile(loginItemPlan(true, context) as { file: string; contents: string });
    let stored: AppSettings = { ...DEFAULT_APP_SETTINGS, ...options.stored };
    const patches: AppSettingsPatch[] = [];
    const warnings: string[] = [];
    let trayRedrawn = 0;
    const follower: SettingsFollower = new SettingsFollower({
      loginItem: {
        read: () => autostartEnabled(entry),
        write: (on) =>
          applyAutostartFile(loginItemPlan(on, context) as { file: string; contents: string | null }),
      },
      updateSettings: (patch) => {
        patches.push(patch);
        if (options.refuse) return Promise.reject(new Error(options.refuse));
        stored = { ...stored, ...patch } as AppSettings;
        follower.follow(stored);
        return Promise.resolve(stored);
      },
      loginItemChanged: () => trayRedrawn++,
      warn: (message) => warnings.push(message),
    });
    return {
      follower,
      entry,
      patches,
      warnings,
      trayRedrawn: () => trayRedrawn,
      setStored: (changes: Partial<AppSettings>) => {
        stored = { ...stored, ...changes };
        follower.follow(stored);
      },
      stored: () => stored,
    };
  }

  it('uses the default notifications until core sends settings, then the ones sent', () => {
    const { follower, setStored } = setUp();
    follower.follow(undefined);
    expect(follower.settings.notifications).toEqual({ enabled: true, sound: false });
    setStored({ notifications: { enabled: false, sound: true } });
    expect(follower.settings.notifications).toEqual({ enabled: false, sound: true });
  });

  it('writes the autostart entry when the setting is turned on, and removes it when turned off', () => {
    const { follower, entry, setStored, trayRedrawn } = setUp();
    follower.follow(DEFAULT_APP_SETTINGS);
    expect(existsSync(entry)).toBe(false);
    setStored({ launchAtLogin: true });
    expect(readFileSync(entry, 'utf8')).toMatch(/^Exec=".+" --hidden$/m);
    expect(follower.openAtLogin).toBe(true);
    expect(trayRedrawn()).toBe(1);
    setStored({ launchAtLogin: false });
    expect(existsSync(entry)).toBe(false);
    expect(follower.openAtLogin).toBe(false);
  });

  it("the tray's item changes the setting, and the entry follows the setting's change", async () => {
    const { follower, entry, patches, stored } = setUp();
    follower.follow(stored());
    await follower.toggleOpenAtLogin();
    expect(patches).toEqual([{ launchAtLogin: true }]);
    expect(stored().launchAtLogin).toBe(true);
    expect(existsSync(entry)).toBe(true);
    await follower.toggleOpenAtLogin();
    expect(patches).toEqual([{ launchAtLogin: true }, { launchAtLogin: false }]);
    expect(existsSync(entry)).toBe(false);
  });

  it('refused (settings.json cannot be used), the tray item says why and the system is left as it was', async () => {
    const { follower, entry, stored } = setUp({ refuse: 'settings.json is not a JSON object' });
    follower.follow(stored());
    await expect(follower.toggleOpenAtLogin()).rejects.toThrow('settings.json is not a JSON object');
    expect(existsSync(entry)).toBe(false);
    expect(follower.openAtLogin).toBe(false);
  });

  it('at start, an entry the person left in place is recorded in the setting, not removed', async () => {
    const { follower, entry, patches, stored } = setUp({ loginItemOn: true });
    expect(follower.openAtLogin).toBe(true);
    follower.follow(stored());
    expect(patches).toEqual([{ launchAtLogin: true }]);
    expect(stored().launchAtLogin).toBe(true);
    expect(existsSync(entry)).toBe(true);
  });

  it('at start, a refused record is only warned about, and the entry stays', async () => {
    const { follower, entry, warnings, stored } = setUp({ loginItemOn: true, refuse: 'not writable' });
    follower.follow(stored());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(warnings).toEqual(['Start at login was not recorded: not writable']);
    expect(existsSync(entry)).toBe(true);
  });

  it('a failed write is warned about and the tray shows the system as it is', () => {
    const { follower, warnings, setStored, stored } = setUp();
    follower.follow(stored());
    // The autostart folder's place is taken by a file: the entry cannot be written.
    applyAutostartFile({ file: path.join(temp!.dir, '.config'), contents: 'in the way' });
    setStored({ launchAtLogin: true });
    expect(warnings[0]).toMatch(/^Start at login could not be changed: /);
    expect(follower.openAtLogin).toBe(false);
  });
});
