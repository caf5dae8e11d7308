/**
 * "Choose folder…" in the desktop app: the window's pickFolder call is answered here with the native
 * folder dialog (core refuses it, as a browser has none); every other call goes on to core's handler.
 * The dialog is passed in, so this is tested without Electron.
 */
import { appApiContract } from '../../shared/app-api';
import type { AppApiHandler } from '../core/app-api-handler';

export interface FolderDialogOptions {
  properties: Array<'openDirectory' | 'createDirectory'>;
}

/** Electron's dialog.showOpenDialog, bound to the window it belongs to. */
export type ShowFolderDialog = (
  options: FolderDialogOptions,
) => Promise<{ canceled: boolean; filePaths: string[] }>;

/** A folder, which the person may also create from the dialog (macOS offers a button for it). */
export const FOLDER_DIALOG_OPTIONS: FolderDialogOptions = {
  properties: ['openDirectory', 'createDirectory'],
};

/** The folder chosen, or null when the dialog was cancelled. */
export async function pickFolder(show: ShowFolderDialog): Promise<string | null> {
  const result = await show(FOLDER_DIALOG_OPTIONS);
  if (result.canceled) return null;
  return result.filePaths[0] ?? null;
}

/** The window's calls: pickFolder is the shell's own, anything else is core's. */
export function desktopCalls(handler: AppApiHandler, show: ShowFolderDialog): AppApiHandler {
  return async (method, params, subscription) => {
    if (method !== 'pickFolder') return handler(method, params, subscription);
    // Refused as core refuses any call with parameters it does not take.
    if (!appApiContract.pickFolder.params.safeParse(params ?? {}).success) {
      return handler(method, params, subscription);
    }
    return pickFolder(show);
  };
}
