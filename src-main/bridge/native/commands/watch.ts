/** `watch_folder`: turns watch mode on or off for a folder, as the app's switch and settings.json do. */
import path from 'node:path';
import { ErrorCode, type WatchFolderResponse } from '../../../../shared/native-protocol';
import { WatchFolderError } from '../../../core/watch/watch-folders';
import { defineCommand, RequestError } from './command';

export const watchFolder = defineCommand('watch_folder', async (payload, { services, respond }) => {
  const { watch } = services;
  if (!watch) throw new RequestError(ErrorCode.INTERNAL, 'Watch mode is not available here');
  const { folder } = payload;
  // Relative paths would be taken from the first workspace folder (as in settings.json): a client
  // says what it means instead. A NUL is no path any system call takes.
  if (!path.isAbsolute(folder) || folder.includes('\0')) {
    throw new RequestError(
      ErrorCode.INVALID_PAYLOAD,
      'Invalid payload for watch_folder: folder: an absolute path',
    );
  }
  try {
    const response: WatchFolderResponse = { watched_folders: await watch.setWatched(folder, payload.watch) };
    respond(response);
  } catch (error) {
    if (error instanceof WatchFolderError) throw new RequestError(CODES[error.problem], error.message);
    throw error;
  }
});

const CODES: Record<WatchFolderError['problem'], ErrorCode> = {
  outside: ErrorCode.OUTSIDE_WORKSPACE,
  'not-folder': ErrorCode.NOT_FOUND,
  // The request is well formed, but names a folder that is only watched as part of another.
  covered: ErrorCode.INVALID_PAYLOAD,
  stopped: ErrorCode.INTERNAL,
};
