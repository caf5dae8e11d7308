/**
 * What the app process does for itself at start, before it serves anyone (desktop and headless alike):
 *
 * - Raises its soft limit of open files to the hard limit. Every connection and every file read takes a
 *   descriptor, and desktop sessions often start with a soft limit of 1024 (or 256 on macOS) under a
 *   hard limit many times that. Node has no setrlimit: plain Node raises its own soft limit at start
 *   (node.cc), but an embedder such as Electron need not. On Linux, util-linux's `prlimit --pid` sets
 *   the limit of a running process of our own user, so it is asked to; where it is missing or refuses,
 *   the limit stays and is logged, with the shell's `ulimit -n` as the fix.
 * - A last-resort handler: an exception or rejection nobody caught is logged and the app keeps serving
 *   (the alternative, ending the process, would drop every pending review at once).
 * - Output nobody reads any more is dropped: `npm start | tee log` after Ctrl-C (tee is gone: EPIPE), a
 *   closed terminal (EIO). A write there must not end the process before it removes its lock files.
 *   SIGPIPE itself is ignored by Node and by Electron; the EPIPE error is what is left to catch.
 */
import { execFileSync } from 'node:child_process';
import { readRegularFile } from './core/disk/regular-file';
import { messageOf } from '../shared/error-message';

export type Log = (message: string) => void;

export interface OpenFileLimit {
  soft: number;
  hard: number;
}

/** The "Max open files" line of /proc/<pid>/limits; undefined where there is none (not Linux). */
export function openFileLimit(pid: number = process.pid): OpenFileLimit | undefined {
  let text: string;
  try {
    text = readRegularFile(`/proc/${pid}/limits`, { maxBytes: 64 * 1024 });
  } catch {
    return undefined;
  }
  const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(text);
  if (!match) return undefined;
  const value = (field: string) => (field === 'unlimited' ? Number.POSITIVE_INFINITY : Number(field));
  return { soft: value(match[1]!), hard: value(match[2]!) };
}

/**
 * Raises the soft open-files limit of `pid` (this process unless told) to its hard limit; says what it
 * did. Never throws: a failure leaves the limit as it was.
 */
export function raiseOpenFileLimit(
  pid: number = process.pid,
  log: Log = () => {},
): OpenFileLimit | undefined {
  const before = openFileLimit(pid);
  if (!before || before.soft >= before.hard) return before;
  const hard = Number.isFinite(before.hard) ? String(before.hard) : 'unlimited';
  try {
    execFileSync('prlimit', ['--pid', String(pid), `--nofile=${hard}:${hard}`], {
      stdio: 'ignore',
      timeout: 5000,
    });
  } catch (error) {
    log(
      `difftray: the open-files limit stays ${before.soft} (hard limit ${hard}): ${messageOf(error)}; ` +
        `start DiffTray from a shell after \`ulimit -n ${hard}\` to raise it`,
    );
    return before;
  }
  return openFileLimit(pid) ?? before;
}

/**
 * Drops the errors of writing to stdout and stderr (EPIPE, EIO): there is nobody left to tell. Installed
 * first, by the app's entry point.
 */
export function ignoreClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
}

/** Logs what nobody caught, and keeps the process serving. Installed once, by the app's entry point. */
export function installLastResort(log: Log): void {
  process.on('uncaughtException', (error) =>
    log(`difftray: uncaught exception (still serving): ${describe(error)}`),
  );
  process.on('unhandledRejection', (reason) =>
    log(`difftray: unhandled rejection (still serving): ${describe(reason)}`),
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : messageOf(error);
}
