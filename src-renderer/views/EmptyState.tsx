import type { AppSnapshot } from '../../shared/app-api';
import { CLI_GUIDES, type CliGuide } from '../settings/cli-guides';
import { FIRST_RUN_TEXT } from '../settings/settings-model';
import { useSettingsView } from '../settings/settings-view';
import { AddWorkspaceFolder } from './AddWorkspaceFolder';
import { clientLabel, connectedClients } from '../state/sidebar-model';
import { CodeText } from './CodeText';
import { CopyCommand } from './CopyCommand';
import { HookGuides } from './HookGuides';
import { WatchGuide } from './WatchGuide';
import './EmptyState.css';

/**
 * First run: no workspace folder, so no agent can propose anything yet. Why, and the way to add one, in
 * place of the agents' set-up guides (which would not work yet).
 */
function FirstRun() {
  return (
    <section className="dt-empty" aria-labelledby="dt-empty-title" data-testid="empty-state">
      <h1 id="dt-empty-title">Choose a workspace folder</h1>
      <p>{FIRST_RUN_TEXT}</p>
      <p>
        Add the folder you work in (a project, or a folder holding several); you can add more in Settings.
      </p>
      <AddWorkspaceFolder />
    </section>
  );
}

/** One CLI's card: its name, and each step with its command to copy. */
function CliCard({ guide }: { guide: CliGuide }) {
  return (
    <li className="dt-cli" data-cli={guide.id}>
      <h3>{guide.name}</h3>
      <ul className="dt-cli-steps">
        {guide.steps.map((step) => (
          <li key={step.command ?? step.text}>
            <CodeText text={step.text} />
            {step.command && (
              <>
                {' '}
                <CopyCommand command={step.command} cliName={guide.name} />
              </>
            )}
          </li>
        ))}
      </ul>
    </li>
  );
}

const SHOWN_GUIDES = CLI_GUIDES.filter((guide) => !guide.folded);
const FOLDED_GUIDES = CLI_GUIDES.filter((guide) => guide.folded);

/**
 * No reviews waiting: how to get each supported CLI to connect, and where. It fits the window (1024×700)
 * without scrolling: the CLIs most people use as cards in a grid, the rest folded under "More agents".
 */
export function EmptyState({ snapshot }: { snapshot: AppSnapshot | null }) {
  const clients = connectedClients(snapshot);
  const folders = snapshot?.workspaceFolders ?? [];
  const showSettings = useSettingsView((s) => s.show);
  if (snapshot && folders.length === 0) return <FirstRun />;
  return (
    <section className="dt-empty" aria-labelledby="dt-empty-title" data-testid="empty-state">
      <h1 id="dt-empty-title">No reviews waiting</h1>
      <p>
        Edits a coding agent proposes appear here for you to accept or reject, hunk by hunk. Nothing is
        written before you decide.{' '}
        {snapshot && (
          <span className="dt-empty-connected">
            {clients.length === 0
              ? 'No agent is connected.'
              : `Connected: ${clients.map((client) => clientLabel(client)).join(', ')}.`}
          </span>
        )}
      </p>

      <h2 id="dt-connect-title">Connect an agent</h2>
      <ul className="dt-cli-list" aria-labelledby="dt-connect-title">
        {SHOWN_GUIDES.map((guide) => (
          <CliCard key={guide.id} guide={guide} />
        ))}
        <WatchGuide workspaceFolders={folders} watchedFolders={snapshot?.watchedFolders ?? []} />
      </ul>
      <HookGuides />
      {FOLDED_GUIDES.length > 0 && (
        <details className="dt-more-agents">
          <summary>More agents: {FOLDED_GUIDES.map((guide) => guide.name).join(', ')}</summary>
          <ul className="dt-cli-list" aria-label="More agents">
            {FOLDED_GUIDES.map((guide) => (
              <CliCard key={guide.id} guide={guide} />
            ))}
          </ul>
        </details>
      )}

      {folders.length > 0 && (
        <section className="dt-empty-folders" aria-labelledby="dt-folders-title">
          <h2 id="dt-folders-title">Workspace folders</h2>
          <p>
            Run the agent from one of these folders (or a folder inside one):{' '}
            <button type="button" onClick={showSettings}>
              Change workspace folders…
            </button>
          </p>
          <ul className="dt-folders" aria-labelledby="dt-folders-title">
            {folders.map((folder) => (
              <li key={folder}>
                <code>{folder}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
