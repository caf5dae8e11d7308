/**
 * How Copilot CLI finds DiffTray: `<copilot home>/ide/<uuid>.lock`, as its `/ide` command lists it
 * (sailro/CopilotCliIde doc/protocol.md, "Discovery"). The copilot home is `$COPILOT_HOME` when set,
 * else `~/.copilot` (GitHub's "CLI config dir reference"); XDG variables no longer move it
 * (github/copilot-cli#1954, #1750: that support was removed).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { DIFFTRAY_IDE_NAME, OwnedLockFile, type StaleFileRule } from '../lock-files';
import { removeSocketFolder } from './socket-folder';

export function copilotLockDir(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  const copilotHome = env.COPILOT_HOME ? path.resolve(env.COPILOT_HOME) : path.join(home, '.copilot');
  return path.join(copilotHome, 'ide');
}

export interface CopilotLockDetails {
  socketPath: string;
  nonce: string;
  workspaceFolders: readonly string[];
  pid?: number;
}

/** The eight fields the CLI reads; every request must carry `headers`. */
export function copilotLockContent(details: CopilotLockDetails, now = Date.now()) {
  return {
    socketPath: details.socketPath,
    scheme: 'pipe',
    headers: { Authorization: `Nonce ${details.nonce}` },
    pid: details.pid ?? process.pid,
    ideName: DIFFTRAY_IDE_NAME,
    timestamp: now,
    workspaceFolders: [...details.workspaceFolders],
    // DiffTray serves only the folders it was started on; each proposal is still checked against them.
    isTrusted: true,
  };
}

/** DiffTray's own lock files whose process is gone and whose socket no longer answers. */
export const COPILOT_STALE_RULE: StaleFileRule = {
  matches: (name) => name.endsWith('.lock'),
  ownerOf: (_name, content) => {
    const record = content as { ideName?: unknown; pid?: unknown; socketPath?: unknown } | null;
    if (record?.ideName !== DIFFTRAY_IDE_NAME) return undefined;
    return { pid: record.pid, port: undefined, socketPath: record.socketPath };
  },
  removeLeftovers: (owner) => removeSocketFolder(owner.socketPath),
};

/** Writes `<dir>/<uuid>.lock`: 0600 in a 0700 folder, atomically; removed by the caller at exit. */
export function writeCopilotLockFile(dir: string, details: CopilotLockDetails): OwnedLockFile {
  return new OwnedLockFile(path.join(dir, `${randomUUID()}.lock`), copilotLockContent(details), {
    staleRule: COPILOT_STALE_RULE,
  });
}
