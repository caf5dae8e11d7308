import { useState } from 'react';
import { clientPauseKey } from '../../shared/client-protocols';
import type { ClientInfo, PausedClient, TrustedProgram, WatchFolderIssue } from '../../shared/app-api';
import { describeProtocol, isClientProtocol } from '../../shared/protocols';
import { useApi } from '../state/api-context';
import {
  canPause,
  isClientPaused,
  pauseButtonLabel,
  pauseExplanation,
  pausedWithoutConnection,
} from './client-pause';
import { useNow } from '../state/hooks';
import { errorMessage } from '../review/review-model';
import { clientLabel, disconnectLabels } from '../state/sidebar-model';
import { useAppStore } from '../state/store';
import { formatAge } from '../state/time';
import { PairRemoteAgent } from '../settings/PairRemoteAgent';
import { AgentHooksList } from './AgentHooksList';
import { WatchedFolders } from './WatchedFolders';
import { TrustedPrograms } from '../settings/TrustedPrograms';
import './ConnectionsList.css';

/** How a client connects, in Connections' words; a protocol this window does not know, by its id. */
function protocolLine(protocol: string): string {
  return isClientProtocol(protocol) ? describeProtocol(protocol).displayName : protocol;
}

/** Pausing and resuming a client's reviews, by its pause key, with the outcome read out. */
function usePauseToggle(): (key: string, name: string, paused: boolean) => Promise<void> {
  const api = useApi();
  const announce = useAppStore((s) => s.announce);
  return async (key, name, paused) => {
    try {
      await api.call('setClientPaused', { key, paused });
      announce(paused ? `Reviews from ${name} paused` : `Reviews from ${name} resumed`);
    } catch (error) {
      const folders = useAppStore.getState().snapshot?.workspaceFolders ?? [];
      announce(`Could not ${paused ? 'pause' : 'resume'} ${name}: ${errorMessage(error, folders)}`);
    }
  };
}

