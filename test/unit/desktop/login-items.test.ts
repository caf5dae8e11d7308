/** "Start at login" per platform: Electron's settings on macOS and Windows, an autostart entry on Linux. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  applyAutostartFile,
  autostartEnabled,
  autostartEntry,
  desktopExecArgument,
  loginItemPlan,
  loginItemQuery,
  type LoginItemContext,
} from '../../../src-main/desktop/login-items';
import { makeTempDir } from '../../support/temp';

const linux: LoginItemContext = {
  platform: 'linux',
  execPath: '/opt/DiffTray/difftray',
  env: {},
  home: '/home/ann',
};

describe('loginItemPlan', () => {
  it('macOS: Electron login item, opened hidden', () => {
    expect(
      loginItemPlan(true, {
        ...linux,
        platform: 'darwin',
        execPath: '/Applications/DiffTray.app/Contents/MacOS/DiffTray',
      }),
    ).toEqual({
      kind: 'electron',
      settings: { openAtLogin: true, openAsHidden: true },
    });
    expect(loginItemPlan(false, { ...linux, platform: 'darwin' })).toEqual({
      kind: 'electron',
      settings: { openAtLogin: false, openAsHidden: true },
    });
  });

  it('Windows: the Run entry names the executable and --hidden', () => {
    const execPath = 'C:\\Users\\ann\\AppData\\Local\\Programs\\DiffTray\\DiffTray.exe';
    expect(loginItemPlan(true, { ...linux, platform: 'win32', execPath })).toEqual({
      kind: 'electron',
      settings: { openAtLogin: true, path: execPath, args: ['--hidden'] },
    });
  });

  it('Windows: the entry is read back by the same executable and arguments (else it reads as off)', () => {
    const windows = { ...linux, platform: 'win32' as const, execPath: 'C:\\DiffTray\\DiffTray.exe' };
    const plan = loginItemPlan(true, windows);
    const written = plan.kind === 'electron' ? plan.settings : undefined;
    expect(loginItemQuery(windows)).toEqual({ path: written?.path, args: written?.args });
    expect(loginItemQuery({ ...windows, platform: 'darwin' })).toBeUndefined();
    expect(loginItemQuery(linux)).toBeUndefined();
  });

  it('Linux: ~/.config/autostart/difftray.desktop starting the executable hidden', () => {
    expect(loginItemPlan(true, linux)).toEqual({
      kind: 'autostart-file',
      file: '/home/ann/.config/autostart/difftray.desktop',
      contents: [
        '[Desktop Entry]',
        'Type=Application',
        'Name=DiffTray',
        "Comment=Review coding agents' proposed edits",
        'Exec="/opt/DiffTray/difftray" --hidden',
        'Icon=difftray',
        'Terminal=false',
        'X-GNOME-Autostart-enabled=true',
        '',
      ].join('\n'),
    });
  });

  it('Linux: under XDG_CONFIG_HOME when it is set (and absolute), pointing at the AppImage file', () => {
    const plan = loginItemPlan(true, {
      ...linux,
      env: { XDG_CONFIG_HOME: '/home/ann/cfg', APPIMAGE: '/home/ann/Apps/DiffTray-0.1.0.AppImage' },
      execPath: '/tmp/.mount_DiffTrAbc/difftray',
    });
    expect(plan).toMatchObject({ file: '/home/ann/cfg/autostart/difftray.desktop' });
    expect(plan.kind === 'autostart-file' && plan.contents).toContain(
      'Exec="/home/ann/Apps/DiffTray-0.1.0.AppImage" --hidden',
    );
    expect(loginItemPlan(true, { ...linux, env: { XDG_CONFIG_HOME: 'relative/cfg' } })).toMatchObject({
      file: '/home/ann/.config/autostart/difftray.desktop',
    });
  });

  it('Linux: turning it off removes the entry', () => {
    expect(loginItemPlan(false, linux)).toEqual({
      kind: 'autostart-file',
      file: '/home/ann/.config/autostart/difftray.desktop',
      contents: null,
    });
  });
});

describe('desktopExecArgument', () => {
  it('quotes, escapes the reserved characters, and doubles % and backslashes for the string escape', () => {
    expect(desktopExecArgument('/opt/Diff Tray/app')).toBe('"/opt/Diff Tray/app"');
    expect(desktopExecArgument('/a/"b"/$c/`d`')).toBe('"/a/\\\\"b\\\\"/\\\\$c/\\\\`d\\\\`"');
    expect(desktopExecArgument('/a\\b')).toBe('"/a\\\\\\\\b"');
    expect(desktopExecArgument('/100%/app')).toBe('"/100%%/app"');
  });

  it('is what the entry holds', () => {
    expect(autostartEntry('/x y/app')).toContain('Exec="/x y/app" --hidden\n');
  });
});

describe('applyAutostartFile', () => {
  let temp: { dir: string; cleanup: () => void } | undefined;
  afterEach(() => temp?.cleanup());

  it('writes the entry (creating the autostart folder) and removes it again', () => {
    temp = makeTempDir('autostart');
    const context = { ...linux, home: temp.dir, env: {} };
    const on = loginItemPlan(true, context);
    if (on.kind !== 'autostart-file') throw new Error('expected an autostart file');
    expect(autostartEnabled(on.file)).toBe(false);
    applyAutostartFile(on);
    expect(on.file).toBe(path.join(temp.dir, '.config', 'autostart', 'difftray.desktop'));
    expect(readFileSync(on.file, 'utf8')).toBe(on.contents);
    if (process.platform !== 'win32') expect(statSync(on.file).mode & 0o777).toBe(0o644);
    expect(autostartEnabled(on.file)).toBe(true);

    const off = loginItemPlan(false, context);
    if (off.kind !== 'autostart-file') throw new Error('expected an autostart file');
    applyAutostartFile(off);
    expect(existsSync(on.file)).toBe(false);
    // Removing what is not there is fine.
    applyAutostartFile(off);
  });
});
