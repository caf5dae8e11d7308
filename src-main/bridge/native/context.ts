/**
 * Context commands (seed 003): the files of a workspace folder, and one file's content.
 *
 * .gitignore is honoured by asking git itself (`git ls-files --cached --others --exclude-standard`, run
 * by core/workspace/safe-git.ts so that nothing the workspace's git config names runs) when the folder is in a git
 * work tree and git is installed; elsewhere the folder is walked confined in a context worker
 * (core/context/file-tree-walk.ts: links and special files are never followed, a folder swapped for a
 * link while the walk runs is refused), leaving out `.git` and `node_modules` and what .gitignore files
 * found on the way say (`filter_type: 'gitignore'` if any had rules, else `'default'`).
 */
import path from 'node:path';
import type { FileTreeWalk } from '../../core/context/file-tree-walk';
import { hashBytes, readConfinedSnapshot } from '../../core/disk/disk-snapshot';
import { runSafeGit } from '../../core/workspace/safe-git';
import {
  isInside,
  joinUnresolved,
  PathOutsideWorkspaceError,
  resolveInsideWorkspace,
  resolveRealPath,
} from '../../core/workspace/workspace-paths';
import { ErrorCode, NATIVE_MAX_FILE_BYTES } from '../../../shared/native-protocol';
import { messageOf } from '../../../shared/error-message';

export class ContextError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_MAX_ENTRIES = 10_000;

export interface FileTree {
  folder: string;
  /** Paths relative to `folder`, with "/" separators, sorted. */
  files: string[];
  filter_type: 'gitignore' | 'default';
  truncated: boolean;
}

/** The folder get_file_tree means (a workspace folder or one inside one, by its real path), or refused. */
export function fileTreeFolder(given: string | undefined, workspaceFolders: readonly string[]): string {
  const folder = given === undefined ? workspaceFolders[0] : resolveRealPath(given);
  if (folder === undefined) throw new ContextError(ErrorCode.INTERNAL, 'DiffTray has no workspace folder');
  if (!path.isAbsolute(folder) || !workspaceFolders.some((root) => isInside(resolveRealPath(root), folder))) {
    throw new ContextError(ErrorCode.OUTSIDE_WORKSPACE, `${given} is outside DiffTray's workspace folders`);
  }
  return folder;
}

/**
 * The files of `folder` (from fileTreeFolder), at most `maxEntries` (default 10,000): git's list, or
 * else `walk`'s (walkFileTree, run in a context worker) of up to `limit` files.
 */
export async function getFileTree(
  folder: string,
  maxEntries: number | undefined,
  walk: (limit: number) => Promise<FileTreeWalk>,
): Promise<FileTree> {
  const max = maxEntries ?? DEFAULT_MAX_ENTRIES;
  const fromGit = await gitFiles(folder);
  const found = fromGit
    ? { files: fromGit, filterType: 'gitignore' as const, stopped: false }
    : await walk(max + 1);
  const files = found.files.sort();
  return {
    folder,
    files: files.slice(0, max),
    filter_type: found.filterType,
    truncated: files.length > max || found.stopped,
  };
}

async function gitFiles(folder: string): Promise<string[] | undefined> {
  const answer = await runSafeGit(
    folder,
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'],
    { maxBuffer: 256 * 1024 * 1024, timeoutMs: 20_000 },
  );
  if (!answer.ok) return undefined;
  return answer.stdout
    .toString('utf8')
    .split('\0')
    .filter((name) => name !== '');
}

export interface FileContent {
  path: string;
  content: string;
  sha256: string;
  size: number;
}

/** A text file inside the workspace; relative paths are taken from the first workspace folder. */
export async function getFileContent(
  given: string,
  workspaceFolders: readonly string[],
): Promise<FileContent> {
  const root = workspaceFolders[0];
  if (root === undefined) throw new ContextError(ErrorCode.INTERNAL, 'DiffTray has no workspace folder');
  let real: string;
  try {
    real = resolveInsideWorkspace(joinUnresolved(root, given), workspaceFolders);
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError) {
      throw new ContextError(ErrorCode.OUTSIDE_WORKSPACE, `${given} is outside DiffTray's workspace folders`);
    }
    throw error;
  }
  let snapshot;
  try {
    snapshot = await readConfinedSnapshot(real, workspaceFolders, NATIVE_MAX_FILE_BYTES);
  } catch (error) {
    throw new ContextError(ErrorCode.NOT_FOUND, messageOf(error));
  }
  if (!snapshot.exists) throw new ContextError(ErrorCode.NOT_FOUND, `Not found: ${given}`);
  if (snapshot.kind === 'opaque') {
    if (snapshot.why === 'too large') {
      throw new ContextError(ErrorCode.FILE_TOO_LARGE, `${given} is larger than the 10 MB limit`);
    }
    throw new ContextError(ErrorCode.BINARY_FILE, `${given} is ${snapshot.why}`);
  }
  const bytes = Buffer.from(snapshot.text, 'utf8');
  return { path: real, content: snapshot.text, sha256: hashBytes(bytes), size: bytes.length };
}
