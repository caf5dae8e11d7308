/**
 * The text git's index holds for a file: the baseline of a file in a git work tree the first time it
 * changes. Read with `git cat-file blob :<path>` (the staged blob, raw: no textconv, no filters), bounded
 * in bytes and time, and never through a shell.
 */
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { looksBinary } from '../disk-snapshot';
import { MAX_FILE_BYTES } from '../limits';

/** How long one git command may take before its answer is given up on. */
const GIT_TIMEOUT_MS = 10_000;

export type IndexText =
  { kind: 'text'; text: string } | { kind: 'absent' } | { kind: 'unknown'; why: string };

/** The most of a file listing read from git (about 100,000 paths). */
const MAX_LISTING_BYTES = 16 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function runGit(
  cwd: string,
  args: string[],
  maxBuffer: number,
): Promise<{ ok: true; stdout: Buffer } | { ok: false; stderr: string; tooLarge: boolean }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      // Only what git needs: a GIT_DIR or GIT_INDEX_FILE of DiffTray's own environment must not steer it.
      { cwd, encoding: 'buffer', maxBuffer, timeout: GIT_TIMEOUT_MS, env: gitEnv() },
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
  });
}

/** Where git looks for global excludes when core.excludesFile is unset (git's xdg_config_home). */
function defaultExcludesFile(): string | undefined {
  const xdg = process.env.XDG_CONFIG_HOME;
  if (xdg) return path.join(xdg, 'git', 'ignore');
  const home = process.env.HOME || (process.platform === 'win32' ? os.homedir() : undefined);
  return home ? path.join(home, '.config', 'git', 'ignore') : undefined;
}

function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return env;
}

export class GitIndex {
  private constructor(
    readonly topLevel: string,
    /** The global excludes file git reads in this work tree (core.excludesFile or its default). */
    readonly excludesFile: string | undefined,
  ) {}

  /** The git work tree `folder` is in, or undefined (no git, not a work tree, git missing). */
  static async find(folder: string): Promise<GitIndex | undefined> {
    const [answer, excludes] = await Promise.all([
      runGit(folder, ['rev-parse', '--show-toplevel'], 64 * 1024),
      runGit(folder, ['config', '--path', 'core.excludesFile'], 64 * 1024),
    ]);
    if (!answer.ok) return undefined;
    const top = answer.stdout.toString('utf8').trim();
    if (top === '') return undefined;
    let topLevel: string;
    try {
      topLevel = realpathSync(top);
    } catch {
      return undefined;
    }
    // Unset (git config fails): git's default, in the XDG config folder.
    const configured = excludes.ok ? excludes.stdout.toString('utf8').replace(/\r?\n$/, '') : undefined;
    const excludesFile =
      configured === undefined
        ? defaultExcludesFile()
        : configured === ''
          ? undefined
          : path.resolve(topLevel, configured);
    return new GitIndex(topLevel, excludesFile);
  }

  /**
   * The untracked, not ignored files under `folder` (absolute), or undefined if git cannot say. Their
   * first baseline is the start snapshot, since the index has none.
   */
  async untracked(folder: string): Promise<string[] | undefined> {
    const answer = await runGit(
      folder,
      ['ls-files', '-z', '--others', '--exclude-standard', '--full-name'],
      MAX_LISTING_BYTES,
    );
    if (!answer.ok) return undefined;
    return answer.stdout
      .toString('utf8')
      .split('\0')
      .filter((name) => name !== '')
      .map((name) => path.join(this.topLevel, ...name.split('/')));
  }

  /** What the index holds for `file` (absolute, inside the work tree). */
  async text(file: string, maxBytes = MAX_FILE_BYTES): Promise<IndexText> {
    const relative = path.relative(this.topLevel, file).split(path.sep).join('/');
    if (relative === '' || relative.startsWith('..'))
      return { kind: 'unknown', why: 'outside the git work tree' };
    const answer = await runGit(this.topLevel, ['cat-file', 'blob', `:${relative}`], maxBytes + 1);
    if (!answer.ok) {
      if (answer.tooLarge) return { kind: 'unknown', why: 'too large in the git index' };
      // "fatal: path '...' does not exist in the index" / "...exists on disk, but not in the index".
      if (/not in the index|does not exist|Not a valid object name/i.test(answer.stderr))
        return { kind: 'absent' };
      return { kind: 'unknown', why: `git could not read it: ${answer.stderr.trim().slice(0, 200)}` };
    }
    if (looksBinary(answer.stdout)) return { kind: 'unknown', why: 'binary in the git index' };
    try {
      return { kind: 'text', text: utf8.decode(answer.stdout) };
    } catch {
      return { kind: 'unknown', why: 'not UTF-8 in the git index' };
    }
  }
}
