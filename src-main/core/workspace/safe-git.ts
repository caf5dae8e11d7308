/**
 * Every git process DiffTray starts, started so that nothing the workspace names is run. An agent that
 * can write the workspace can write its `.git/config`, `.gitattributes`, hooks and even a `git` program
 * in it; DiffTray runs as the person, so a program named there would run as the person, outside any
 * sandbox the agent is in. What git could run, and how each is shut off here:
 * - `core.fsmonitor`: git runs it whenever it reads the index (cat-file, ls-files...). Set empty, which
 *   every git version reads as "off" (`false` would be a program name to git before 2.36).
 * - hooks (`core.hooksPath`, `.git/hooks`): none of the commands DiffTray runs has one; the hooks path
 *   points at /dev/null all the same, and no command here writes the index (`post-index-change`):
 *   `--no-optional-locks` keeps git from refreshing and writing it back on the side.
 * - filter drivers (`filter.<name>.clean/smudge/process`, chosen by `.gitattributes`), textconv and
 *   `diff.<name>.command`: they run only where git converts content between the work tree and the index
 *   (add, checkout, status and diff against the work tree, `cat-file --filters/--textconv`, `ls-files
 *   -m`). Their names are the workspace's, so they cannot be listed to turn off: DiffTray uses only
 *   commands that never convert (rev-parse, config, ls-files without -m/-d, plain cat-file).
 * - `diff.external`, pagers, credential helpers, ssh, askpass: emptied or set to `cat`, and no
 *   transport may run at all (`protocol.allow=never`, no lazy fetch of a partial clone's objects).
 * - automatic maintenance (`gc.auto`, `maintenance.auto`, with its `pre-auto-gc` hook): off.
 * - a bare repository planted in a folder (its own config) is not found by walking up
 *   (`safe.bareRepository=explicit`, git 2.38+; older git ignores the key).
 * - the environment: every `GIT_*` variable of DiffTray's own environment is dropped (GIT_DIR,
 *   GIT_WORK_TREE, GIT_INDEX_FILE, GIT_EXEC_PATH, GIT_CONFIG_* and GIT_CONFIG_PARAMETERS would steer it),
 *   and the system config is not read (GIT_CONFIG_NOSYSTEM). The person's global config is read (their
 *   excludes file); whatever it names to run is shut off by the same command-line settings, which win.
 * - the `git` program itself: found on PATH's absolute folders only. A relative entry ('.', or an empty
 *   one, which means the current folder) would find a `git` planted in the workspace git runs in, and on
 *   Windows a bare name is looked up in the current folder first.
 * `.git` as a file (`gitdir: ...`, as linked work trees and submodules have) and `core.worktree` can send
 * git to another repository or work tree; what that may do is decided by the callers (git-index.ts).
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** `-c` settings that turn off every program the config may name, for the commands DiffTray runs. */
export const NEUTRAL_GIT_CONFIG: readonly string[] = [
  'core.fsmonitor=',
  'core.hooksPath=/dev/null',
  'core.untrackedCache=false',
  'core.pager=cat',
  'core.askPass=',
  'core.sshCommand=',
  'core.gitProxy=',
  'credential.helper=',
  'diff.external=',
  'protocol.allow=never',
  'gc.auto=0',
  'maintenance.auto=false',
  'safe.bareRepository=explicit',
];

/** Set in git's environment, whatever DiffTray's own says. */
const NEUTRAL_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_ATTR_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_NO_REPLACE_OBJECTS: '1',
  GIT_NO_LAZY_FETCH: '1',
  GIT_PROTOCOL_FROM_USER: '0',
  // Git's error messages are matched (git-index.ts): in English, whatever the person's language.
  LC_ALL: 'C',
};

/**
 * The repository and its work tree, once found: a `core.worktree` set later, or a `.git` planted later in
 * a folder below the top (where git would otherwise find it first), does not move them.
 */
export interface PinnedRepository {
  gitDir: string;
  workTree: string;
}

/** git's arguments: the neutral settings first, then `args`. */
export function safeGitArgs(args: readonly string[], pinned?: PinnedRepository): string[] {
  const settings = NEUTRAL_GIT_CONFIG.flatMap((setting) => ['-c', setting]);
  const repository = pinned ? [`--git-dir=${pinned.gitDir}`, `--work-tree=${pinned.workTree}`] : [];
  return ['--no-optional-locks', ...settings, ...repository, ...args];
}

/** git's environment: `from` without any GIT_* variable, with the neutral ones set. */
export function safeGitEnv(from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(from)) {
    // Windows' variable names ignore case: `Git_Dir` is GIT_DIR there.
    const upper = key.toUpperCase();
    if (upper.startsWith('GIT_') || upper === 'LC_ALL') continue;
    env[key] = value;
  }
  return { ...env, ...NEUTRAL_GIT_ENV };
}

/**
 * The `git` program on PATH's absolute folders (the first that holds an executable file), or undefined.
 * `env` and `platform` are for tests.
 */
export function findGitProgram(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const windows = platform === 'win32';
  const pathKey = Object.keys(env).find((key) => (windows ? key.toUpperCase() === 'PATH' : key === 'PATH'));
  const folders = (pathKey ? env[pathKey] : undefined)?.split(windows ? ';' : ':') ?? [];
  const names = windows ? ['git.exe'] : ['git'];
  const absolute = windows ? path.win32.isAbsolute : path.posix.isAbsolute;
  for (const folder of folders) {
    // Relative and empty entries are skipped on purpose: they name the folder git would run in.
    if (!absolute(folder)) continue;
    for (const name of names) {
      const candidate = path.join(folder, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export type GitAnswer = { ok: true; stdout: Buffer } | { ok: false; stderr: string; tooLarge: boolean };

export interface SafeGitOptions {
  /** The most of stdout (and of stderr) taken; past it the answer is `tooLarge`. */
  maxBuffer: number;
  timeoutMs: number;
  /** Written to git's stdin. */
  input?: string | undefined;
  /** The repository and work tree to use rather than those found from `cwd`. */
  pinned?: PinnedRepository | undefined;
}

/** Runs git in `cwd` with the neutral settings and environment, never through a shell. */
export function runSafeGit(
  cwd: string,
  args: readonly string[],
  options: SafeGitOptions,
): Promise<GitAnswer> {
  const program = findGitProgram();
  if (program === undefined) {
    return Promise.resolve({ ok: false, stderr: 'git was not found on PATH', tooLarge: false });
  }
  return new Promise((resolve) => {
    const child = execFile(
      program,
      safeGitArgs(args, options.pinned),
      {
        cwd,
        encoding: 'buffer',
        maxBuffer: options.maxBuffer,
        timeout: options.timeoutMs,
        env: safeGitEnv(),
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, stdout });
        const code = (error as NodeJS.ErrnoException).code;
        resolve({
          ok: false,
          stderr: String(stderr ?? ''),
          tooLarge: code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER',
        });
      },
    );
    // git gone early (killed on timeout, say): its answer says so; the broken pipe is no news.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input);
  });
}
