/**
 * How Gemini CLI and Qwen Code find DiffTray, as their own IdeClient code reads it.
 *
 * Gemini CLI (packages/core/src/ide/ide-connection-utils.ts) lists `<os.tmpdir()>/gemini/ide/` for
 * `gemini-ide-server-<pid>-<port>.json`, prefers the file whose pid is its IDE's (GEMINI_CLI_IDE_PID or
 * the process tree), keeps those whose `workspacePath` contains its cwd, and takes `ideInfo` from the
 * file as the IDE it runs in: with `ideInfo` present it needs no VS Code terminal.
 *
 * Qwen Code reads `${QWEN_HOME:-~/.qwen}/ide/<QWEN_CODE_IDE_SERVER_PORT>.lock` (its companion spec);
 * its detectIde also takes `ideInfo` from that file, so we write it there too.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { lockFileRule, OwnedLockFile, type StaleFileRule } from '../lock-files';

/** `name` is what Gemini CLI's detectIde returns; `displayName` is what `/ide status` shows. */
export const DIFFTRAY_IDE_INFO = { name: 'difftray', displayName: 'DiffTray' } as const;

const GEMINI_FILE_PATTERN = /^gemini-ide-server-(\d+)-(\d+)\.json$/;

export function geminiDiscoveryFileName(pid: number, port: number): string {
  return `gemini-ide-server-${pid}-${port}.json`;
}

/**
 * Gemini's files name their owner's pid and port; one of DiffTray's (its `ideInfo`) whose process is
 * gone only misleads the CLI. Other companions' files are theirs.
 */
export const GEMINI_STALE_RULE: StaleFileRule = {
  matches: (name) => GEMINI_FILE_PATTERN.test(name),
  ownerOf: (name, content) => {
    const ideInfo = (content as { ideInfo?: { displayName?: unknown } } | null)?.ideInfo;
    if (ideInfo?.displayName !== DIFFTRAY_IDE_INFO.displayName) return undefined;
    const [, pid, port] = GEMINI_FILE_PATTERN.exec(name)!;
    return { pid: Number(pid), port: Number(port) };
  },
};

/** Qwen Code's lock files name the IDE's process as `ppid`. */
export const QWEN_STALE_RULE: StaleFileRule = lockFileRule('ppid');

export interface DiscoveryDetails {
  port: number;
  authToken: string;
  workspaceFolders: readonly string[];
  pid?: number;
}

/** `workspacePath` is one string, the folders joined by the platform's path delimiter. */
function workspacePath(folders: readonly string[]): string {
  return folders.join(path.delimiter);
}

export function geminiDiscoveryContent(details: DiscoveryDetails) {
  return {
    port: details.port,
    workspacePath: workspacePath(details.workspaceFolders),
    authToken: details.authToken,
    ideInfo: { ...DIFFTRAY_IDE_INFO },
  };
}

export function qwenLockContent(details: DiscoveryDetails) {
  return {
    port: details.port,
    workspacePath: workspacePath(details.workspaceFolders),
    authToken: details.authToken,
    // "The IDE process": DiffTray itself.
    ppid: details.pid ?? process.pid,
    ideName: DIFFTRAY_IDE_INFO.displayName,
    ideInfo: { ...DIFFTRAY_IDE_INFO },
  };
}

/**
 * Writes `<dir>/gemini-ide-server-<pid>-<port>.json`. The folder lives in the shared temp folder, so it
 * must be a real folder owned by this user (not a link another user planted); its mode is left alone,
 * as Gemini's own companion leaves it, while the file is 0600.
 */
export function writeGeminiDiscoveryFile(dir: string, details: DiscoveryDetails): OwnedLockFile {
  mkdirSync(dir, { recursive: true });
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new Error(`${dir} is not a folder`);
  if (process.getuid && stat.uid !== process.getuid()) throw new Error(`${dir} belongs to another user`);
  const file = path.join(dir, geminiDiscoveryFileName(details.pid ?? process.pid, details.port));
  return new OwnedLockFile(file, geminiDiscoveryContent(details), {
    staleRule: GEMINI_STALE_RULE,
    keepFolderMode: true,
  });
}

/** Writes `<dir>/<port>.lock` for Qwen Code: 0600 in a 0700 folder, like Claude Code's. */
export function writeQwenLockFile(dir: string, details: DiscoveryDetails): OwnedLockFile {
  return new OwnedLockFile(path.join(dir, `${details.port}.lock`), qwenLockContent(details), {
    staleRule: QWEN_STALE_RULE,
  });
}
