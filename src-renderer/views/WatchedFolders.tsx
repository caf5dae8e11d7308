import type { WatchFolderIssue } from '../../shared/app-api';
import { useApi } from '../state/api-context';
import { useHomePath } from '../state/home-path';
import { issueOf } from './watch-issues';
import {
  shownSubfolder,
  WATCH_HELP,
  WATCH_SWITCH_LABEL,
  watchFolderGroups,
  watchSwitchLabel,
  type WatchFolderRow,
} from './watch-folders';
import { setFolderWatched, useWatchBusy } from './watch-toggle';
import { WatchIssueDetails } from './WatchIssue';
import './WatchedFolders.css';
import '../settings/switch.css';

const HELP_ID = 'dt-watch-help';

/**
 * One folder's "Review changes on disk" switch. While its call runs it is busy and a click does not ask
 * again; a folder inside a watched one shows on, cannot be turned off here, and says which folder
 * covers it. A watched folder that is paused, or has folders the system will not watch, says so under
 * its switch (and the switch's description names it).
 */
function WatchSwitch({
  row,
  shown,
  index,
  issue,
}: {
  row: WatchFolderRow;
  shown: string;
  index: string;
  issue: WatchFolderIssue | undefined;
}) {
  const api = useApi();
  const homePath = useHomePath();
  const busy = useWatchBusy((s) => s.busy.has(row.folder));
  const { state } = row;
  const on = state.kind !== 'off';
  const coveredId = `dt-watch-covered-${index}`;
  const issueId = `dt-watch-issue-${index}`;
  const described = [state.kind === 'covered' && coveredId, issue && issueId, HELP_ID].filter(Boolean);
  const watching = issue?.paused ? 'paused' : issue?.unwatched ? 'partly unwatched' : undefined;
  return (
    <div
      className="dt-watch-row"
      data-folder={row.folder}
      data-state={state.kind}
      {...(watching && { 'data-watching': watching })}
    >
      <code className="dt-watch-folder" title={homePath(row.folder)}>
        {shown}
      </code>
      {watching && (
        <strong className="dt-watch-badge">{watching === 'paused' ? 'Paused' : 'Not all watched'}</strong>
      )}
      <button
        type="button"
        role="switch"
        className="dt-switch"
        aria-checked={on}
        aria-label={watchSwitchLabel(row.folder)}
        aria-describedby={described.join(' ')}
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
      {issue && <WatchIssueDetails issue={issue} id={issueId} />}
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
  watchIssues = [],
}: {
  workspaceFolders: readonly string[];
  watchedFolders: readonly string[];
  watchIssues?: readonly WatchFolderIssue[];
}) {
  const groups = watchFolderGroups(workspaceFolders, watchedFolders);
  const homePath = useHomePath();
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
              <WatchSwitch
                row={group.workspace}
                shown={homePath(group.workspace.folder)}
                index={`${g}`}
                issue={issueOf(group.workspace.folder, watchIssues)}
              />
              {group.subfolders.length > 0 && (
                <ul className="dt-watch-subfolders" aria-label={`Watched inside ${group.workspace.folder}`}>
                  {group.subfolders.map((row, s) => (
                    <li key={row.folder}>
                      <WatchSwitch
                        row={row}
                        shown={shownSubfolder(group.workspace.folder, row.folder)}
                        index={`${g}-${s}`}
                        issue={issueOf(row.folder, watchIssues)}
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
