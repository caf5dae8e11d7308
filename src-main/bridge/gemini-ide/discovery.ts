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
 * Writes `<dir>/gemini-ide-server-<pid>-<port>.json`. The folder (`<tmp>/gemini/ide`) lives in the
 * shared temp folder, where another user could have made `<tmp>/gemini` first to swap in folders or
 * files of theirs: both it and `ide` must be real folders of this user that no one else may write
 * (checked before each write). A missing one is made 0755, as Gemini's own companion makes it; the
 * file is 0600.
 */
export function writeGeminiDiscoveryFile(dir: string, details: DiscoveryDetails): OwnedLockFile {
  const folders = [path.dirname(dir), dir];
  const check = () => {
    for (const folder of folders) checkSharedFolder(folder);
  };
  check();
  const file = path.join(dir, geminiDiscoveryFileName(details.pid ?? process.pid, details.port));
  return new OwnedLockFile(file, geminiDiscoveryContent(details), {
    staleRule: GEMINI_STALE_RULE,
    keepFolderMode: true,
    checkFolder: check,
  });
}

/**
 * Makes `folder` if missing (0755), then requires a real folder (not a link), owned by this user, not
 * writable by group or others. Throws with what is wrong and what to do.
 */
function checkSharedFolder(folder: string): void {
  try {
    mkdirSync(folder, { mode: 0o755 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(folder);
  const fix =
    `Gemini CLI is not told about DiffTray. Remove ${folder} (as its owner, or root) and restart ` +
    'DiffTray, or run DiffTray and Gemini CLI with TMPDIR set to a folder of your own.';
  if (!stat.isDirectory()) throw new Error(`${folder} is not a folder (a link or a file). ${fix}`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new Error(
      `${folder} belongs to another user (uid ${stat.uid}, not ${uid}), who could read or replace ` +
        `what DiffTray writes there. ${fix}`,
    );
  }
  if (process.platform !== 'win32' && (stat.mode & 0o022) !== 0) {
    throw new Error(
      `${folder} may be written by other users (mode ${(stat.mode & 0o777).toString(8)}), who could replace ` +
        `what DiffTray writes there. Gemini CLI is not told about DiffTray. Run: chmod go-w ${folder}`,
    );
  }
}

/** Writes `<dir>/<port>.lock` for Qwen Code: 0600 in a 0700 folder, like Claude Code's. */
export function writeQwenLockFile(dir: string, details: DiscoveryDetails): OwnedLockFile {
  return new OwnedLockFile(path.join(dir, `${details.port}.lock`), qwenLockContent(details), {
    staleRule: QWEN_STALE_RULE,
  });
}
