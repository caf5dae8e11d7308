/**
 * Whether DiffTray looks for updates, without Electron. Updates come from GitHub Releases through
 * electron-updater, and only when a release feed is configured: electron-builder writes
 * resources/app-update.yml only when electron-builder.yml has a `publish` entry, which it has not by
 * default. A development run, or DIFFTRAY_NO_UPDATES=1, never looks. DiffTray never restarts by
 * itself: a downloaded update waits for the person's "Restart to update" (or is installed at the next quit).
 */
import path from 'node:path';

/** Written by electron-builder beside app.asar when a publish provider is configured. */
export const UPDATE_FEED_FILE = 'app-update.yml';
/** How often a running DiffTray looks again. */
export const UPDATE_CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;

export interface UpdateContext {
  /** app.isPackaged: a development run has no feed and nothing to replace. */
  packaged: boolean;
  /** Whether the release feed file is there (updateFeedFile). */
  feedConfigured: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

export type UpdatePolicy = { check: true; everyMs: number } | { check: false; reason: string };

export function updateFeedFile(resourcesPath: string): string {
  return path.join(resourcesPath, UPDATE_FEED_FILE);
}

export function updatePolicy(context: UpdateContext): UpdatePolicy {
  if (context.env.DIFFTRAY_NO_UPDATES === '1') return { check: false, reason: 'DIFFTRAY_NO_UPDATES=1' };
  if (!context.packaged) return { check: false, reason: 'not a packaged app' };
  if (!context.feedConfigured) return { check: false, reason: 'no release feed configured' };
  return { check: true, everyMs: UPDATE_CHECK_INTERVAL_MS };
}

/** The notification once an update is downloaded. */
export function updateReadyNotice(version: string): { title: string; body: string } {
  return {
    title: `DiffTray ${version} is ready`,
    body: 'Choose "Restart to update" in the tray menu when it suits you.',
  };
}
