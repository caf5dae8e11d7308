import { useState } from 'react';
import './pairing.css';
import type { PairedClientInfo, PairingStarted } from '../../shared/app-api';
import { useApi } from '../state/api-context';
import { useNow } from '../state/hooks';
import { activeCode, lockoutText, PAIR_BUTTON_LABEL, pairingCommands, timeLeft } from './pairing-model';
import { errorMessage } from '../review/review-model';
import { useAppStore } from '../state/store';
import { formatAge } from '../state/time';
import { CopyCommand } from '../views/CopyCommand';

const NO_CLIENTS: PairedClientInfo[] = [];

/**
 * Connections → Remote agents: "Pair a remote agent" shows a 6-digit code (5 minutes, one use) and the
 * port to forward; the agents paired so far are listed with when they were paired and last used, each
 * revocable. The code is only in this window (startPairing's answer), never in the shared state.
 */
export function PairRemoteAgent() {
  const api = useApi();
  const announce = useAppStore((s) => s.announce);
  const paired = useAppStore((s) => s.snapshot?.pairedClients ?? NO_CLIENTS);
  const state = useAppStore((s) => s.snapshot?.pairing);
  const [shown, setShown] = useState<PairingStarted | undefined>();
  const now = useNow(1000);
  const code = activeCode(shown, state, now);
  const lockout = lockoutText(state, now);
  const commands = code && pairingCommands(code.port);

  const fail = (what: string, error: unknown) =>
    announce(
      `Could not ${what}: ${errorMessage(error, useAppStore.getState().snapshot?.workspaceFolders ?? [])}`,
    );

  const start = async () => {
    try {
      const started = await api.call('startPairing', {});
      setShown(started);
      announce(`Pairing code ${started.code.split('').join(' ')}, valid for 5 minutes`);
    } catch (error) {
      fail('start pairing', error);
    }
  };
  const cancel = async () => {
    setShown(undefined);
    try {
      await api.call('cancelPairing', {});
    } catch (error) {
      fail('cancel pairing', error);
    }
  };
  const revoke = async (client: PairedClientInfo) => {
    try {
      await api.call('revokePairedClient', { id: client.id });
      announce(`Revoked ${client.name}: its token no longer works`);
    } catch (error) {
      fail(`revoke ${client.name}`, error);
    }
  };

  return (
    <section className="dt-pairing" aria-labelledby="dt-pairing-title" data-testid="pairing">
      <h2 id="dt-pairing-title" className="dt-queue-title">
        Remote agents <span className="dt-count">{paired.length}</span>
      </h2>
      {paired.length > 0 && (
        <ul>
          {paired.map((client) => (
            <li key={client.id} className="dt-client" data-testid="paired-client" data-paired-id={client.id}>
              <h3 className="dt-client-name">{client.name}</h3>
              <p className="dt-client-note">
                Paired {formatAge(client.pairedAt, now)};{' '}
                {client.lastUsedAt === undefined
                  ? 'not used yet'
                  : `last used ${formatAge(client.lastUsedAt, now)}`}
              </p>
              <button type="button" aria-label={`Revoke ${client.name}`} onClick={() => void revoke(client)}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {lockout && (
        <p className="dt-client-note" role="status" data-testid="pairing-locked">
          {lockout}
        </p>
      )}
      {code && commands ? (
        <div className="dt-pairing-code" data-testid="pairing-active">
          <p>
            Code <strong data-testid="pairing-code">{code.code}</strong>, valid for{' '}
            <span data-testid="pairing-expires">{timeLeft(code.expiresAt, now)}</span>, once.
          </p>
          <p className="dt-client-note">
            From here, open an SSH session to the remote host that forwards DiffTray&apos;s port (or use the
            container&apos;s or VM&apos;s port forwarding):
          </p>
          <CopyCommand block command={commands.tunnel} cliName="SSH" />
          <p className="dt-client-note">Then, on the remote host, pair:</p>
          <CopyCommand block command={commands.pair} cliName="difftray pair" />
          <p className="dt-client-note">
            <code>difftray pair</code> then prints DiffTray&apos;s key; it must be{' '}
            <code data-testid="pairing-fingerprint">{code.hostKeyFingerprint}</code>.
          </p>
          <button type="button" onClick={() => void cancel()}>
            Cancel pairing
          </button>
        </div>
      ) : (
        <p className="dt-hooks-offer">
          An agent on another host or in a container:{' '}
          <button type="button" onClick={() => void start()}>
            {PAIR_BUTTON_LABEL}
          </button>
        </p>
      )}
    </section>
  );
}
