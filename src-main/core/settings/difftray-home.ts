/**
 * DiffTray's own folder for settings, lock files and the like: $DIFFTRAY_HOME, else ~/.difftray. On its
 * own, with no dependencies, so the hook's first step can find it without loading the settings schema.
 */
import os from 'node:os';
import path from 'node:path';

export function difftrayHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.DIFFTRAY_HOME || path.join(os.homedir(), '.difftray');
}
