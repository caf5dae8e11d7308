/** Where "Install command line tool…" puts `difftray`, and what it runs, per platform. */
import { describe, expect, it } from 'vitest';
import {
  addToUserPath,
  cliEntryPath,
  installedMessage,
  planCliInstall,
  posixLauncher,
  type CliInstallContext,
} from '../../../src-main/desktop/cli-install';

const macApp = '/Applications/DiffTray.app/Contents';
const mac: CliInstallContext = {
  platform: 'darwin',
  home: '/Users/ann',
  env: { PATH: '/usr/bin:/bin:/usr/local/bin' },
  execPath: `${macApp}/MacOS/DiffTray`,
  cliPath: cliEntryPath({
    packaged: true,
    resourcesPath: `${macApp}/Resources`,
    mainBundleDir: `${macApp}/Resources/app.asar/dist/main`,
  }),
  exists: () => false,
};

describe('cliEntryPath', () => {
  it('packaged: unpacked beside app.asar; from a checkout: beside the main bundle', () => {
    expect(mac.cliPath).toBe(`${macApp}/Resources/app.asar.unpacked/dist/main/cli.cjs`);
    expect(
      cliEntryPath({ packaged: false, resourcesPath: '/x', mainBundleDir: '/home/ann/difftray/dist/main' }),
    ).toBe('/home/ann/difftray/dist/main/cli.cjs');
  });
});

describe('planCliInstall on macOS and Linux', () => {
  it('uses ~/.local/bin when it is on PATH (created if need be), no prompt', () => {
    const plan = planCliInstall({ ...mac, env: { PATH: '/usr/bin:/Users/ann/.local/bin/' } });
    expect(plan).toMatchObject({ kind: 'user-folder', file: '/Users/ann/.local/bin/difftray', onPath: true });
  });

  it('uses ~/.local/bin when it exists though not on PATH, and says so', () => {
    const plan = planCliInstall({ ...mac, exists: (file) => file === '/Users/ann/.local/bin' });
    expect(plan).toMatchObject({
      kind: 'user-folder',
      file: '/Users/ann/.local/bin/difftray',
      onPath: false,
    });
  });

  it('else /usr/local/bin through the macOS administrator prompt', () => {
    const plan = planCliInstall(mac);
    if (plan.kind !== 'elevated') throw new Error(`expected elevation, got ${plan.kind}`);
    expect(plan.file).toBe('/usr/local/bin/difftray');
    expect(plan.elevate('/tmp/difftray-launcher')).toEqual([
      'osascript',
      '-e',
      'do shell script "mkdir -p \\"/usr/local/bin\\" && install -m 0755 \\"/tmp/difftray-launcher\\" \\"/usr/local/bin/difftray\\"" with administrator privileges',
    ]);
  });

  it('else /usr/local/bin through pkexec on Linux', () => {
    const plan = planCliInstall({ ...mac, platform: 'linux', home: '/home/ann' });
    if (plan.kind !== 'elevated') throw new Error(`expected elevation, got ${plan.kind}`);
    expect(plan.elevate("/tmp/it's here")).toEqual([
      'pkexec',
      '/bin/sh',
      '-c',
      `mkdir -p "/usr/local/bin" && install -m 0755 "/tmp/it's here" "/usr/local/bin/difftray"`,
    ]);
  });

  it('the launcher runs the bundled CLI with the app executable in Node mode', () => {
    expect(posixLauncher(mac)).toBe(
      [
        '#!/bin/sh',
        '# Installed by DiffTray: the difftray command, run by the app in Node mode.',
        'ELECTRON_RUN_AS_NODE=1',
        'export ELECTRON_RUN_AS_NODE',
        `exec "${macApp}/MacOS/DiffTray" "${macApp}/Resources/app.asar.unpacked/dist/main/cli.cjs" "$@"`,
        '',
      ].join('\n'),
    );
  });

  it('an AppImage launcher runs the AppImage file, finding the CLI in its current mount', () => {
    const mount = '/tmp/.mount_DiffTrX1';
    const script = posixLauncher({
      execPath: `${mount}/difftray`,
      cliPath: `${mount}/resources/app.asar.unpacked/dist/main/cli.cjs`,
      env: { APPIMAGE: '/home/ann/Apps/DiffTray.AppImage', APPDIR: mount },
    });
    expect(script).toContain(`exec "/home/ann/Apps/DiffTray.AppImage" "-e" `);
    expect(script).toContain(`process.env.APPDIR, "resources/app.asar.unpacked/dist/main/cli.cjs"`);
    expect(script).not.toContain(mount);
    // AppRun adds --no-sandbox unless there is one; Node mode would refuse it as an option.
    expect(script).toMatch(/ "--" "--no-sandbox" "\$@"\n$/);
  });
});

