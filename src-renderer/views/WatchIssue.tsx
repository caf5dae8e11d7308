import type { WatchFolderIssue } from '../../shared/app-api';
import { useApi } from '../state/api-context';
import { issuesIn, noticeText, pausedText, resumeLabel, unwatchedText } from './watch-issues';
import { setFolderWatched, useWatchBusy } from './watch-toggle';
import { CopyCommand } from './CopyCommand';
import { OpenConnections } from './WatchGuide';
import './WatchIssue.css';

/** Resumes a paused folder (turning it on again resumes it), after the person dealt with its review. */
function ResumeButton({ folder }: { folder: string }) {
  const api = useApi();
  const busy = useWatchBusy((s) => s.busy.has(folder));
  return (
    <button
      type="button"
      aria-label={resumeLabel(folder)}
      aria-busy={busy || undefined}
      onClick={() => void setFolderWatched(api, folder, true)}
    >
      Resume
    </button>
  );
}

/**
 * Under a folder's switch in Connections: why its changes are not all reviewed now. Paused: the reason
 * and a Resume button. Folders not watched: how many, the first error, and the commands that fix it.
 */
export function WatchIssueDetails({ issue, id }: { issue: WatchFolderIssue; id: string }) {
  const { paused, unwatched } = issue;
  return (
    <div
      id={id}
      className="dt-watch-issue"
      data-testid="watch-issue"
      role="group"
      aria-label={`Watch mode in ${issue.folder}`}
    >
      {paused && (
        <p className="dt-watch-paused" data-testid="watch-paused">
          {pausedText(paused)} <ResumeButton folder={issue.folder} />
        </p>
      )}
      {unwatched && (
        <div className="dt-watch-unwatched" data-testid="watch-unwatched">
          <p>{unwatchedText(unwatched)}</p>
          {unwatched.fix && (
            <>
              <p>{unwatched.fix.explain} To fix it, run:</p>
              <ul className="dt-watch-fix">
                {unwatched.fix.commands.map((command) => (
                  <li key={command}>
                    <CopyCommand command={command} cliName="fix" />
                  </li>
                ))}
              </ul>
              <p>{unwatched.fix.then}</p>
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** In the sidebar: each paused or partly unwatched folder in a line, seen whatever tab is open. */
export function SidebarWatchNotice({
  workspaceFolders,
  issues,
}: {
  workspaceFolders: readonly string[];
  issues: readonly WatchFolderIssue[];
}) {
  const shown = issuesIn(workspaceFolders, issues);
  if (shown.length === 0) return null;
  return (
    <div className="dt-settings-notice dt-watch-notice" data-testid="watch-notice" role="status">
      {shown.map((issue) => (
        <p key={issue.folder}>
          {noticeText(issue)} {issue.paused && <ResumeButton folder={issue.folder} />}
        </p>
      ))}
      <OpenConnections />
    </div>
  );
}
