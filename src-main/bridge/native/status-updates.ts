/**
 * seed 003 §3.3.2 `status_update`, pushed to the connections registered with register_active_target
 * when DiffTray's state changes in a way such a client cares about, and nothing more:
 * - 'info' when the file on screen changes (details.activeFilePath: the file, or null for none), so a
 *   client need not poll get_active_file_info;
 * - 'workspace_status' when the workspace folders (what is trusted) or the watched folders change
 *   (details: workspaceFolders, watchedFolders);
 * - 'connection_status' when DiffTray closes (sent by the endpoint before the sockets close).
 */
import type { ClientPort } from '../../core/clients/agent-session';
import { activeFileInfo } from './context-answers';
import type { NativeSessions } from './sessions';

/** Starts the pushes; returns the way to stop them. */
export function pushStatusUpdates(port: ClientPort, sessions: NativeSessions): () => void {
  let lastActive: string | null | undefined;
  const stopScreen = port.onReviewShown(() => {
    const active = activeFileInfo(port)?.activeFilePath ?? null;
    if (active === lastActive) return;
    lastActive = active;
    sessions.pushStatus({
      message: active === null ? 'No file on screen' : `On screen: ${active}`,
      statusType: 'info',
      details: { activeFilePath: active },
    });
  });
  let watchedNow: readonly string[] = [];
  const stopWatched = port.onWatchedFolders((watched) => {
    watchedNow = watched;
    sessions.pushStatus({
      message: watched.length === 0 ? 'No folder watched' : `Watched folders: ${watched.join(', ')}`,
      statusType: 'workspace_status',
      details: { workspaceFolders: [...port.workspaceFolders], watchedFolders: [...watched] },
    });
  });
  const stopWorkspace = port.onWorkspaceFolders((folders) =>
    sessions.pushStatus({
      message: folders.length === 0 ? 'No workspace folder' : `Workspace folders: ${folders.join(', ')}`,
      statusType: 'workspace_status',
      details: { workspaceFolders: [...folders], watchedFolders: [...watchedNow] },
    }),
  );
  return () => {
    stopScreen();
    stopWatched();
    stopWorkspace();
  };
}