describe('planCliInstall on Windows', () => {
  const win: CliInstallContext = {
    platform: 'win32',
    home: 'C:\\Users\\ann',
    env: { LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local', PATH: 'C:\\Windows\\system32' },
    execPath: 'C:\\Users\\ann\\AppData\\Local\\Programs\\DiffTray\\DiffTray.exe',
    cliPath:
      'C:\\Users\\ann\\AppData\\Local\\Programs\\DiffTray\\resources\\app.asar.unpacked\\dist\\main\\cli.cjs',
    exists: () => false,
  };

  it('a difftray.cmd in the user folder, added to the user PATH', () => {
    const plan = planCliInstall(win);
    expect(plan).toEqual({
      kind: 'windows',
      file: 'C:\\Users\\ann\\AppData\\Local\\DiffTray\\bin\\difftray.cmd',
      script: [
        '@echo off',
        'rem Installed by DiffTray: the difftray command, run by the app in Node mode.',
        'setlocal',
        'set ELECTRON_RUN_AS_NODE=1',
        `"${win.execPath}" "${win.cliPath}" %*`,
        '',
      ].join('\r\n'),
      addToPath: addToUserPath('C:\\Users\\ann\\AppData\\Local\\DiffTray\\bin'),
    });
  });

  it('PATH is changed only when the folder is not on it (any case, trailing slash)', () => {
    const plan = planCliInstall({
      ...win,
      env: { ...win.env, PATH: 'C:\\Windows;c:\\users\\ann\\appdata\\local\\difftray\\bin\\' },
    });
    expect(plan).toMatchObject({ kind: 'windows', addToPath: null });
  });

  it('falls back to AppData\\Local under the home folder', () => {
    expect(planCliInstall({ ...win, env: {} }).file).toBe(
      'C:\\Users\\ann\\AppData\\Local\\DiffTray\\bin\\difftray.cmd',
    );
  });

  it('adds to the user PATH with PowerShell (setx would cut it at 1024 characters), quoting the folder', () => {
    const [program, ...args] = addToUserPath("C:\\Users\\o'neil\\bin");
    expect(program).toBe('powershell.exe');
    expect(args.slice(0, 3)).toEqual(['-NoProfile', '-NonInteractive', '-Command']);
    expect(args[3]).toContain("$dir = 'C:\\Users\\o''neil\\bin';");
    expect(args[3]).toContain("[Environment]::SetEnvironmentVariable('Path'");
    expect(args[3]).toContain('-contains $dir');
  });
});

describe('installedMessage', () => {
  it('says where, and how to put a folder not on PATH on it', () => {
    const plan = planCliInstall({ ...mac, exists: (file) => file === '/Users/ann/.local/bin' });
    expect(installedMessage(plan).detail).toContain('export PATH="/Users/ann/.local/bin:$PATH"');
    expect(installedMessage(planCliInstall(mac))).toEqual({
      message: 'The difftray command is installed',
      detail: '/usr/local/bin/difftray. Run `difftray --help` in a terminal.',
    });
  });
});
