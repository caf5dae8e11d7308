/**
 * The paused clients, mirrored into `<DIFFTRAY_HOME>/hook-pauses.json` for the hooks' first step
 * (src-main/cli/hooks/hook-prefilter.ts): an agent's hook runs on every tool call, and a paused agent's
 * hook then prints nothing at once, without loading the protocol client or asking DiffTray.
 * The file names the DiffTray that wrote it (`pid`), so one left by a DiffTray that is gone counts for
 * nothing; it is removed when DiffTray stops. Reading it never allows anything: a paused hook only leaves
 * the call to the agent's own permission flow, as with DiffTray not running.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { messageOf } from '../../../../shared/error-message';
import { writeFileAtomically } from '../../disk/atomic-file';
import type { ReviewQueue } from '../review-queue';

export const HOOK_PAUSES_FILE = 'hook-pauses.json';

export interface HookPausesFile {
  pid: number;
  /** clientPauseKey of each paused client: `<protocol>:<name>`. */
  paused: string[];
}

/** Keeps the file in step with the queue's pauses; returns what removes it. */
export function mirrorPausesToFile(
  queue: ReviewQueue,
  home: string,
  log: (line: string) => void,
): () => void {
  const file = path.join(home, HOOK_PAUSES_FILE);
  const write = () => {
    const content: HookPausesFile = {
      pid: process.pid,
      paused: queue.pausedClients().map((client) => client.key),
    };
    try {
      writeFileAtomically(file, `${JSON.stringify(content)}\n`);
    } catch (error) {
      // Hooks then ask DiffTray itself, which knows the pauses: slower, never wrong.
      log(`The pauses could not be written for the hooks (${file}): ${messageOf(error)}`);
    }
  };
  write();
  const stop = queue.onChange((change) => {
    if (change.kind === 'paused') write();
  });
  return () => {
    stop();
    rmSync(file, { force: true });
  };
}
