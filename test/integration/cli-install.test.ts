/**
 * The launcher "Install command line tool…" writes, run for real: written 0755 into a user folder, it
 * runs the built CLI (here with Node standing in for the app's executable, which ELECTRON_RUN_AS_NODE
 * leaves alone) and prints `difftray --version`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planCliInstall, writeLauncher, CliInstallError } from '../../src-main/desktop/cli-install';
import { BUILD_TIMEOUT_MS, buildMain, ROOT } from '../support/build';
import { makeTempDir } from '../support/temp';

const version = () =>
  (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe.skipIf(process.platform === 'win32')('the installed difftray launcher', () => {
  let temp: { dir: string; cleanup: () => void };
  beforeAll(() => {
    buildMain();
    temp = makeTempDir('cli-install');
  }, BUILD_TIMEOUT_MS);
  afterAll(() => temp?.cleanup());

  it('is written 0755 into ~/.local/bin and prints the version from any folder', () => {
    const home = temp.dir;
    const bin = path.join(home, '.local', 'bin');
    const plan = planCliInstall({
      platform: 'linux',
      home,
      env: { PATH: `${bin}:/usr/bin:/bin` },
      execPath: process.execPath,
      cliPath: path.join(ROOT, 'dist', 'main', 'cli.cjs'),
      exists: () => false,
    });
    if (plan.kind !== 'user-folder') throw new Error(`expected the user folder, got ${plan.kind}`);
    writeLauncher(plan.file, plan.script);
    expect(statSync(plan.file).mode & 0o777).toBe(0o755);

    const run = spawnSync('difftray', ['--version'], {
      cwd: '/',
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: home },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`${version()}\n`);

    // Installing again replaces DiffTray's own launcher.
    writeLauncher(plan.file, plan.script);
  });

  it('from an AppImage, runs the AppImage file and finds the CLI in its mount, past the --no-sandbox AppRun adds', () => {
    // A stand-in for the AppImage (which cannot be built here): it mounts nothing but sets APPDIR and, as
    // electron-builder's AppRun does, puts --no-sandbox first unless the arguments hold one already.
    const mount = path.join(temp.dir, 'mount');
    const unpacked = path.join(mount, 'resources', 'app.asar.unpacked', 'dist', 'main');
    mkdirSync(unpacked, { recursive: true });
    copyFileSync(path.join(ROOT, 'dist', 'main', 'cli.cjs'), path.join(unpacked, 'cli.cjs'));
    const appImage = path.join(temp.dir, 'DiffTray.AppImage');
    writeFileSync(
      appImage,
      [
        '#!/bin/bash',
        `export APPDIR=${JSON.stringify(mount)}`,
        'for arg in "$@"; do [ "$arg" = --no-sandbox ] && exec ' +
          JSON.stringify(process.execPath) +
          ' "$@"; done',
        `exec ${JSON.stringify(process.execPath)} --no-sandbox "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const home = path.join(temp.dir, 'appimage-home');
    const bin = path.join(home, '.local', 'bin');
    const plan = planCliInstall({
      platform: 'linux',
      home,
      env: { PATH: bin, APPIMAGE: appImage, APPDIR: '/tmp/.mount_DiffTrOld' },
      execPath: '/tmp/.mount_DiffTrOld/difftray',
      cliPath: '/tmp/.mount_DiffTrOld/resources/app.asar.unpacked/dist/main/cli.cjs',
      exists: () => false,
    });
    if (plan.kind !== 'user-folder') throw new Error(`expected the user folder, got ${plan.kind}`);
    const launcher = plan.file;
    writeLauncher(launcher, plan.script);
    const run = spawnSync(launcher, ['--version'], { env: { PATH: '/usr/bin:/bin' }, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`${version()}\n`);
  });

  it('leaves a difftray it did not write alone', () => {
    const file = path.join(temp.dir, 'other', 'difftray');
    writeLauncher(path.join(temp.dir, 'other', 'placeholder'), '#!/bin/sh\n# Installed by DiffTray\n');
    writeFileSync(file, '#!/bin/sh\necho npm link\n');
    expect(() => writeLauncher(file, 'new')).toThrow(CliInstallError);
    expect(readFileSync(file, 'utf8')).toBe('#!/bin/sh\necho npm link\n');
  });
});
