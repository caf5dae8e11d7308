/**
 * `--workspace <folder>` must name a folder that exists. Checked before anything starts: a typo is said
 * (exit 2), not taken for an empty workspace in which every edit would be refused as outside it.
 * Resolved as the runtime resolves it (settings.ts resolveWorkspaceFolders): `~/` is the home folder, a
 * relative path starts at the app's current directory.
 */
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expandHome } from './core/settings/settings';
import { messageOf } from '../shared/error-message';

/** A command-line mistake: the app does not start, and exits with 2, as the `difftray` command does. */
export class LaunchArgsError extends Error {
  readonly exitCode = 2;
}

export function checkWorkspaceArgs(
  folders: readonly string[],
  cwd: string = process.cwd(),
  home: string = os.homedir(),
): void {
  for (const given of folders) {
    const absolute = path.resolve(cwd, expandHome(given, home));
    const shown = absolute === given ? given : `${given} (${absolute})`;
    let isFolder: boolean;
    try {
      isFolder = statSync(absolute).isDirectory();
    } catch (error) {
      const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT';
      throw new LaunchArgsError(
        `--workspace ${shown}: ${missing ? 'no such folder' : messageOf(error)}; name an existing folder`,
      );
    }
    if (!isFolder) throw new LaunchArgsError(`--workspace ${shown}: not a folder; name an existing folder`);
  }
}
