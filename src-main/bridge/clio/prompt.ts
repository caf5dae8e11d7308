/**
 * A Clio client that sends no token (the real Clio CLI: seed 000 has no authentication) is never answered
 * silently and never let in unasked: it is identified by its process where the platform allows, and the
 * person is asked (core/clients/connection-requests.ts) unless they allowed this program always before.
 *
 * Identification: on Linux through the loopback socket's owner (core/clients/peer-process.ts): pid, executable,
 * working folder; a socket of another user is refused outright, and one whose process cannot be found is
 * refused too (it is gone, or hides). macOS and Windows offer no such lookup without running lsof or
 * netstat, which DiffTray does not: there the prompt names the client by the name it gave, and says so.
 */
import type { ClientPort } from '../../core/clients/agent-session';
import { ConnectionRequestError, type ConnectionPeer } from '../../core/clients/connection-requests';
import { findLoopbackPeer } from '../../core/clients/peer-process';
import { CLIO_CLIENT_NAME } from './handlers';

export interface PromptedConnection {
  /** The loopback ports of the connection: ours and the peer's. */
  serverPort: number;
  peerPort: number;
  /** Lets the client in, listing it with the process found (pid, working folder). */
  allow(peer: ConnectionPeer): void;
  /** Tells the client why (a Clio `error`) and closes the socket. */
  refuse(reason: string): void;
  /** Registers what to do when the socket closes first. */
  onClose(listener: () => void): void;
}

export interface ClioPromptOptions {
  port: ClientPort;
  log: (message: string) => void;
}

/** Identifies the peer and lets it in, asks the person, or refuses it. */
export function askToConnect(
  connection: PromptedConnection,
  clientName: string | undefined,
  { port, log }: ClioPromptOptions,
): void {
  const identified = identifyPeer(connection, clientName ?? CLIO_CLIENT_NAME);
  if ('refusal' in identified) {
    log(`clio: refused a connection without a token: ${identified.refusal}`);
    return connection.refuse(identified.refusal);
  }
  const { peer } = identified;
  if (port.isTrustedPeer(peer)) {
    log(`clio: let in ${describePeer(peer)}, a program allowed always`);
    return connection.allow(peer);
  }
  let pending;
  try {
    pending = port.askToConnect(peer);
  } catch (error) {
    if (error instanceof ConnectionRequestError) return connection.refuse(error.message);
    throw error;
  }
  connection.onClose(() => pending.cancel());
  const waitedMs = pending.request.expiresAt - pending.request.askedAt;
  const waited = waitedMs < 1000 ? `${waitedMs} ms` : `${Math.round(waitedMs / 1000)} s`;
  void pending.decision.then((decision) => {
    if (decision === 'once' || decision === 'always') return connection.allow(peer);
    if (decision === 'deny') return connection.refuse('The person denied this connection in DiffTray');
    if (decision === 'timeout') {
      return connection.refuse(`Nobody allowed this connection in DiffTray within ${waited}`);
    }
    // 'gone': the socket closed, or DiffTray is closing; nobody to tell.
    return undefined;
  });
}

function identifyPeer(
  connection: PromptedConnection,
  name: string,
): { peer: ConnectionPeer } | { refusal: string } {
  const protocol = 'clio';
  const lookup = findLoopbackPeer(connection.serverPort, connection.peerPort);
  if (lookup.kind === 'other-user') {
    return { refusal: `The connecting program runs as another user (uid ${lookup.uid})` };
  }
  if (lookup.kind === 'same-user') {
    if (!lookup.process) return { refusal: 'The connecting program could not be identified' };
    return { peer: { name, protocol, identifiedBy: 'process', ...lookup.process } };
  }
  // Linux has /proc: a loopback connection missing from it is not one we can vouch for.
  if (process.platform === 'linux') return { refusal: 'The connecting program could not be identified' };
  // macOS, Windows: no socket-owner lookup without lsof/netstat; the prompt says it trusts a name.
  return { peer: { name, protocol, identifiedBy: 'name' } };
}

function describePeer(peer: ConnectionPeer): string {
  return peer.pid === undefined ? `"${peer.name}"` : `"${peer.name}" (pid ${peer.pid})`;
}
