import { useApi } from '../api-context';
import {
  shownSubfolder,
  WATCH_HELP,
  WATCH_SWITCH_LABEL,
  watchFolderGroups,
  watchSwitchLabel,
  type WatchFolderRow,
} from '../watch-folders';
import { setFolderWatched, useWatchBusy } from '../watch-toggle';

const HELP_ID = 'dt-watch-help';

/**
 * One folder's "Review changes on disk" switch. While its call runs it is busy and a click does not ask
 * again; a folder inside a watched one shows on, cannot be turned off here, and says which folder
 * covers it.
 */
function WatchSwitch({ row, shown, index }: { row: WatchFolderRow; shown: string; index: string }) {
  const api = useApi();
  const busy = useWatchBusy((s) => s.busy.has(row.folder));
  const { state } = row;
  const on = state.kind !== 'off';
  const coveredId = `dt-watch-covered-${index}`;
  return (
    <div className="dt-watch-row" data-folder={row.folder} data-state={state.kind}>
      <code className="dt-watch-folder" title={row.folder}>
        {shown}
      </code>
      <button
        type="button"
        role="switch"
        className="dt-switch"
        aria-checked={on}
        aria-label={watchSwitchLabel(row.folder)}
        aria-describedby={state.kind === 'covered' ? `${coveredId} ${HELP_ID}` : HELP_ID}
        aria-busy={busy || undefined}
        disabled={state.kind === 'covered'}
        onClick={() => void setFolderWatched(api, row.folder, !on)}
      >
        <span className="dt-switch-track" aria-hidden="true">
          <span className="dt-switch-thumb" />
        </span>
        {WATCH_SWITCH_LABEL}
      </button>
      {state.kind === 'covered' && (
        <p id={coveredId} className="dt-client-note">
          Watched as part of <code>{state.by}</code>
        </p>
      )}
    </div>
  );
}

/**
 * Connections → Workspace folders: each workspace folder with its "Review changes on disk" switch (watch
 * mode), and under it any watched subfolder (from the settings) with its own. Main keeps the list and
 * remembers it for the next start; the switches show main's snapshot.
 */
export function WatchedFolders({
  workspaceFolders,
  watchedFolders,
}: {
  workspaceFolders: readonly string[];
  watchedFolders: readonly string[];
}) {
  const groups = watchFolderGroups(workspaceFolders, watchedFolders);
  return (
    <section className="dt-watch" aria-labelledby="dt-watch-title" data-testid="watched-folders">
      <h2 id="dt-watch-title" className="dt-queue-title">
        Workspace folders <span className="dt-count">{workspaceFolders.length}</span>
      </h2>
      {groups.length === 0 ? (
        <p className="dt-queue-empty">DiffTray has no workspace folders.</p>
      ) : (
        <ul>
          {groups.map((group, g) => (
            <li key={group.workspace.folder} className="dt-watch-group">
              <WatchSwitch row={group.workspace} shown={group.workspace.folder} index={`${g}`} />
              {group.subfolders.length > 0 && (
                <ul className="dt-watch-subfolders" aria-label={`Watched inside ${group.workspace.folder}`}>
                  {group.subfolders.map((row, s) => (
                    <li key={row.folder}>
                      <WatchSwitch
                        row={row}
                        shown={shownSubfolder(group.workspace.folder, row.folder)}
                        index={`${g}-${s}`}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      <p id={HELP_ID} className="dt-client-note dt-watch-help">
        {WATCH_HELP}
      </p>
    </section>
  );
}
