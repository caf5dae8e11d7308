/**
 * Context commands (seed 003): the files of a workspace folder, and one file's content.
 *
 * .gitignore is honoured by asking git itself (`git ls-files --cached --others --exclude-standard`)
 * when the folder is in a git work tree and git is installed; elsewhere the folder is walked, leaving
 * out `.git` and `node_modules` only (`filter_type: 'default'`). No ignore-file parser is bundled.
 */
import { execFile } from 'node:child_process';
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { hashBytes, readConfinedSnapshot } from '../../core/disk-snapshot';
import {
  isInside,
  joinUnresolved,
  PathOutsideWorkspaceError,
  resolveInsideWorkspace,
  resolveRealPath,
} from '../../core/workspace-paths';
import { ErrorCode, NATIVE_MAX_FILE_BYTES } from '../../../shared/native-protocol';

export class ContextError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_MAX_ENTRIES = 10_000;
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

export interface FileTree {
  folder: string;
  /** Paths relative to `folder`, with "/" separators, sorted. */
  files: string[];
  filter_type: 'gitignore' | 'default';
  truncated: boolean;
}

export async function getFileTree(
  payload: { folder?: string | undefined; max_entries?: number | undefined },
  workspaceFolders: readonly string[],
): Promise<FileTree> {
  const folder = payload.folder === undefined ? workspaceFolders[0] : resolveRealPath(payload.folder);
  if (folder === undefined) throw new ContextError(ErrorCode.INTERNAL, 'DiffTray has no workspace folder');
  if (!path.isAbsolute(folder) || !workspaceFolders.some((root) => isInside(resolveRealPath(root), folder))) {
    throw new ContextError(
      ErrorCode.OUTSIDE_WORKSPACE,
      `${payload.folder} is outside DiffTray's workspace folders`,
    );
  }
  const max = payload.max_entries ?? DEFAULT_MAX_ENTRIES;
  const fromGit = await gitFiles(folder);
  const all = fromGit ?? (await walk(folder, max + 1));
  const files = all.sort();
  return {
    folder,
    files: files.slice(0, max),
    filter_type: fromGit ? 'gitignore' : 'default',
    truncated: files.length > max,
  };
}

function gitFiles(folder: string): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'],
      { cwd: folder, maxBuffer: 256 * 1024 * 1024, timeout: 20_000, windowsHide: true },
      (error, stdout) => {
        if (error) return resolve(undefined);
        resolve(stdout.split('\0').filter((name) => name !== ''));
      },
    );
  });
}

async function walk(root: string, limit: number): Promise<string[]> {
  const out: string[] = [];
  const queue = [''];
  while (queue.length > 0 && out.length < limit) {
    const relative = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(root, relative), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!ALWAYS_SKIPPED.has(entry.name)) queue.push(name);
      } else if (entry.isFile()) {
        out.push(name);
      }
    }
  }
  return out;
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
    throw new ContextError(ErrorCode.NOT_FOUND, (error as Error).message);
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
