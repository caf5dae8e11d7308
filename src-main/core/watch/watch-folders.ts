/**
 * Which folders watch mode may watch, checked the same way for every way of asking (the settings file,
 * the app's switch, `difftray watch`): an existing folder, by its real path, inside a workspace folder.
 * A link inside the workspace that leads out of it is judged by where it leads.
 */
import { statSync } from 'node:fs';
import { ConfinedDirectory } from '../disk/confined-directory';
import {
  isInside,
  joinUnresolved,
  PathOutsideWorkspaceError,
  resolveRealPath,
} from '../workspace/workspace-paths';

export type WatchFolderProblem = 'outside' | 'not-folder';

export class WatchFolderError extends Error {
  constructor(
    readonly problem: WatchFolderProblem | 'covered' | 'stopped',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The real path of `requested` (absolute, or relative to `base`), or why it cannot be watched. Checked
 * at the moment of asking; watching then goes on inside that real path only.
 */
export function checkWatchFolder(
  requested: string,
  workspaceFolders: readonly string[],
  base: string,
): { folder: string } | { problem: WatchFolderProblem; message: string } {
  // Joined, not normalized: a `..` after a link climbs from the link's target, as the kernel does.
  const real = resolveRealPath(joinUnresolved(base, requested));
  if (!workspaceFolders.some((folder) => isInside(folder, real))) {
    return { problem: 'outside', message: `${real} is outside the workspace folders` };
  }
  if (!(statSync(real, { throwIfNoEntry: false })?.isDirectory() ?? false)) {
    return { problem: 'not-folder', message: `${real} is not a folder` };
  }
  return { folder: real };
}

/** `folders` without those inside another of them (whose changes the outer one already sees). */
export function outermostFolders(folders: readonly string[]): string[] {
  const unique = [...new Set(folders)];
  return unique.filter((folder) => !unique.some((other) => other !== folder && isInside(other, folder)));
}

/**
 * `dir` opened for reading, checked to lie in the watched folder `root` by the kernel's name for what
 * was opened, compared with `root` as it was when watching began, never resolved again: the watched
 * folder moved away and a link put in its place leads elsewhere, and nothing there is this folder's.
 */
export async function openInWatchedFolder(dir: string, root: string): Promise<ConfinedDirectory> {
  const directory = await ConfinedDirectory.open(dir, [root]);
  if (!isInside(root, directory.realPath)) {
    await directory.close();
    throw new PathOutsideWorkspaceError(`${dir} now leads to ${directory.realPath}, outside ${root}`);
  }
  return directory;
}
