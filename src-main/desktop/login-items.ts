/**
 * "Start at login", per platform: macOS and Windows through Electron's app.setLoginItemSettings; Linux
 * through an XDG autostart entry (~/.config/autostart/difftray.desktop), which Electron does not write.
 * Started at login, DiffTray starts hidden in the tray (`--hidden`).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DesktopPlatform } from './tray-model';

/** The argument that starts DiffTray in the tray, without showing its window. */
export const HIDDEN_ARG = '--hidden';
export const AUTOSTART_FILE_NAME = 'difftray.desktop';

export interface LoginItemContext {
  platform: DesktopPlatform;
  /** The running executable (process.execPath). */
  execPath: string;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

export type LoginItemPlan =
  | {
      kind: 'electron';
      /** The argument to app.setLoginItemSettings. */
      settings: { openAtLogin: boolean; openAsHidden?: boolean; path?: string; args?: string[] };
    }
  | {
      kind: 'autostart-file';
      file: string;
      /** The entry's text, or null to remove it. */
      contents: string | null;
    };

export function loginItemPlan(openAtLogin: boolean, context: LoginItemContext): LoginItemPlan {
  switch (context.platform) {
    case 'darwin':
      // openAsHidden is honoured up to macOS 12; later, main.ts sees wasOpenedAtLogin instead.
      return { kind: 'electron', settings: { openAtLogin, openAsHidden: true } };
    case 'win32':
      // The Run key entry names the executable and its arguments: the login start says it is one.
      return { kind: 'electron', settings: { openAtLogin, path: context.execPath, args: [HIDDEN_ARG] } };
    case 'linux':
      return {
        kind: 'autostart-file',
        file: autostartFile(context),
        contents: openAtLogin ? autostartEntry(linuxExecutable(context)) : null,
      };
  }
}

/**
 * What app.getLoginItemSettings must be given to read back the item loginItemPlan wrote: on Windows the
 * Run key entry is found by its executable and arguments, so without them it reads as off.
 */
export function loginItemQuery(context: LoginItemContext): { path: string; args: string[] } | undefined {
  return context.platform === 'win32' ? { path: context.execPath, args: [HIDDEN_ARG] } : undefined;
}

/** `$XDG_CONFIG_HOME/autostart/difftray.desktop`, or under `~/.config` when XDG_CONFIG_HOME is unset. */
export function autostartFile(context: Pick<LoginItemContext, 'env' | 'home'>): string {
  const configured = context.env.XDG_CONFIG_HOME;
  // The XDG spec ignores a relative XDG_CONFIG_HOME.
  const configHome =
    configured && path.posix.isAbsolute(configured) ? configured : path.posix.join(context.home, '.config');
  return path.posix.join(configHome, 'autostart', AUTOSTART_FILE_NAME);
}

/** An AppImage runs from a mount that changes each start: its own file (APPIMAGE) stays put. */
export function linuxExecutable(context: Pick<LoginItemContext, 'env' | 'execPath'>): string {
  return context.env.APPIMAGE || context.execPath;
}

export function autostartEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=DiffTray',
    "Comment=Review coding agents' proposed edits",
    `Exec=${desktopExecArgument(executable)} ${HIDDEN_ARG}`,
    'Icon=difftray',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * One argument of a desktop entry's Exec key: quoted, with `"`, `` ` ``, `$` and `\` escaped inside the
 * quotes, then backslashes doubled again (the string escape applies first), and `%` doubled (field codes).
 */
export function desktopExecArgument(argument: string): string {
  const quoted = `"${argument.replace(/(["`$\\])/g, '\\$1')}"`;
  return quoted.replace(/\\/g, '\\\\').replace(/%/g, '%%');
}

/** Writes or removes the Linux autostart entry as planned. */
export function applyAutostartFile(plan: { file: string; contents: string | null }): void {
  if (plan.contents === null) {
    rmSync(plan.file, { force: true });
    return;
  }
  mkdirSync(path.dirname(plan.file), { recursive: true });
  writeFileSync(plan.file, plan.contents, { mode: 0o644 });
}

/** Whether the Linux autostart entry is there (what the menu's check box shows). */
export function autostartEnabled(file: string): boolean {
  return existsSync(file);
}
