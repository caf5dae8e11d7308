/**
 * What the tray reads from core and does to it, without Electron: the state it shows, Pause all /
 * Resume all, and the rejections on quit.
 */
import { clientPauseKey } from '../../shared/app-api';
import type { AppCore } from '../core/app-core';
import { QUIT_REJECT_REASON } from './quit-prompt';
import type { TrayState } from './tray-model';

export function trayStateOf(core: AppCore, openAtLogin: boolean): TrayState {
  const paused = new Set(core.queue.pausedClients().map((client) => client.key));
  const pausable = new Set(
    core.clients
      .list()
      .filter((client) => client.connected)
      .map(clientPauseKey)
      .filter((key) => !paused.has(key)),
  );
  return {
    pending: core.queue.pendingItems(),
    unpausedClients: pausable.size,
    pausedClients: paused.size,
    openAtLogin,
  };
}

/** Pauses reviews for every connected client: their next proposals pass through unreviewed. */
export function pauseAll(core: AppCore): void {
  for (const client of core.clients.list()) if (client.connected) core.queue.setPaused(client, true);
}

export function resumeAll(core: AppCore): void {
  for (const client of core.queue.pausedClients()) core.queue.resumeByKey(client.key);
}

/** Quitting ends every pending review: each agent gets a rejection saying why. Returns how many. */
export function rejectPendingOnQuit(core: AppCore): number {
  const pending = core.queue.pendingItems();
  for (const review of pending) core.queue.reject(review.id, QUIT_REJECT_REASON);
  return pending.length;
}
