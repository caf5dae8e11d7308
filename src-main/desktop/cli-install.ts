/**
 * "Install command line tool…" (like VS Code's "Install 'code' command in PATH"): a small `difftray`
 * launcher in a folder on PATH that runs the app's bundled CLI (dist/main/cli.cjs) with the app's own
 * Electron executable in Node mode (ELECTRON_RUN_AS_NODE=1), so no Node install is needed.
 *
 * Where it goes: macOS/Linux `~/.local/bin` when it exists or is on PATH, else `/usr/local/bin`, written
 * with the OS's administrator prompt (osascript on macOS, pkexec on Linux); Windows a `difftray.cmd` in
 * a user folder that is added to the user PATH. Everything here plans; main.ts runs the plan.
 */
import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appImageCliArgs } from '../core/setup/app-image';
import { shellQuote } from '../core/setup/claude-hook-command';
import type { DesktopPlatform } from './tray-model';
import { readRegularFile } from '../core/disk/regular-file';

/** Every launcher DiffTray writes carries this line; any other `difftray` found there is not replaced. */
export const LAUNCHER_MARK = 'Installed by DiffTray';
export const SYSTEM_BIN = '/usr/local/bin';

export interface CliInstallContext {
  platform: DesktopPlatform;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The app's executable (process.execPath). */
  execPath: string;
  /** The bundled CLI, absolute (cliEntryPath). */
  cliPath: string;
  exists: (file: string) => boolean;
}

export type CliInstallPlan =
  | {
      kind: 'user-folder';
      file: string;
      script: string;
      /** False when the folder exists but is not on PATH: the person is told to add it. */
      onPath: boolean;
    }
  | {
      kind: 'elevated';
      file: string;
      script: string;
      /** The command asking for the administrator's password, as argv; `<launcher>` is where the script was staged. */
      elevate: (staged: string) => string[];
    }
  | {
      kind: 'windows';
      file: string;
      script: string;
      /** A command (argv) adding the folder to the user PATH, when not there yet; null when it is. */
      addToPath: string[] | null;
    };

/**
 * Where the bundled CLI is. Packaged, it is unpacked beside app.asar (electron-builder.yml asarUnpack):
 * a real file that any process can read. From a checkout, it is beside the main bundle in dist/main/.
 */
export function cliEntryPath(options: {
  packaged: boolean;
  resourcesPath: string;
  mainBundleDir: string;
}): string {
  return options.packaged
    ? path.join(options.resourcesPath, 'app.asar.unpacked', 'dist', 'main', 'cli.cjs')
    : path.join(options.mainBundleDir, 'cli.cjs');
}

export function planCliInstall(context: CliInstallContext): CliInstallPlan {
  if (context.platform === 'win32') return planWindows(context);
  const script = posixLauncher(context);
  const userBin = path.posix.join(context.home, '.local', 'bin');
  const onPath = pathEntries(context.env.PATH, ':').includes(userBin);
  if (onPath || context.exists(userBin)) {
    return { kind: 'user-folder', file: path.posix.join(userBin, 'difftray'), script, onPath };
  }
  const file = path.posix.join(SYSTEM_BIN, 'difftray');
  const install = `mkdir -p ${shellQuote(SYSTEM_BIN)} && install -m 0755 `;
  return {
    kind: 'elevated',
    file,
    script,
    elevate: (staged) => {
      const command = `${install}${shellQuote(staged)} ${shellQuote(file)}`;
      return context.platform === 'darwin'
        ? ['osascript', '-e', `do shell script ${appleScriptString(command)} with administrator privileges`]
        : ['pkexec', '/bin/sh', '-c', command];
    },
  };
}

/**
 * The AppImage's AppRun puts `--no-sandbox` before the arguments unless one is already there, which Node
 * mode refuses as an option. So one is passed after `--` (ending Node's options), and the loader puts the
 * CLI's path in its place in argv.
 */

