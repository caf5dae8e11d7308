/**
 * Finding the running DiffTray: its lock files `<DIFFTRAY_HOME or ~/.difftray>/<port>.lock`, written by
 * the native endpoint (src-main/bridge/native). A lock file counts when it parses and its pid is still the
 * DiffTray that wrote it: alive, ours, started when the lock says (Linux; see isSameOwnProcess). Among
 * several, the one whose workspace folders hold the current directory wins, else the newest. Whatever is
 * found must still prove itself when connecting (client.ts): a lock file is where to look, not whom to trust.
 */
import { readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  lockFileSchema,
  NATIVE_PROTOCOL_VERSION,
  type HostKeyInfo,
  type NativeLockFile,
} from '../../shared/native-protocol';
import { isSameOwnProcess } from '../core/clients/process-info';
import { difftrayHome } from '../core/settings/settings';
import { isInsideWorkspace, resolveRealPath } from '../core/workspace/workspace-paths';
import { CliError, tildePath } from './errors';
import { pairedFile, readPaired, type PairedTarget } from './paired-file';
import { readRegularFile } from '../core/disk/regular-file';

/** How to reach a DiffTray on another machine this host paired with (paired.json). */
export interface PairedVia {
  host: string;
  /** DiffTray's own port: the Host header it checks. */
  serverPort: number;
  /** This host's name as paired. */
  name: string;
  /** The host key pinned at pairing; the server must sign with it before anything is sent. */
  hostKey?: HostKeyInfo;
}

/** A lock file, or what paired.json says in its place (`via` set, the paired token as authToken). */
export type DiscoveredLock = NativeLockFile & { via?: PairedVia };

export interface Discovered {
  lock: DiscoveredLock;
  file: string;
}

export interface DiscoveryOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** What to do when no DiffTray is found: start one, or look where the running one writes its lock file. */
const START_DIFFTRAY =
  'start it (the DiffTray app, or npm start in its folder), or set DIFFTRAY_HOME to the folder the running one uses';

export function lockDirectory(env: NodeJS.ProcessEnv): string {
  return difftrayHome(env);
}

export function findDiffTray({ env, cwd }: DiscoveryOptions): Discovered {
  const dir = lockDirectory(env);
  const shown = tildePath(dir, os.homedir());
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.lock'));
  } catch {
    names = [];
  }
  const live: Array<Discovered & { mtime: number }> = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const parsed = lockFileSchema.safeParse(JSON.parse(readRegularFile(file)));
      if (!parsed.success || !isSameOwnProcess(parsed.data.pid, parsed.data.processStart)) continue;
      live.push({ lock: parsed.data as NativeLockFile, file, mtime: statSync(file).mtimeMs });
    } catch {
      // Half-written or someone else's: not ours to use.
    }
  }
  if (live.length === 0) {
    // No DiffTray here: the one this host paired with, through its tunnel, if any.
    const paired = readPaired(env);
    if (paired) return { lock: pairedLock(paired), file: pairedFile(env) };
    throw new CliError(
      `DiffTray is not running (no ${names.length === 0 ? '' : 'live '}lock file in ${shown})`,
      2,
      START_DIFFTRAY,
    );
  }
  // Judged as the app judges its workspace: both sides by their real paths.
  const here = resolveRealPath(cwd);
  const inWorkspace = live.filter((entry) => isInsideWorkspace(here, entry.lock.workspaceFolders));
  const pool = inWorkspace.length > 0 ? inWorkspace : live;
  pool.sort((a, b) => b.mtime - a.mtime);
  const { lock, file } = pool[0]!;
  return { lock, file };
}

function pairedLock(paired: PairedTarget): DiscoveredLock {
  return {
    pid: 0,
    port: paired.port,
    authToken: paired.token,
    workspaceFolders: [],
    ideName: 'DiffTray',
    transport: 'ws',
    protocol_version: NATIVE_PROTOCOL_VERSION,
    via: {
      host: paired.host,
      serverPort: paired.serverPort,
      name: paired.name,
      ...(paired.hostKey && { hostKey: paired.hostKey }),
    },
  };
}
