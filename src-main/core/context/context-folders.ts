/**
 * Which folder a context request means, and the ignore rules in force there. A folder is named by an
 * absolute path or a `file://` URL (seed 003's URIs), judged by its real path at the moment of asking:
 * it must be a workspace folder or inside one. The rules are git's (ignore-rules.ts), read as git reads
 * them: the global excludes file, `.git/info/exclude` and .gitignore files above the workspace folder
 * (git's own configuration, used as rules and never sent), then the workspace folder's .gitignore files,
 * read confined, folder by folder, as the walk reaches them. Outside a git work tree the .gitignore files
 * are honoured all the same (they say what the person means to leave out).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfinedDirectory } from '../disk/confined-directory';
import { rulesTextIn } from './confined-walk';
import { GitIndex } from '../watch/git-index';
import { IgnoreRules } from '../watch/ignore-rules';
import {
  isInside,
  PathOutsideWorkspaceError,
  resolveInsideWorkspace,
  resolveRealPath,
} from '../workspace/workspace-paths';
import { messageOf } from '../../../shared/error-message';

export class ContextFolderError extends Error {
  constructor(
    readonly problem: 'outside' | 'not-found' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

export interface ContextFolder {
  /** The workspace folder (real path) the folder is in: the innermost one. */
  root: string;
  /** The folder itself (real path). */
  folder: string;
}

/** An absolute path from a path or a `file://` URL; refused otherwise. */
export function pathOfUri(given: string): string {
  if (given.startsWith('file:')) {
    try {
      return fileURLToPath(given);
    } catch (error) {
      throw new ContextFolderError('invalid', `Not a file URL: ${messageOf(error)}`);
    }
  }
  if (!path.isAbsolute(given) || given.includes('\0')) {
    throw new ContextFolderError('invalid', `Not an absolute path or file:// URL: ${given}`);
  }
  return given;
}

/** The folder `given` names (null: the first workspace folder), checked to exist inside the workspace. */
export function resolveContextFolder(
  given: string | null | undefined,
  workspaceFolders: readonly string[],
): ContextFolder {
  const first = workspaceFolders[0];
  if (first === undefined) throw new ContextFolderError('not-found', 'DiffTray has no workspace folder');
  let folder: string;
  try {
    folder = resolveInsideWorkspace(given == null ? first : pathOfUri(given), workspaceFolders);
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError) {
      throw new ContextFolderError('outside', `${given} is outside DiffTray's workspace folders`);
    }
    throw error;
  }
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ContextFolderError('not-found', `Not a folder: ${given ?? folder}`);
  }
  const root = workspaceFolders
    .map((candidate) => resolveRealPath(candidate))
    .filter((real) => isInside(real, folder))
    .sort((a, b) => b.length - a.length)[0];
  if (root === undefined) {
    throw new ContextFolderError('outside', `${given} is outside DiffTray's workspace folders`);
  }
  return { root, folder };
}

/** The workspace folders as real paths, nested ones left out (their files are in the outer one). */
export function outermostFolders(workspaceFolders: readonly string[]): string[] {
  const real = [...new Set(workspaceFolders.map((folder) => resolveRealPath(folder)))];
  return real.filter((folder) => !real.some((other) => other !== folder && isInside(other, folder)));
}

export interface ContextRules {
  rules: IgnoreRules;
  gitTopLevel: string | undefined;
}

/**
 * The rules for walking `folder` inside workspace folder `root`: git's from above `root`, then the
 * .gitignore files from `root` down to `folder`'s parent, each read through its opened folder. Those
 * of `folder` and below are added by the walk (confined-walk.ts).
 */
export async function contextRules(
  { root, folder }: ContextFolder,
  folders: readonly string[],
): Promise<ContextRules> {
  const git = await GitIndex.find(root);
  const top = git && isInside(git.topLevel, root) ? git.topLevel : root;
  const rules = new IgnoreRules(root, top, { excludesFile: git?.excludesFile });
  const below = path.relative(root, folder);
  let current = root;
  for (const part of below === '' ? [] : below.split(path.sep)) {
    await loadConfined(rules, current, folders);
    current = path.join(current, part);
  }
  return { rules, gitTopLevel: git?.topLevel };
}

async function loadConfined(rules: IgnoreRules, folder: string, folders: readonly string[]): Promise<void> {
  let directory: ConfinedDirectory;
  try {
    directory = await ConfinedDirectory.open(folder, folders);
  } catch {
    return;
  }
  try {
    rules.setRules(directory.realPath, await rulesTextIn(directory));
  } finally {
    await directory.close();
  }
}

/** 'gitignore' when any git rules file had rules for the walk; else 'default' (.git, node_modules only). */
export function filterTypeOf(rules: IgnoreRules): 'gitignore' | 'default' {
  const any =
    rules.ruleFolders().length > 0 || rules.infoExclude !== undefined || rules.globalExcludes !== undefined;
  return any ? 'gitignore' : 'default';
}