/** The POSIX launcher. An AppImage's files live in a mount made anew each start: found through APPDIR. */
export function posixLauncher(context: Pick<CliInstallContext, 'env' | 'execPath' | 'cliPath'>): string {
  const appImage = context.env.APPIMAGE;
  const run = appImage
    ? `exec ${[appImage, ...appImageCliArgs(context.cliPath, context.env.APPDIR)].map(shellQuote).join(' ')} "$@"`
    : `exec ${shellQuote(context.execPath)} ${shellQuote(context.cliPath)} "$@"`;
  return [
    '#!/bin/sh',
    `# ${LAUNCHER_MARK}: the difftray command, run by the app in Node mode.`,
    'ELECTRON_RUN_AS_NODE=1',
    'export ELECTRON_RUN_AS_NODE',
    run,
    '',
  ].join('\n');
}

function planWindows(context: CliInstallContext): CliInstallPlan {
  const base = context.env.LOCALAPPDATA || path.win32.join(context.home, 'AppData', 'Local');
  const dir = path.win32.join(base, 'DiffTray', 'bin');
  const onPath = pathEntries(context.env.PATH, ';').some(
    (entry) => entry.toLowerCase() === dir.toLowerCase(),
  );
  return {
    kind: 'windows',
    file: path.win32.join(dir, 'difftray.cmd'),
    script: windowsLauncher(context),
    addToPath: onPath ? null : addToUserPath(dir),
  };
}

export function windowsLauncher(context: Pick<CliInstallContext, 'execPath' | 'cliPath'>): string {
  return [
    '@echo off',
    `rem ${LAUNCHER_MARK}: the difftray command, run by the app in Node mode.`,
    'setlocal',
    'set ELECTRON_RUN_AS_NODE=1',
    `"${context.execPath}" "${context.cliPath}" %*`,
    '',
  ].join('\r\n');
}

/**
 * PowerShell, not setx: setx cuts PATH at 1024 characters. SetEnvironmentVariable writes HKCU\Environment
 * and tells running programs (Explorer, so new terminals) that it changed; it is not added twice.
 */
export function addToUserPath(dir: string): string[] {
  const literal = `'${dir.replace(/'/g, "''")}'`;
  const script =
    `$dir = ${literal}; $path = [Environment]::GetEnvironmentVariable('Path', 'User'); ` +
    `if (-not (($path -split ';') -contains $dir)) { ` +
    `[Environment]::SetEnvironmentVariable('Path', ((@($path, $dir) | Where-Object { $_ }) -join ';'), 'User') }`;
  return ['powershell.exe', '-NoProfile', '-NonInteractive', '-Command', script];
}

function pathEntries(value: string | undefined, separator: string): string[] {
  return (value ?? '')
    .split(separator)
    .map((entry) => entry.replace(/[\\/]+$/, ''))
    .filter(Boolean);
}

function appleScriptString(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}

export class CliInstallError extends Error {}

/**
 * Writes the launcher where no elevation is needed (the user folder, or Windows' user folder), executable
 * (0755). A `difftray` there that DiffTray did not write (an npm link, say) is left alone.
 */
export function writeLauncher(file: string, script: string): void {
  if (existsSync(file) && !readRegularFile(file).includes(LAUNCHER_MARK)) {
    throw new CliInstallError(`${file} exists and was not installed by DiffTray; remove it first`);
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const staged = `${file}.${process.pid}.tmp`;
  writeFileSync(staged, script, { mode: 0o755 });
  // The mode given to writeFileSync is masked by the umask.
  chmodSync(staged, 0o755);
  renameSync(staged, file);
}

/** What the person is told once it is installed: where, and what to do if the folder is not on PATH. */
export function installedMessage(plan: CliInstallPlan): { message: string; detail: string } {
  const message = 'The difftray command is installed';
  const folder = plan.kind === 'windows' ? path.win32.dirname(plan.file) : path.posix.dirname(plan.file);
  if (plan.kind === 'user-folder' && !plan.onPath) {
    return {
      message,
      detail: `It is in ${folder}, which is not on your PATH yet. Add it in your shell's profile (export PATH="${folder}:$PATH"), then run \`difftray --help\` in a new terminal.`,
    };
  }
  const terminal = plan.kind === 'windows' ? 'a new terminal (your PATH changed)' : 'a terminal';
  return { message, detail: `${plan.file}. Run \`difftray --help\` in ${terminal}.` };
}
