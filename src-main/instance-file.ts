/**
 * The instance record: `<DIFFTRAY_HOME>/instance.json`, the DiffTray running for this DiffTray home
 * (0600 in the 0700 home, like every lock file there). A start claims it by creating it, never by
 * overwriting it: the record is written beside its name and hard-linked into place, which fails when one
 * is already there, so two starts racing cannot both win and a reader never sees half a file. The
 * owner fills in its address once it serves, and removes the record when it leaves.
 *
 * It never holds the headless UI's token: every program running as this user (the agent under review
 * among them) can read it, and whoever has the token decides reviews. The token stays on the terminal
 * that started DiffTray.
 */
import { chmodSync, linkSync, lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomically } from './core/disk/atomic-file';
import { readRegularFile } from './core/disk/regular-file';
import { processStartTime } from './core/clients/process-info';
import { codeOf } from '../shared/error-message';
import { isRecord } from '../shared/is-record';

export const INSTANCE_FILE_NAME = 'instance.json';

/** Which shell runs the instance: the Electron app or the headless server. */
export type InstanceShell = 'desktop' | 'headless';

export interface InstanceRecord {
  pid: number;
  /** When the process started (Linux, /proc): with the pid, it names one process for good. */
  processStart?: string;
  /** When DiffTray started, as an ISO date. */
  startedAt: string;
  shell: InstanceShell;
  /** The native endpoint's port, once serving: the loopback check that the instance still answers. */
  port?: number;
  /** The headless UI's port, once serving (headless only): its address without the token. */
  uiPort?: number;
}

/** The largest record read: it is a few hundred bytes. */
const MAX_RECORD_BYTES = 16 * 1024;

export function instanceFile(home: string): string {
  return path.join(home, INSTANCE_FILE_NAME);
}

/** This process's record, before it serves. */
export function ownRecord(shell: InstanceShell, now: Date = new Date()): InstanceRecord {
  const processStart = processStartTime(process.pid);
  return {
    pid: process.pid,
    ...(processStart !== undefined && { processStart }),
    startedAt: now.toISOString(),
    shell,
  };
}

/**
 * Creates the record unless one exists: true when this call created it. Throws on anything but an
 * existing record (a home that cannot be written).
 */
export function createRecord(file: string, record: InstanceRecord): boolean {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temp, file);
      return true;
    } catch (error) {
      if (codeOf(error) === 'EEXIST') return false;
      if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(codeOf(error) ?? '')) throw error;
    }
    // A file system without hard links: created exclusively, written at once (a few hundred bytes).
    try {
      writeFileSync(file, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
      return true;
    } catch (error) {
      if (codeOf(error) === 'EEXIST') return false;
      throw error;
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Rewrites this process's own record (its address, once serving), atomically. */
export function updateRecord(file: string, record: InstanceRecord): void {
  writeFileAtomically(file, JSON.stringify(record));
}

/** The record as written: its text (to judge it unchanged before removing it) and what it says. */
export interface ReadRecord {
  text: string;
  /** Undefined when the text is not a record (garbage, or another version's shape). */
  record: InstanceRecord | undefined;
}

/**
 * The record in `file`; undefined when there is none. Whatever else is there is read as no record (the
 * text empty, the record undefined), never followed and never waited on: a symbolic link (wherever it
 * leads: a file elsewhere, /dev/zero, a FIFO), a FIFO or device in its place, a folder, a file larger than
 * a record, one that cannot be read. None of them is a record a DiffTray wrote (it writes a regular file
 * of a few hundred bytes, linked into place), so none holds the home: a start removes the entry itself,
 * never what a link leads to (removeRecordIfUnchanged), and claims the home.
 */
export function readRecord(file: string): ReadRecord | undefined {
  let text: string;
  try {
    text = readRegularFile(file, { noFollow: true, maxBytes: MAX_RECORD_BYTES });
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    return { text: '', record: undefined };
  }
  try {
    return { text, record: parseRecord(JSON.parse(text)) };
  } catch {
    return { text, record: undefined };
  }
}

/**
 * Removes the record if it still reads `text` (judged stale on that content: one a new start wrote
 * meanwhile stays). True when it is gone. A link is removed, not what it leads to. A folder in its place
 * is refused with an error saying so: it may hold someone's files, and is not DiffTray's to empty.
 */
export function removeRecordIfUnchanged(file: string, text: string): boolean {
  const now = readRecord(file);
  if (now === undefined) return true;
  if (now.text !== text) return false;
  if (isFolder(file)) {
    throw new Error(
      `${file} is a folder, not DiffTray's instance record; move it out of the way and start again`,
    );
  }
  rmSync(file, { force: true });
  return true;
}

function isFolder(file: string): boolean {
  try {
    return lstatSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** Removes the record if it is this process's (an exit must never remove another instance's). */
export function removeOwnRecord(file: string, pid: number = process.pid): void {
  const now = readRecord(file);
  if (now?.record?.pid === pid) rmSync(file, { force: true });
}

function parseRecord(value: unknown): InstanceRecord | undefined {
  if (!isRecord(value)) return undefined;
  const { pid, processStart, startedAt, shell, port, uiPort } = value;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
  if (typeof startedAt !== 'string' || (shell !== 'desktop' && shell !== 'headless')) return undefined;
  if (processStart !== undefined && typeof processStart !== 'string') return undefined;
  if (port !== undefined && !isPort(port)) return undefined;
  if (uiPort !== undefined && !isPort(uiPort)) return undefined;
  return {
    pid,
    ...(processStart !== undefined && { processStart }),
    startedAt,
    shell,
    ...(port !== undefined && { port }),
    ...(uiPort !== undefined && { uiPort }),
  };
}

function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
}
