/**
 * The folder Copilot CLI's socket lives in: DiffTray's own, made 0700 by mkdtemp so no other user can
 * even reach the socket. A DiffTray that crashed leaves its folder behind; the next one removes it with
 * the stale lock file that names it, and only when it is provably such a folder.
 */
import { lstatSync, mkdtempSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';

const FOLDER_PREFIX = 'difftray-';
/** mkdtemp's six random characters after the prefix. */
const FOLDER_NAME = /^difftray-[A-Za-z0-9]{6}$/;
const SOCKET_NAME = 'mcp.sock';

/** A new private folder in `parent` and the socket path inside it. */
export function makeSocketFolder(parent: string): { socketDir: string; socketPath: string } {
  const socketDir = mkdtempSync(path.join(parent, FOLDER_PREFIX));
  return { socketDir, socketPath: path.join(socketDir, SOCKET_NAME) };
}

/**
 * Removes the folder of `socketPath`, named in a stale lock file, when it is one DiffTray made: named as
 * makeSocketFolder names them, a real folder of this user with mode 0700, holding nothing but a socket.
 * A lock file may name any path; anything else is left alone. Answers whether it was removed.
 */
export function removeSocketFolder(socketPath: unknown): boolean {
  if (typeof socketPath !== 'string' || !path.isAbsolute(socketPath)) return false;
  const socketDir = path.dirname(socketPath);
  if (path.basename(socketPath) !== SOCKET_NAME || !FOLDER_NAME.test(path.basename(socketDir))) return false;
  try {
    const folder = lstatSync(socketDir);
    const mine = process.getuid === undefined || folder.uid === process.getuid();
    if (!folder.isDirectory() || !mine || (folder.mode & 0o777) !== 0o700) return false;
    const names = readdirSync(socketDir);
    if (names.some((name) => name !== SOCKET_NAME)) return false;
    if (names.length === 1) {
      if (!lstatSync(socketPath).isSocket()) return false;
      unlinkSync(socketPath);
    }
    rmdirSync(socketDir);
    return true;
  } catch {
    return false;
  }
}
