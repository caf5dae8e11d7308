/**
 * Clio's discovery file, `~/.clio/ide/bridge.json`: one fixed name for everyone (editor extensions,
 * other DiffTray instances), so it is claimed with care. It is replaced only when its owner is gone
 * (dead pid) or is this very process, and removed on close only while it still names us.
 */
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive, writeFileAtomically } from '../lock-files';

export function clioBridgeFile(home = os.homedir()): string {
  return path.join(home, '.clio', 'ide', 'bridge.json');
}

export interface ClioBridgeInfo {
  port: number;
  pid: number;
  ideName: string;
  workspaceFolders: string[];
  /** Milliseconds since the epoch, as the Clio VS Code extension writes it. */
  timestamp: number;
  /** DiffTray addition: required on every connection (header or `connect` message). */
  authToken: string;
}

function readOwner(file: string): { pid?: unknown; port?: unknown } | undefined {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * Writes `info` to `file` unless a live process other than us owns it. Returns whether it was written,
 * and if not, the pid that keeps it.
 */
export function claimBridgeFile(
  file: string,
  info: ClioBridgeInfo,
): { written: true } | { written: false; ownerPid: number } {
  const owner = readOwner(file);
  const pid = owner?.pid;
  if (typeof pid === 'number' && pid !== process.pid && isProcessAlive(pid)) {
    return { written: false, ownerPid: pid };
  }
  writeFileAtomically(file, `${JSON.stringify(info, null, 2)}\n`);
  return { written: true };
}

/** Removes `file` if it still names this process and `port`; another owner's file is left alone. */
export function releaseBridgeFile(file: string, port: number): boolean {
  const owner = readOwner(file);
  if (owner?.pid !== process.pid || owner.port !== port) return false;
  rmSync(file, { force: true });
  return true;
}
