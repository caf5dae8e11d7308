/**
 * The launcher "Install command line tool…" writes, run for real: written 0755 into a user folder, it
 * runs the built CLI (here with Node standing in for the app's executable, which ELECTRON_RUN_AS_NODE
 * leaves alone) and prints `difftray --version`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentHookCommand } from '../../src-main/core/setup/claude-hook-command';
import { planCliInstall, writeLauncher, CliInstallError } from '../../src-main/desktop/cli-install';
import { appImageStandIn, OLD_MOUNT, OLD_MOUNT_CLI } from '../support/appimage-stand-in';
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
    const { appImage } = appImageStandIn(temp.dir);
    const home = path.join(temp.dir, 'appimage-home');
    const bin = path.join(home, '.local', 'bin');
    const plan = planCliInstall({
      platform: 'linux',
      home,
      env: { PATH: bin, APPIMAGE: appImage, APPDIR: OLD_MOUNT },
      execPath: `${OLD_MOUNT}/difftray`,
      cliPath: OLD_MOUNT_CLI,
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

  it('the Claude Code hook command set up from an AppImage runs the CLI from the mount of the day', () => {
    const { appImage } = appImageStandIn(path.join(temp.dir, 'hook'));
    const command = currentHookCommand(OLD_MOUNT_CLI, { APPIMAGE: appImage, APPDIR: OLD_MOUNT }, true);
    expect(command).toMatch(/^ELECTRON_RUN_AS_NODE=1 "[^"]*DiffTray\.AppImage" "-e" /);
    // As Claude Code runs it: through a shell, the tool call on stdin. With no DiffTray running, the CLI
    // (found in the current mount) answers nothing and says why; a stale cli.cjs path would not start.
    const run = spawnSync('bash', ['-c', command], {
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
      }),
      env: {
        PATH: '/usr/bin:/bin',
        HOME: path.join(temp.dir, 'hook'),
        DIFFTRAY_HOME: path.join(temp.dir, 'hook', 'none'),
      },
      encoding: 'utf8',
    });
    expect(run.stderr).toMatch(/^difftray hook: no decision \(DiffTray is not running/);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
  });
});
