import type { AppSnapshot } from '../../shared/app-api';

/** No reviews yet: tell the person how to get a CLI to connect. */
export function EmptyState({ snapshot }: { snapshot: AppSnapshot | null }) {
  const clients = snapshot?.clients.filter((client) => client.connected) ?? [];
  const folders = snapshot?.workspaceFolders ?? [];
  return (
    <section className="dt-empty" aria-labelledby="dt-empty-title">
      <h1 id="dt-empty-title">No reviews waiting</h1>
      <p>
        Proposed edits appear here as soon as a coding agent sends one. To connect Claude Code, run{' '}
        <code>claude --ide</code> from inside a workspace folder; it finds DiffTray through its lock file
        automatically.
      </p>
      {folders.length > 0 && (
        <>
          <h2>Workspace folders</h2>
          <ul>
            {folders.map((folder) => (
              <li key={folder}>
                <code>{folder}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      <p>
        {clients.length === 0
          ? 'No agent is connected.'
          : `Connected: ${clients.map((client) => client.name).join(', ')}.`}
      </p>
    </section>
  );
}
