/**
 * Clio's discovery file, `~/.clio/ide/bridge.json`: one fixed name for everyone (editor extensions,
 * other DiffTray instances), so it is claimed with care. It is replaced only when it is this very
 * process's, unreadable, or provably stale: a positive pid that is not running and a port where nothing
 * answers on loopback (an owner in another pid namespace, such as a container sharing the home folder,
 * still answers there). It is removed on close only while it still names us.
 */
import { rmSync } from 'node:fs';
import { isStale, writeFileAtomically } from '../lock-files';
import { readRegularFile } from '../../core/disk/regular-file';

export { clioBridgeFile } from '../../core/setup/discovery-locations';

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
    raw = readRegularFile(file);
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
 * Writes `info` to `file` unless another owner may still be alive. Returns whether it was written, and if
 * not, the pid that keeps it.
 */
export async function claimBridgeFile(
  file: string,
  info: ClioBridgeInfo,
): Promise<{ written: true } | { written: false; ownerPid: unknown }> {
  const owner = readOwner(file);
  if (owner && !(await isOursOrStale(owner))) return { written: false, ownerPid: owner.pid };
  writeFileAtomically(file, `${JSON.stringify(info, null, 2)}\n`);
  return { written: true };
}

async function isOursOrStale(owner: { pid?: unknown; port?: unknown }): Promise<boolean> {
  const { pid, port } = owner;
  // Not JSON, or JSON naming no one: nobody can be using it.
  if (pid === undefined && port === undefined) return true;
  if (pid === process.pid) return true;
  return isStale({ pid, port }, { withoutPort: true });
}

/**
 * Writes bridge.json anew (the workspace folders changed) if it still names this process and port;
 * another owner's file is left alone. Answers whether it wrote.
 */
export function rewriteBridgeFile(file: string, info: ClioBridgeInfo): boolean {
  const owner = readOwner(file);
  if (owner?.pid !== process.pid || owner.port !== info.port) return false;
  writeFileAtomically(file, `${JSON.stringify(info, null, 2)}\n`);
  return true;
}

/** Removes `file` if it still names this process and `port`; another owner's file is left alone. */
export function releaseBridgeFile(file: string, port: number): boolean {
  const owner = readOwner(file);
  if (owner?.pid !== process.pid || owner.port !== port) return false;
  rmSync(file, { force: true });
  return true;
}
