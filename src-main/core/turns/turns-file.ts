/**
 * The agent sessions whose turns follow files, mirrored into `<DIFFTRAY_HOME>/turns.json` for the hooks'
 * first step (src-main/cli/hooks/hook-prefilter.ts): an end of turn that wrote nothing DiffTray follows
 * then ends at once, without loading the protocol client or asking DiffTray (bench/hook.bench.ts). Listed:
 * every session whose turn follows a file, and open turns inside watched folders.
 * As hook-pauses.json: the file names the DiffTray that wrote it (`pid`), one left by a DiffTray that is
 * gone counts for nothing, and it is removed when DiffTray stops; a hook that cannot read it asks.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { messageOf } from '../../../shared/error-message';
import { writeFileAtomically } from '../disk/atomic-file';
import type { AppCore } from '../app-core';
import { isInside } from '../workspace/workspace-paths';
import type { Turn } from './agent-turns';

export const TURNS_FILE = 'turns.json';

export interface TurnsFile {
  pid: number;
  /** turnKey of each session whose turn follows files: `<client name>\0<agent session id>`. */
  following: string[];
}

/**
 * Keeps the file in step with the turns, and with the folders watch mode watches (an open turn in one may
 * be handed a shell command's writes at its end); returns what removes it.
 */
export function mirrorTurnsToFile(
  core: Pick<AppCore, 'turns' | 'onWatchedFolders'>,
  home: string,
  log: (line: string) => void,
): () => void {
  const { turns } = core;
  const file = path.join(home, TURNS_FILE);
  let watched: readonly string[] = [];
  const inWatched = (turn: Turn) =>
    watched.some((folder) => isInside(folder, turn.cwd) || isInside(turn.cwd, folder));
  const write = () => {
    const content: TurnsFile = { pid: process.pid, following: turns.following(inWatched) };
    try {
      writeFileAtomically(file, `${JSON.stringify(content)}\n`);
    } catch (error) {
      // Hooks then ask DiffTray itself at every end of turn: slower, never wrong.
      rmSync(file, { force: true });
      log(`The turns could not be written for the hooks (${file}): ${messageOf(error)}`);
    }
  };
  write();
  const stopTurns = turns.onFollowingChange(write);
  const stopWatched = core.onWatchedFolders((folders) => {
    watched = folders;
    write();
  });
  return () => {
    stopTurns();
    stopWatched();
    rmSync(file, { force: true });
  };
}
