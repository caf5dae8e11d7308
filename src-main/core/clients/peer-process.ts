/**
 * Which process is at the other end of a loopback TCP connection, so a client that sends no token can be
 * named to the person by facts rather than by what it says: its pid, executable and working folder.
 *
 * Linux only, through /proc and without privileges: the peer's socket is the row of /proc/net/tcp (or
 * tcp6) whose local port is the connection's remote port and whose remote port is ours; that row gives
 * the socket's owner uid and inode; the process holding the inode has `socket:[inode]` among its
 * /proc/<pid>/fd links (readable for our own user's processes only, which are the only ones allowed).
 * macOS and Windows do not offer this without lsof/netstat, which DiffTray does not run: there the
 * caller identifies the client by the name it gives, and says so.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { MAX_PROGRAM_IDENTITY_CHARS } from '../limits';
import { processWorkingFolder } from './process-info';
import { commandLineOf, readProcText, runChangingEnvironment } from './program-identity';

export interface PeerProcess {
  pid: number;
  /** /proc/<pid>/exe; undefined if it could not be read (the process is gone already). */
  executable?: string;
  /** For an interpreter (node, python...): the script it runs (argv[1], resolved against cwd). */
  script?: string;
  cwd?: string;
  /** Its whole command line (/proc/<pid>/cmdline); undefined when it could not be read in full. */
  argv?: string[];
  /**
   * The variables of its environment that change what it runs (NODE_OPTIONS, LD_PRELOAD, PYTHONPATH...:
   * program-identity.ts), {} for none; undefined when /proc/<pid>/environ could not be read in full.
   */
  environment?: Record<string, string>;
}

export type PeerLookup =
  /** The peer runs as our user; its process when found (it may have exited meanwhile). */
  | { kind: 'same-user'; process?: PeerProcess }
  /** The peer's socket belongs to another user: refused outright. */
  | { kind: 'other-user'; uid: number }
  /** No /proc here (macOS, Windows), or the connection was not found in it. */
  | { kind: 'unknown' };

/** A TCP socket as /proc/net/tcp lists it. */
export interface ProcTcpRow {
  localPort: number;
  remotePort: number;
  uid: number;
  inode: number;
}

/** Rows of /proc/net/tcp or /proc/net/tcp6 (`sl local_address rem_address st ... uid timeout inode`). */
export function parseProcNetTcp(text: string): ProcTcpRow[] {
  const rows: ProcTcpRow[] = [];
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const localPort = portOf(fields[1]);
    const remotePort = portOf(fields[2]);
    const uid = Number(fields[7]);
    const inode = Number(fields[9]);
    if (localPort === undefined || remotePort === undefined) continue;
    if (!Number.isInteger(uid) || !Number.isInteger(inode)) continue;
    rows.push({ localPort, remotePort, uid, inode });
  }
  return rows;
}

/** "0100007F:A1B2" → 0xA1B2. */
function portOf(address: string | undefined): number | undefined {
  const hex = address?.split(':').pop();
  if (!hex || !/^[0-9A-Fa-f]{4}$/.test(hex)) return undefined;
  return parseInt(hex, 16);
}

/** Programs that run a script: "this program" is the script, not the interpreter everyone shares. */
const INTERPRETERS = /^(node|nodejs|bun|deno|python[0-9.]*|ruby|perl|php)$/;

/** The process at the other end of a loopback connection on which we are `serverPort` and the peer `peerPort`. */
export function findLoopbackPeer(serverPort: number, peerPort: number): PeerLookup {
  if (process.platform !== 'linux') return { kind: 'unknown' };
  const row = ['tcp', 'tcp6']
    .flatMap((table) => parseProcNetTcp(readOrEmpty(`/proc/net/${table}`)))
    .find((candidate) => candidate.localPort === peerPort && candidate.remotePort === serverPort);
  if (!row) return { kind: 'unknown' };
  const ourUid = process.getuid?.();
  if (ourUid !== undefined && row.uid !== ourUid) return { kind: 'other-user', uid: row.uid };
  const pid = row.inode === 0 ? undefined : socketOwners(new Set([row.inode])).get(row.inode);
  return pid === undefined ? { kind: 'same-user' } : { kind: 'same-user', process: describeProcess(pid) };
}

/**
 * Who is at the other end of each of several loopback connections to `serverPort`, as a key that tells
 * peers apart: `pid:<n>` for a process of our user, `uid:<n>` for another user's (whose processes we
 * cannot look into, so all of that user's connections count as one peer). A peer port missing from the
 * result could not be identified (not Linux, or gone). One read of the tables and, only when needed,
 * one walk of /proc/<pid>/fd for all of them, so a burst of connections costs one look, not one each.
 */
