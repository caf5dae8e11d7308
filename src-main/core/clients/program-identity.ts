/**
 * What "this program" is when the person allows a program always: not only its executable and script,
 * since `node -r evil.js <trusted script>` or `NODE_OPTIONS=--require=evil.js` runs other code under the
 * same two. The identity is the whole command line and the variables of the environment that change
 * what an interpreter or the dynamic loader runs, read from /proc/<pid>/cmdline and /proc/<pid>/environ
 * (Linux, our own user's processes). What cannot be read in full is no identity: it is asked each time.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { MAX_PROGRAM_ARGS, MAX_PROGRAM_IDENTITY_CHARS } from '../limits';

/** Variables read by name: each makes a program load or run code it was not started with. */
const RUN_CHANGING_NAMES = new Set([
  'BASH_ENV',
  'ENV',
  'GCONV_PATH',
  'GEM_HOME',
  'GEM_PATH',
  'JAVA_TOOL_OPTIONS',
  'JDK_JAVA_OPTIONS',
  '_JAVA_OPTIONS',
  'ELECTRON_RUN_AS_NODE',
  'RUBYOPT',
  'RUBYLIB',
]);

/**
 * Families read by prefix: Node's (NODE_OPTIONS, NODE_PATH...), the dynamic loader's (LD_PRELOAD,
 * LD_LIBRARY_PATH, LD_AUDIT; macOS's DYLD_*), Python's (PYTHONPATH, PYTHONSTARTUP, PYTHONHOME...),
 * Perl's (PERL5OPT, PERL5LIB...), Bun's and Deno's.
 */
const RUN_CHANGING_PREFIXES = ['NODE_', 'LD_', 'DYLD_', 'PYTHON', 'PERL', 'BUN_', 'DENO_'];

/** Whether an environment variable changes what a program runs. */
export function isRunChangingVariable(name: string): boolean {
  return RUN_CHANGING_NAMES.has(name) || RUN_CHANGING_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** /proc/<pid>/cmdline as arguments; undefined when there are too many or they are too long to keep. */
export function commandLineOf(cmdline: string): string[] | undefined {
  const args = cmdline.split('\0');
  // The list ends with a NUL: the last piece is empty.
  if (args.at(-1) === '') args.pop();
  if (args.length === 0 || args.length > MAX_PROGRAM_ARGS) return undefined;
  if (args.reduce((total, arg) => total + arg.length, 0) > MAX_PROGRAM_IDENTITY_CHARS) return undefined;
  return args;
}

/**
 * The run-changing variables of /proc/<pid>/environ (`NAME=value\0...`), sorted by name; {} when there
 * are none; undefined when they are too long to keep.
 */
export function runChangingEnvironment(environ: string): Record<string, string> | undefined {
  const found: Array<[string, string]> = [];
  let chars = 0;
  for (const entry of environ.split('\0')) {
    const equals = entry.indexOf('=');
    if (equals <= 0) continue;
    const name = entry.slice(0, equals);
    if (!isRunChangingVariable(name)) continue;
    const value = entry.slice(equals + 1);
    chars += entry.length;
    if (chars > MAX_PROGRAM_IDENTITY_CHARS) return undefined;
    found.push([name, value]);
  }
  found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(found);
}

/**
 * A /proc text file read whole, or undefined when it cannot be read (another user's process, gone) or
 * is longer than `maxBytes` (/proc reports no size: read until the end, up to the bound).
 */
export function readProcText(file: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) return undefined;
    }
    return buffer.subarray(0, length).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
