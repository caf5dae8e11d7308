import { useApi } from '../state/api-context';
import { WATCH_GUIDE } from '../settings/cli-guides';
import { useSidebarTab } from '../state/sidebar-tab';
import { WATCH_SWITCH_LABEL, watchedInWorkspace } from './watch-folders';
import { setFolderWatched, useWatchBusy } from './watch-toggle';
import { CopyCommand } from './CopyCommand';
import './WatchGuide.css';

/** Opens Connections, where each workspace folder has its switch, and moves focus to its tab. */
export function OpenConnections() {
  const setTab = useSidebarTab((s) => s.setTab);
  const open = (): void => {
    setTab('connections');
    // The person asked to go there: focus follows, as an arrow key on the tabs does.
    requestAnimationFrame(() => document.getElementById('dt-tab-connections')?.focus());
  };
  return (
    <button type="button" onClick={open}>
      Open Connections
    </button>
  );
}

/** The one workspace folder's switch, as a button: turns watch mode on for it. */
function TurnOn({ folder }: { folder: string }) {
  const api = useApi();
  const busy = useWatchBusy((s) => s.busy.has(folder));
  return (
    <>
      Turn on “{WATCH_SWITCH_LABEL}” for <code>{folder}</code>{' '}
      <button
        type="button"
        aria-label={`Turn on ${WATCH_SWITCH_LABEL} in ${folder}`}
        aria-busy={busy || undefined}
        onClick={() => void setFolderWatched(api, folder, true)}
      >
        Turn on
      </button>
    </>
  );
}

/**
 * The empty state's entry for agents that write files directly (Codex CLI, Aider…): watch mode, turned
 * on here for the one workspace folder (or in Connections when there are several), or with
 * `difftray watch`. Once a folder is watched it says which instead.
 */
export function WatchGuide({
  workspaceFolders,
  watchedFolders,
}: {
  workspaceFolders: readonly string[];
  watchedFolders: readonly string[];
}) {
  const watched = watchedInWorkspace(workspaceFolders, watchedFolders);
  const only = workspaceFolders.length === 1 ? workspaceFolders[0] : undefined;
  return (
    <li className="dt-cli" data-cli={WATCH_GUIDE.id} data-testid="watch-guide">
      <h3>{WATCH_GUIDE.name}</h3>
      <p className="dt-cli-intro">
        {WATCH_GUIDE.agents.join(', ')} and other agents that write files directly: DiffTray reviews what they
        wrote, after the fact, and rejecting puts the old lines back.
      </p>
      {watched.length > 0 ? (
        <p className="dt-watch-on" data-testid="watch-guide-on">
          Changes on disk are reviewed in{' '}
          {watched.map((folder, i) => (
            <span key={folder}>
              {i > 0 && ', '}
              <code>{folder}</code>
            </span>
          ))}
          . Turn it off under Connections → Workspace folders. <OpenConnections />
        </p>
      ) : (
        <ul className="dt-cli-steps">
          {only !== undefined ? (
            <li>
              <TurnOn folder={only} />
            </li>
          ) : (
            workspaceFolders.length > 1 && (
              <li>
                Turn on “{WATCH_SWITCH_LABEL}” for a folder under Connections → Workspace folders{' '}
                <OpenConnections />
              </li>
            )
          )}
          <li>
            {workspaceFolders.length > 0 ? 'or, from the folder, run' : 'From the folder, run'}{' '}
            <CopyCommand command={WATCH_GUIDE.command} cliName="watch mode" />
          </li>
        </ul>
      )}
    </li>
  );
}