export function loopbackPeerKeys(serverPort: number, peerPorts: readonly number[]): Map<number, string> {
  const keys = new Map<number, string>();
  if (process.platform !== 'linux' || peerPorts.length === 0) return keys;
  const wanted = new Set(peerPorts);
  const rows = ['tcp', 'tcp6']
    .flatMap((table) => parseProcNetTcp(readOrEmpty(`/proc/net/${table}`)))
    .filter((row) => row.remotePort === serverPort && wanted.has(row.localPort));
  const ourUid = process.getuid?.();
  const ours = rows.filter((row) => ourUid === undefined || row.uid === ourUid);
  const owners = ours.length > 0 ? socketOwners(new Set(ours.map((row) => row.inode))) : new Map();
  for (const row of rows) {
    if (ourUid !== undefined && row.uid !== ourUid) keys.set(row.localPort, `uid:${row.uid}`);
    else if (owners.has(row.inode)) keys.set(row.localPort, `pid:${owners.get(row.inode)}`);
  }
  return keys;
}

/** Processes that held peer sockets lately, looked in first: a flood comes from few processes. */
const recentPeers: number[] = [];
const MAX_RECENT_PEERS = 16;

/** Which of our processes holds each socket inode of `inodes`: recent peers first, then all of /proc. */
function socketOwners(inodes: ReadonlySet<number>): Map<number, number> {
  const owners = new Map<number, number>();
  const look = (pid: string) => {
    const fdDir = `/proc/${pid}/fd`;
    for (const fd of readdirOrEmpty(fdDir)) {
      let target: string;
      try {
        target = readlinkSync(path.join(fdDir, fd));
      } catch {
        continue; // The fd closed meanwhile.
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode !== undefined && inodes.has(Number(inode))) owners.set(Number(inode), Number(pid));
    }
  };
  const recent = recentPeers.map(String);
  for (const pid of recent) look(pid);
  if (owners.size < inodes.size) {
    for (const entry of readdirOrEmpty('/proc')) {
      if (!/^\d+$/.test(entry) || recent.includes(entry)) continue;
      look(entry);
      if (owners.size === inodes.size) break;
    }
  }
  for (const pid of new Set(owners.values())) {
    const at = recentPeers.indexOf(pid);
    if (at !== -1) recentPeers.splice(at, 1);
    recentPeers.unshift(pid);
  }
  recentPeers.length = Math.min(recentPeers.length, MAX_RECENT_PEERS);
  return owners;
}

/** The most of /proc/<pid>/environ read: a larger environment cannot be checked, so it is asked each time. */
const MAX_ENVIRON_BYTES = 1024 * 1024;

/** What identifies the process `pid`, as far as /proc lets our user read it. */
export function describeProcess(pid: number): PeerProcess {
  const executable = readlinkOrUndefined(`/proc/${pid}/exe`);
  const cwd = processWorkingFolder(pid);
  const cmdline = readProcText(`/proc/${pid}/cmdline`, MAX_PROGRAM_IDENTITY_CHARS * 4);
  const argv = cmdline === undefined ? undefined : commandLineOf(cmdline);
  const environ = readProcText(`/proc/${pid}/environ`, MAX_ENVIRON_BYTES);
  const environment = environ === undefined ? undefined : runChangingEnvironment(environ);
  const script = executable ? scriptOf(executable, cmdline ?? '', cwd) : undefined;
  return {
    pid,
    ...(executable !== undefined && { executable }),
    ...(script !== undefined && { script }),
    ...(cwd !== undefined && { cwd }),
    ...(argv !== undefined && { argv }),
    ...(environment !== undefined && { environment }),
  };
}

/** Options that run code given inline rather than a script file (node -e, python -c...). */
const INLINE_CODE = new Set(['-e', '--eval', '-p', '--print', '-c']);
/** Options whose value is the next argument, not the script. */
const TAKES_VALUE = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-m',
  '-W',
  '-X',
]);

/** What an interpreter runs: its script (resolved against the process's cwd), or INLINE_SCRIPT. */
function scriptOf(executable: string, cmdline: string, cwd: string | undefined): string | undefined {
  if (!INTERPRETERS.test(path.basename(executable))) return undefined;
  const args = cmdline.split('\0').slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '') continue;
    if (INLINE_CODE.has(arg)) return INLINE_SCRIPT;
    if (TAKES_VALUE.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return cwd === undefined ? arg : path.resolve(cwd, arg);
  }
  return undefined;
}

/** The "script" of an interpreter running code given on its command line. */
export const INLINE_SCRIPT = '(inline code)';

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function readdirOrEmpty(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function readlinkOrUndefined(link: string): string | undefined {
  try {
    return readlinkSync(link);
  } catch {
    return undefined;
  }
}
