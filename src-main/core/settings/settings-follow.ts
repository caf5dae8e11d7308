/**
 * What core takes from settings.json and gives back to it: the settings shown to the windows, paused
 * clients remembered across restarts (and hand edits of them followed), and auto-apply read as each
 * review arrives.
 */
import { clientPauseKey } from '../../../shared/client-protocols';
import { sameValue } from '../../../shared/state-sync';
import { autoAppliesTo } from '../review/auto-apply';
import type { ReviewQueue } from '../review/review-queue';
import { pausedClients } from './settings';
import type { SettingsStore } from './settings-store';
import type { StateFeed } from '../state-feed';
import { messageOf } from '../../../shared/error-message';

export function followSettings(
  store: SettingsStore,
  queue: ReviewQueue,
  feed: StateFeed,
  log: (message: string) => void,
): void {
  let shown: unknown;
  const show = () => {
    const now = { settings: store.settings, settingsFile: store.fileState() };
    // main's own keys change too (watched folders...): the windows hear only of what they show.
    if (sameValue(now, shown)) return;
    shown = now;
    feed.setSettings(now.settings, now.settingsFile);
  };
  show();
  store.onChange(show);

  // Read at start, so a paused client stays paused after a restart; written at each change.
  for (const client of pausedClients(store.main, log)) queue.setPaused(client, true);
  // A hand edit of the list applies too, but only from a file DiffTray can read whole: a broken one
  // gives the defaults, which would resume every client.
  store.onChange(() => {
    if (store.fileState().problem !== undefined) return;
    const wanted = pausedClients(store.main, () => {});
    const wantedKeys = new Set(wanted.map((client) => clientPauseKey(client)));
    for (const client of queue.pausedClients()) {
      if (!wantedKeys.has(client.key)) queue.setPaused(client, false);
    }
    for (const client of wanted) queue.setPaused(client, true);
  });
  queue.onChange((change) => {
    if (change.kind !== 'paused') return;
    try {
      store.write({ pausedClients: queue.pausedClients() });
    } catch (error) {
      log(`Paused clients are not remembered for the next start: ${messageOf(error)}`);
    }
  });

  // Read as each review arrives: a change in Settings or in the file applies to the next one.
  queue.autoApplyWhen((client) => autoAppliesTo(store.settings.autoApply, client));
}