/** Paused clients that are not connected now (a hook connects only while it asks), each with Resume. */
function PausedList({ paused }: { paused: PausedClient[] }) {
  const setPaused = usePauseToggle();
  if (paused.length === 0) return null;
  return (
    <section className="dt-paused" aria-labelledby="dt-paused-title" data-testid="paused-clients">
      <h2 id="dt-paused-title" className="dt-queue-title">
        Paused <span className="dt-count">{paused.length}</span>
      </h2>
      <ul>
        {paused.map((entry) => (
          <li key={entry.key} className="dt-client" data-pause-key={entry.key}>
            <h3 className="dt-client-name">{entry.name}</h3>
            <p className="dt-client-note">{pauseExplanation(entry.protocol)}</p>
            <button
              type="button"
              aria-label={pauseButtonLabel(entry.name, true)}
              onClick={() => void setPaused(entry.key, entry.name, false)}
            >
              Resume
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Who is connected, since when, what they last said, and a way to send each one away; for clients
 * that can go ahead on their own, a way to pause their reviews. Paused clients are listed even when
 * not connected. Then the workspace folders, each with its "Review changes on disk" switch, and each
 * agent's hooks ("Review before it writes").
 */
export function ConnectionsList({
  clients,
  pendingByClient,
  pausedClients = [],
  workspaceFolders = [],
  watchedFolders = [],
  watchIssues = [],
  trustedPrograms = [],
}: {
  clients: ClientInfo[];
  pendingByClient: Map<string, number>;
  pausedClients?: PausedClient[];
  workspaceFolders?: readonly string[];
  watchedFolders?: readonly string[];
  /** Watched folders paused, or with folders the system will not watch. */
  watchIssues?: readonly WatchFolderIssue[];
  /** Programs allowed to connect without a token, each revocable. */
  trustedPrograms?: readonly TrustedProgram[];
}) {
  const api = useApi();
  const announce = useAppStore((s) => s.announce);
  const setPaused = usePauseToggle();
  const now = useNow();
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const labels = disconnectLabels(clients);

  const disconnect = async (client: ClientInfo): Promise<void> => {
    setBusy((ids) => new Set(ids).add(client.id));
    try {
      await api.call('disconnectClient', { clientId: client.id });
      announce(`Disconnected ${clientLabel(client)}`);
    } catch (error) {
      const folders = useAppStore.getState().snapshot?.workspaceFolders ?? [];
      announce(`Could not disconnect ${client.name}: ${errorMessage(error, folders)}`);
    } finally {
      setBusy((ids) => {
        const next = new Set(ids);
        next.delete(client.id);
        return next;
      });
    }
  };

  return (
    <section className="dt-connections" aria-labelledby="dt-connections-title" data-testid="connections">
      <h2 id="dt-connections-title" className="dt-queue-title">
        Connected <span className="dt-count">{clients.length}</span>
      </h2>
      {clients.length === 0 ? (
        <p className="dt-queue-empty">No agent is connected.</p>
      ) : (
        <ul>
          {clients.map((client, index) => {
            const pending = pendingByClient.get(client.id) ?? 0;
            const headingId = `dt-client-${index}`;
            const noteId = `dt-client-note-${index}`;
            const paused = isClientPaused(client, pausedClients);
            return (
              <li key={client.id}>
                <article className="dt-client" aria-labelledby={headingId} data-client-id={client.id}>
                  <h3 id={headingId} className="dt-client-name">
                    {clientLabel(client)}
                  </h3>
                  <dl className="dt-client-facts">
                    <dt>Protocol</dt>
                    <dd>{protocolLine(client.protocol)}</dd>
                    <dt>Workspace</dt>
                    <dd>
                      {client.workspace ? <code>{client.workspace}</code> : 'Unknown'}
                      {client.claimed && client.workspace && <ClaimedMark />}
                    </dd>
                    <dt>PID</dt>
                    <dd>
                      {client.pid ?? 'Unknown'}
                      {client.claimed && client.pid !== undefined && <ClaimedMark />}
                    </dd>
                    <dt>Since</dt>
                    <dd>
                      <time
                        dateTime={new Date(client.connectedAt).toISOString()}
                        title={new Date(client.connectedAt).toLocaleString()}
                      >
                        {formatAge(client.connectedAt, now)}
                      </time>
                    </dd>
                    {client.status?.text.trim() && (
                      <>
                        <dt>Status</dt>
                        <dd className="dt-client-status-text">
                          {client.status.text.trim()}{' '}
                          <time
                            dateTime={new Date(client.status.at).toISOString()}
                            className="dt-client-status-age"
                          >
                            ({formatAge(client.status.at, now)})
                          </time>
                        </dd>
                      </>
                    )}
                  </dl>
                  {pending > 0 && (
                    <p id={noteId} className="dt-client-note">
                      Disconnecting cancels its{' '}
                      {pending === 1 ? 'pending review' : `${pending} pending reviews`}.
                    </p>
                  )}
                  <button
                    type="button"
                    className="dt-danger"
                    aria-describedby={pending > 0 ? noteId : undefined}
                    disabled={busy.has(client.id)}
                    onClick={() => void disconnect(client)}
                  >
                    {labels.get(client.id) ?? `Disconnect ${client.name}`}
                  </button>
                  {canPause(client.protocol) && (
                    <button
                      type="button"
                      className="dt-pause-toggle"
                      aria-label={pauseButtonLabel(client.name, paused)}
                      onClick={() => void setPaused(clientPauseKey(client), client.name, !paused)}
                    >
                      {paused ? 'Resume reviews' : 'Pause reviews'}
                    </button>
                  )}
                  {paused && (
                    <p className="dt-client-note dt-client-paused" data-testid="client-paused">
                      {pauseExplanation(client.protocol)}
                    </p>
                  )}
                </article>
              </li>
            );
          })}
        </ul>
      )}
      <PausedList paused={pausedWithoutConnection(pausedClients, clients)} />
      <TrustedPrograms programs={trustedPrograms} />
      <WatchedFolders
        workspaceFolders={workspaceFolders}
        watchedFolders={watchedFolders}
        watchIssues={watchIssues}
      />
      <PairRemoteAgent />
      <AgentHooksList />
    </section>
  );
}

/** Beside a pid or folder the client named itself, which DiffTray could not check. */
function ClaimedMark() {
  return (
    <span className="dt-claimed" data-testid="claimed-mark" title={CLAIMED_TITLE}>
      {' '}
      (as the client says)
    </span>
  );
}

const CLAIMED_TITLE =
  'The client named this process itself; DiffTray cannot check it on this connection, so any program could claim it.';
