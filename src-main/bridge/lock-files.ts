/**
 * Discovery lock files: `<dir>/<port>.lock`, readable only by the user (file 0600 in a 0700 folder),
 * written atomically so a CLI never reads half a file.
 */
import { readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { NotRegularFileError, readRegularFile } from '../core/disk/regular-file';
import { writeFileAtomically, type AtomicWriteOptions } from '../core/disk/atomic-file';
import { isProcessAlive } from '../core/clients/process-info';
import { isRecord } from '../../shared/is-record';

// In core, where pairing and the `difftray` command write their private files too.
export { writeFileAtomically, type AtomicWriteOptions };

// In core, where the `difftray` command finds it too; re-exported for the bridge's discovery files.
export { isProcessAlive };

/** DiffTray's name in the lock files it writes (`ideName`, or Gemini's `ideInfo.displayName`). */
export const DIFFTRAY_IDE_NAME = 'DiffTray';

/** What a discovery file says about who wrote it. */
export interface LockFileOwner {
  pid: unknown;
  port: unknown;
  /** A Unix socket the owner listens on instead of a port (Copilot CLI's lock files). */
  socketPath?: unknown;
}

/** Which files of a folder are discovery files, and whose they are. */
export interface StaleFileRule {
  matches: (name: string) => boolean;
  /** The pid and port of the DiffTray that wrote the file; undefined when DiffTray did not write it. */
  ownerOf: (name: string, content: unknown) => LockFileOwner | undefined;
  /** What else the owner left behind once its file was judged stale and removed (a socket's folder). */
  removeLeftovers?: (owner: LockFileOwner) => void;
}

/** Claude Code's, NEXUS3's and the native `<port>.lock` files: DiffTray's `ideName`, `pid`, port in the name. */
export const LOCK_FILE_PID_RULE: StaleFileRule = lockFileRule('pid');

/** `*.lock` files written by DiffTray, whose process id is in `field` (Qwen Code's name it `ppid`). */
export function lockFileRule(field: string): StaleFileRule {
  return {
    matches: (name) => name.endsWith('.lock'),
    ownerOf: (name, content) => {
      if (!isRecord(content) || content.ideName !== DIFFTRAY_IDE_NAME) return undefined;
      return { pid: content[field], port: content.port ?? Number(name.slice(0, -'.lock'.length)) };
    },
  };
}

/** The largest discovery file read when judging staleness: they are a few hundred bytes. */
const MAX_LOCK_FILE_BYTES = 64 * 1024;

/** How long a connection attempt to a lock file's port may take before the port counts as answering. */
const PORT_PROBE_TIMEOUT_MS = 1000;

/**
 * Removes discovery files in `dir` that are provably stale: written by DiffTray (its name in the file),
 * naming a positive pid that is not running, and a port where nothing accepts a loopback connection
 * (a DiffTray in another pid namespace, a container sharing the home folder, still answers there).
 * Other programs' files, and files we cannot read or parse, are never removed: not ours to judge.
 * Never rejects.
 */
export async function removeStaleLockFiles(
  dir: string,
  rule: StaleFileRule = LOCK_FILE_PID_RULE,
  options: { except?: string } = {},
): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    if (!rule.matches(name) || file === options.except) continue;
    try {
      const text = readLockText(file);
      const owner = text === undefined ? undefined : rule.ownerOf(name, JSON.parse(text));
      if (!owner || !(await isStale(owner))) continue;
      // Judged on this content: a file rewritten meanwhile (a new DiffTray on the same port) stays.
      if (readLockText(file) !== text) continue;
      rmSync(file, { force: true });
      removed.push(file);
      rule.removeLeftovers?.(owner);
    } catch {
      continue;
    }
  }
  return removed;
}

/**
 * Whether the process that wrote a discovery file is provably gone: a positive pid that is not running,
 * and nothing answering on its port on loopback. A file naming no valid port is judged by
 * `withoutPort` (lock files: kept; Clio's shared bridge.json: taken over).
 */
export async function isStale(
  owner: LockFileOwner | undefined,
  { withoutPort = false }: { withoutPort?: boolean } = {},
): Promise<boolean> {
  if (!owner) return false;
  const { pid, port, socketPath } = owner;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || isProcessAlive(pid)) return false;
  if (typeof socketPath === 'string') return !(await socketAnswers(socketPath));
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) return withoutPort;
  return !(await portAnswers(port));
}

/** The text of a regular file no larger than MAX_LOCK_FILE_BYTES (never a link, FIFO or folder). */
function readLockText(file: string): string | undefined {
  try {
    return readRegularFile(file, { noFollow: true, maxBytes: MAX_LOCK_FILE_BYTES });
  } catch (error) {
    if (error instanceof NotRegularFileError) return undefined;
    throw error;
  }
}

/** Whether something accepts a TCP connection on 127.0.0.1:`port`; an attempt that hangs counts as yes. */
export function portAnswers(port: number): Promise<boolean> {
  return connectionAnswers({ host: '127.0.0.1', port });
}

/** Whether something accepts a connection on the Unix socket `socketPath`; a hang counts as yes. */
export function socketAnswers(socketPath: string): Promise<boolean> {
  return connectionAnswers({ path: socketPath });
}

function connectionAnswers(options: net.NetConnectOpts): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(options);
    const done = (answers: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answers);
    };
    const timer = setTimeout(() => done(true), PORT_PROBE_TIMEOUT_MS);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export interface OwnedLockFileOptions extends AtomicWriteOptions {
  /** How stale files of the same kind are recognised in the folder before writing. */
  staleRule?: StaleFileRule;
  /** Checks the folder before each write (a shared folder's owner and mode); throws to refuse. */
  checkFolder?: () => void;
}

/**
 * A lock file this process owns: written now, removed by `remove()` (idempotent). Stale files of the
 * same kind in its folder are removed next, in the background: `staleRemoved` says when (and which).
 */
export class OwnedLockFile {
  private removed = false;
  readonly staleRemoved: Promise<string[]>;

  constructor(
    readonly file: string,
    content: unknown,
    private readonly options: OwnedLockFileOptions = {},
  ) {
    options.checkFolder?.();
    writeFileAtomically(file, JSON.stringify(content), 0o600, options);
    this.staleRemoved = removeStaleLockFiles(path.dirname(file), options.staleRule, { except: file });
  }

  /**
   * Writes new content in its place (the workspace folders changed), atomically as at first, so a CLI
   * reading it meanwhile sees the old file or the new one. Nothing once removed. Throws when it cannot.
   */
  rewrite(content: unknown): void {
    if (this.removed) return;
    this.options.checkFolder?.();
    writeFileAtomically(this.file, JSON.stringify(content), 0o600, this.options);
  }

  remove(): void {
    if (this.removed) return;
    this.removed = true;
    rmSync(this.file, { force: true });
  }
}
