/**
 * The clients whose reviews the person paused (Connections): their proposals are not queued, and they
 * go ahead unreviewed. Keyed by clientPauseKey, so a client that reconnects stays paused.
 */
import { clientPauseKey, type ClientInfo, type PausedClient } from '../../../../shared/app-api';
import { ReviewError } from '../review-file';

/** The person paused reviews for this client: nothing was queued, the client goes ahead unreviewed. */
export class ReviewsPausedError extends ReviewError {
  constructor(name: string) {
    super(`Reviews from ${name} are paused in DiffTray (Connections)`);
  }
}

type PausableClient = Pick<ClientInfo, 'protocol' | 'name'>;

export class ClientPauses {
  private readonly paused = new Map<string, PausedClient>();

  has(client: PausableClient): boolean {
    return this.paused.has(clientPauseKey(client));
  }

  /** Answers whether anything changed. */
  set(client: PausableClient, paused: boolean): boolean {
    const key = clientPauseKey(client);
    if (paused === this.paused.has(key)) return false;
    if (paused) this.paused.set(key, { key, name: client.name, protocol: client.protocol });
    else this.paused.delete(key);
    return true;
  }

  /** The paused client with this key, as the UI names it. */
  byKey(key: string): PausedClient | undefined {
    return this.paused.get(key);
  }

  list(): PausedClient[] {
    return [...this.paused.values()];
  }
}
