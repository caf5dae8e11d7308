/**
 * Turning "Review changes on disk" on or off (AppApi.setFolderWatched), from Connections or the empty
 * state. The folders with a call under way are held here, so every switch for a folder shows it busy
 * and a second click waits for the first answer instead of asking again. The outcome or the error is
 * said on the status line, as for every other call; the switch follows the next snapshot.
 */
import { create } from 'zustand';
import type { AppApi } from '../../shared/app-api';
import { errorMessage } from '../review/review-model';
import { useAppStore } from '../state/store';
import { watchOutcome } from './watch-folders';

interface WatchBusyState {
  busy: ReadonlySet<string>;
  mark(folder: string, busy: boolean): void;
}

export const useWatchBusy = create<WatchBusyState>()((set) => ({
  busy: new Set(),
  mark: (folder, busy) =>
    set((state) => {
      const next = new Set(state.busy);
      if (busy) next.add(folder);
      else next.delete(folder);
      return { busy: next };
    }),
}));

export async function setFolderWatched(api: AppApi, folder: string, watched: boolean): Promise<void> {
  const { busy, mark } = useWatchBusy.getState();
  if (busy.has(folder)) return;
  mark(folder, true);
  const { announce } = useAppStore.getState();
  try {
    await api.call('setFolderWatched', { folder, watched });
    announce(watchOutcome(folder, watched));
  } catch (error) {
    const folders = useAppStore.getState().snapshot?.workspaceFolders ?? [];
    announce(watchOutcome(folder, watched, errorMessage(error, folders)));
  } finally {
    mark(folder, false);
  }
}
