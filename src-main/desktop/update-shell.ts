/** Updates with electron-updater, as updates.ts decides: look, download, and wait for the person. */
import { autoUpdater } from 'electron-updater';
import type { UpdatePolicy } from './updates';
import { messageOf } from '../../shared/error-message';

/**
 * Looks for an update now and then every `policy.everyMs`, downloading what it finds; `onReady` is told
 * the version once one is downloaded. Nothing restarts the app: the update is installed when the person
 * chooses "Restart to update", or at the next quit. Answers a function that stops looking.
 */
export function startUpdates(policy: UpdatePolicy, onReady: (version: string) => void): () => void {
  if (!policy.check) return () => {};
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;
  autoUpdater.on('update-downloaded', (info) => onReady(info.version));
  // No network, a release without files for this platform...: the next look may do better.
  autoUpdater.on('error', (error) => console.warn(`DiffTray update: ${error.message}`));
  const look = () => {
    autoUpdater.checkForUpdates().catch((error: unknown) => {
      console.warn(`DiffTray update: ${messageOf(error)}`);
    });
  };
  look();
  const timer = setInterval(look, policy.everyMs);
  return () => clearInterval(timer);
}

/** The person chose "Restart to update" (pending reviews were already dealt with). */
export function restartToUpdate(): void {
  autoUpdater.quitAndInstall();
}
