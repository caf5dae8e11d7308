/**
 * The text git's index holds for a file: the baseline of a file in a git work tree the first time it
 * changes. Read with `git cat-file blob :0:<path>` (the staged blob, raw: no textconv, no filters), or for
 * many files at once with `git cat-file --batch` (a burst of hundreds of files costs a few processes, not
 * hundreds); bounded in bytes and time, and never through a shell. Every command is run by safe-git.ts,
 * so that no program the workspace's git config or attributes name runs, and none of them converts
 * content (so no filter driver could run even if one were named).
 */
import { lstatSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { looksBinary } from '../disk/disk-snapshot';
import { MAX_FILE_BYTES } from '../limits';
import { runSafeGit, type GitAnswer, type PinnedRepository } from '../workspace/safe-git';
import { readSmallFileSync } from '../disk/small-file-read';
import { isInside } from '../workspace/workspace-paths';
import { parseBatch, parseBatchCheck } from './cat-file-batch';

/** How long one git command may take before its answer is given up on. */
const GIT_TIMEOUT_MS = 10_000;

export type IndexText =
  { kind: 'text'; text: string } | { kind: 'absent' } | { kind: 'unknown'; why: string };

/** The most of a file listing read from git (about 100,000 paths). */
const MAX_LISTING_BYTES = 16 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** git, run as safe-git.ts says (nothing the workspace names runs); `input` is written to its stdin. */
function runGit(
  cwd: string,
  args: string[],
  maxBuffer: number,
  input?: string,
  pinned?: PinnedRepository,
): Promise<GitAnswer> {
  return runSafeGit(cwd, args, { maxBuffer, timeoutMs: GIT_TIMEOUT_MS, input, pinned });
}

/** Where git looks for global excludes when core.excludesFile is unset (git's xdg_config_home). */
function defaultExcludesFile(): string | undefined {
  const xdg = process.env.XDG_CONFIG_HOME;
  if (xdg) return path.join(xdg, 'git', 'ignore');
  const home = process.env.HOME || (process.platform === 'win32' ? os.homedir() : undefined);
  return home ? path.join(home, '.config', 'git', 'ignore') : undefined;
}

export class GitIndex {
  private constructor(
    readonly topLevel: string,
    /** The global excludes file git reads in this work tree (core.excludesFile or its default). */
    readonly excludesFile: string | undefined,
    /** The repository and work tree found at start, used by every later command. */
    private readonly pinned: PinnedRepository,
  ) {}

  /**
   * The git work tree `folder` is in, or undefined (no git, not a work tree, git missing, or a work
   * tree that is not where its repository's `.git` is: see `isOwnWorkTree`).
   */
  static async find(folder: string): Promise<GitIndex | undefined> {
    const [answer, excludes] = await Promise.all([
      runGit(folder, ['rev-parse', '--show-toplevel', '--absolute-git-dir'], 64 * 1024),
      runGit(folder, ['config', '--path', 'core.excludesFile'], 64 * 1024),
    ]);
    if (!answer.ok) return undefined;
    const [top = '', gitDir = ''] = answer.stdout.toString('utf8').split('\n');
    if (top === '' || gitDir === '') return undefined;
    let topLevel: string;
    let realFolder: string;
    try {
      topLevel = realpathSync(top);
      realFolder = realpathSync(folder);
    } catch {
      return undefined;
    }
    if (!isInside(topLevel, realFolder) || !isOwnWorkTree(topLevel, gitDir)) return undefined;
    // Unset (git config fails): git's default, in the XDG config folder.
    const configured = excludes.ok ? excludes.stdout.toString('utf8').replace(/\r?\n$/, '') : undefined;
    const excludesFile =
      configured === undefined
        ? defaultExcludesFile()
        : configured === ''
          ? undefined
          : path.resolve(topLevel, configured);
    return new GitIndex(topLevel, excludesFile, { gitDir, workTree: topLevel });
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
      undefined,
      this.pinned,
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
    const relative = this.relative(file);
    if (relative === undefined) return { kind: 'unknown', why: 'outside the git work tree' };
    // The buffer bounds git's error message too: room for one, however small maxBytes is.
    const buffer = Math.max(maxBytes + 1, 64 * 1024);
    const answer = await runGit(
      this.topLevel,
      ['cat-file', 'blob', indexName(relative)],
      buffer,
      undefined,
      this.pinned,
    );
    if (answer.ok && answer.stdout.length > maxBytes) return { kind: 'unknown', why: TOO_LARGE };
    if (!answer.ok) {
      if (answer.tooLarge) return { kind: 'unknown', why: TOO_LARGE };
      // "fatal: path '...' does not exist in the index" / "...exists on disk, but not in the index".
      if (/not in the index|does not exist|Not a valid object name/i.test(answer.stderr))
        return { kind: 'absent' };
      return { kind: 'unknown', why: `git could not read it: ${answer.stderr.trim().slice(0, 200)}` };
    }
    return decoded(answer.stdout);
  }

  /**
   * What the index holds for many `files` at once: the same answers as text() gives, by file, read with
   * two or three git processes whatever their number. Left out, for text() to read one by one: a name
   * --batch cannot carry (a newline in it), one git lists in a merge conflict (text() says why it is
   * unknown), one that is not a blob, those past `maxTotalBytes`, and all of them if git fails.
   */
  async texts(
    files: readonly string[],
    maxBytes = MAX_FILE_BYTES,
    maxTotalBytes = Number.POSITIVE_INFINITY,
  ): Promise<Map<string, IndexText>> {
    const results = new Map<string, IndexText>();
    const asked = files.flatMap((file) => {
      const relative = this.relative(file);
      return relative === undefined || /[\n\r]/.test(relative) ? [] : [{ file, relative }];
    });
    if (asked.length === 0) return results;
    // Sizes first: a blob too large is never read.
    const check = await runGit(
      this.topLevel,
      ['cat-file', '--batch-check', '--buffer'],
      MAX_LISTING_BYTES,
      asked.map(({ relative }) => `${indexName(relative)}\n`).join(''),
      this.pinned,
    );
    const answers = check.ok ? parseBatchCheck(check.stdout, asked.length) : undefined;
    if (!answers) return results;
    const missing: string[] = [];
    const wanted = new Map<string, string[]>();
    let total = 0;
    answers.forEach((answer, index) => {
      const { file } = asked[index]!;
      if (!answer.found) missing.push(file);
      else if (answer.type !== 'blob') return;
      else if (answer.size > maxBytes) results.set(file, { kind: 'unknown', why: TOO_LARGE });
      else if (wanted.has(answer.oid)) wanted.get(answer.oid)!.push(file);
      else if (total + answer.size <= maxTotalBytes) {
        total += answer.size;
        wanted.set(answer.oid, [file]);
      }
    });
    // Not at stage 0 is "missing" too: a file in a merge conflict is no new file.
    const conflicted = missing.length > 0 ? await this.unmerged() : new Set<string>();
    if (conflicted === undefined) return new Map();
    for (const file of missing) if (!conflicted.has(file)) results.set(file, { kind: 'absent' });
    if (wanted.size === 0) return results;
    const batch = await runGit(
      this.topLevel,
      ['cat-file', '--batch', '--buffer'],
      total + wanted.size * 128,
      [...wanted.keys()].map((oid) => `${oid}\n`).join(''),
      this.pinned,
    );
    const blobs = batch.ok ? parseBatch(batch.stdout) : undefined;
    for (const [oid, bytes] of blobs ?? []) {
      const text = decoded(bytes);
      for (const file of wanted.get(oid) ?? []) results.set(file, text);
    }
    return results;
  }

  /** The files with entries in a merge conflict (stages 1 to 3), or undefined if git cannot say. */
  private async unmerged(): Promise<Set<string> | undefined> {
    const answer = await runGit(
      this.topLevel,
      ['ls-files', '-z', '--unmerged'],
      MAX_LISTING_BYTES,
      undefined,
      this.pinned,
    );
    if (!answer.ok) return undefined;
    const files = new Set<string>();
    for (const entry of answer.stdout.toString('utf8').split('\0')) {
      const tab = entry.indexOf('\t');
      if (tab !== -1) files.add(path.join(this.topLevel, ...entry.slice(tab + 1).split('/')));
    }
    return files;
  }

  /** `file` as git names it from the top (forward slashes), or undefined outside the work tree. */
  private relative(file: string): string | undefined {
    const relative = path.relative(this.topLevel, file).split(path.sep).join('/');
    return relative === '' || !isInside(this.topLevel, file) ? undefined : relative;
  }
}

const TOO_LARGE = 'too large in the git index';

/**
 * Whether `topLevel` is the work tree git's own `.git` in it leads to: `.git` there is the repository
 * `gitDir` (a folder, or a link to one), or a `.git` file (`gitdir: ...`, as a linked work tree or a
 * submodule has) naming it. Not so when `core.worktree` (which an agent can write into `.git/config`)
 * moved the work tree elsewhere, say to the person's home: then git would list and read another tree
 * than the folder's, and watch mode takes the folder as not in git (its start snapshot is the baseline).
 * A `.git` file may lead to a repository outside the workspace (a linked work tree's is in the main
 * one): git only reads there, and nothing it names runs (safe-git.ts).
 */
function isOwnWorkTree(topLevel: string, gitDir: string): boolean {
  const dotGit = path.join(topLevel, '.git');
  try {
    const target = lstatSync(dotGit).isFile() ? gitdirOf(dotGit, topLevel) : dotGit;
    return target !== undefined && realpathSync(target) === realpathSync(gitDir);
  } catch {
    return false;
  }
}

/** The repository a `.git` file names (`gitdir: <path>`, relative to the file's folder). */
function gitdirOf(dotGit: string, topLevel: string): string | undefined {
  const read = readSmallFileSync(dotGit, 4096);
  const named = read.ok ? /^gitdir: *(.+?)\r?$/m.exec(read.text)?.[1] : undefined;
  return named === undefined ? undefined : path.resolve(topLevel, named);
}

/** The staged blob's name: with the stage said, a file named like `1:x` is not read as stage 1 of `x`. */
function indexName(relative: string): string {
  return `:0:${relative}`;
}

function decoded(bytes: Buffer): IndexText {
  if (looksBinary(bytes)) return { kind: 'unknown', why: 'binary in the git index' };
  try {
    return { kind: 'text', text: utf8.decode(bytes) };
  } catch {
    return { kind: 'unknown', why: 'not UTF-8 in the git index' };
  }
}
