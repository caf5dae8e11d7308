/**
 * Where Copilot CLI's socket lives. On Unix, in a folder of DiffTray's own, made 0700 by mkdtemp so no
 * other user can even reach the socket; a DiffTray that crashed leaves its folder behind, and the next
 * one removes it with the stale lock file that names it, only when it is provably such a folder. On
 * Windows, a named pipe with an unguessable name, as Copilot CLI's own IDE servers use
 * (`\\.\pipe\mcp-<id>`): it has no folder and goes away with its process.
 */
import { randomUUID } from 'node:crypto';
import { lstatSync, mkdtempSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';

const FOLDER_PREFIX = 'difftray-';
/** mkdtemp's six random characters after the prefix. */
const FOLDER_NAME = /^difftray-[A-Za-z0-9]{6}$/;
const SOCKET_NAME = 'mcp.sock';

/** A new private folder in `parent` and the socket path inside it; on Windows, a new pipe name. */
export function makeSocketFolder(
  parent: string,
  platform: NodeJS.Platform = process.platform,
): { socketDir?: string; socketPath: string } {
  if (platform === 'win32') return { socketPath: `\\\\.\\pipe\\difftray-mcp-${randomUUID()}` };
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
