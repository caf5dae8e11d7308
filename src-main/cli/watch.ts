/**
 * `difftray watch [--off] [folder]`: turns watch mode ("Review changes on disk") on or off for a folder
 * of the running app, as its switch does. The folder (default: the current one) is made absolute here;
 * DiffTray judges it by its real path, at the moment of asking.
 */
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, type WatchFolderResponse } from '../../shared/native-protocol';
import { isInside, joinUnresolved, resolveRealPath } from '../core/workspace/workspace-paths';
import { NativeClient, ProtocolError } from './client';
import { findDiffTray, type DiscoveryOptions } from './discovery';
import { ADD_WORKSPACE_FOLDER, CliError, tildePath } from './errors';
import { difftrayHome } from '../core/settings/settings';
import { readSettingsFile } from '../core/settings/settings-read';

export interface WatchRequest {
  /** As typed: relative to the current directory; default: the current directory. */
  folder?: string;
  off?: boolean;
}

export async function watch(
  request: WatchRequest,
  io: DiscoveryOptions & { out: (line: string) => void },
): Promise<number> {
  // Joined, not normalized: a `..` after a link climbs from the link's target, as DiffTray will judge it.
  const folder = request.folder === undefined ? io.cwd : joinUnresolved(io.cwd, request.folder);
  const on = !request.off;
  // The DiffTray whose workspace holds the folder, when several run.
  const { lock } = findDiffTray({ env: io.env, cwd: folder });
  // DiffTray remembers watched folders in its settings.json (beside its lock file): while that file is
  // broken it would watch now but forget it at the next start, so nothing is changed, and why is said.
  if (!lock.via) requireUsableSettings(io.env);
  const client = await NativeClient.connect(lock);
  let answer: WatchFolderResponse;
  try {
    answer = await client.request<WatchFolderResponse>('watch_folder', { folder, watch: on });
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    const workspace =
      error.code === ErrorCode.OUTSIDE_WORKSPACE
        ? ` (DiffTray's workspace: ${lock.workspaceFolders.join(', ')}); ${ADD_WORKSPACE_FOLDER}`
        : '';
    throw new CliError(`${error.message}${workspace}`);
  } finally {
    client.close();
  }
  // Resolved as DiffTray resolved it, so that it is found among the watched folders it answers.
  io.out(describeWatched(resolveRealPath(folder), on, answer.watched_folders));
  return 0;
}

function requireUsableSettings(env: NodeJS.ProcessEnv): void {
  const file = path.join(difftrayHome(env), 'settings.json');
  const read = readSettingsFile(file);
  if (read.writable) return;
  throw new CliError(
    `watch mode was not changed: ${tildePath(read.problem ?? file, os.homedir())}, and DiffTray remembers watched folders there`,
    2,
    'fix the file, or remove it to start again from the defaults',
  );
}

/** The line that says what is watched now, for `folder` (a real path) after turning it on or off. */
export function describeWatched(folder: string, on: boolean, watched: readonly string[]): string {
  if (!on) return `Stopped reviewing changes on disk in ${folder}`;
  if (watched.includes(folder)) {
    return `Reviewing changes on disk in ${folder} (turn off: difftray watch --off ${shellWord(folder)})`;
  }
  const outer = watched.find((candidate) => isInside(candidate, folder));
  if (outer === undefined) {
    throw new CliError(
      `DiffTray did not start watching ${folder} (watched: ${watched.join(', ') || 'none'})`,
    );
  }
  return (
    `Already reviewing changes on disk in ${folder}, as part of ${outer} ` +
    `(turn off: difftray watch --off ${shellWord(outer)})`
  );
}

/** `text` as one word for a POSIX shell: as is when it is safe so, else in single quotes. */
export function shellWord(text: string): string {
  if (/^[\w@%+=:,./~-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
