/**
 * Pairing remote agents: the code on screen (pairing-codes.ts) and the clients it paired
 * (paired-clients.ts), behind one object that the app API, the native endpoint and the state feed share.
 */
import type { PairedClientInfo, PairingStarted, PairingState } from '../../../shared/app-api';
import { HostKey } from './host-key';
import { PairedClients } from './paired-clients';
import { PairingCodes, type RedeemResult } from './pairing-codes';

export class PairingError extends Error {}

export type PairResult = { ok: true; id: string; token: string } | Exclude<RedeemResult, { ok: true }>;

export class Pairing {
  private readonly codes: PairingCodes;
  private readonly clients: PairedClients;
  private readonly changeListeners = new Set<() => void>();
  private readonly revokeListeners = new Set<(id: string) => void>();
  private port: number | undefined;
  /** DiffTray's identity, which paired hosts pin (host-key.ts); one of this run only unless given. */
  readonly hostKey: HostKey;

  constructor({
    file,
    now = Date.now,
    log,
    hostKey = HostKey.ephemeral(),
  }: { file?: string; now?: () => number; log?: (message: string) => void; hostKey?: HostKey } = {}) {
    this.hostKey = hostKey;
    this.codes = new PairingCodes(now);
    this.clients = new PairedClients(file, now, log);
  }

  /** The native endpoint's port, the one a tunnel must forward (known once it listens). */
  setPort(port: number): void {
    this.port = port;
  }

  start(): PairingStarted {
    if (this.port === undefined) throw new PairingError('The native endpoint is not listening yet');
    const { code, expiresAt } = this.codes.start();
    this.changed();
    return { code, expiresAt, port: this.port, hostKeyFingerprint: this.hostKey.info.fingerprint };
  }

  cancel(): void {
    this.codes.cancel();
    this.changed();
  }

  /** A client's `pair`: with the right code it is paired and gets its token. */
  pair(code: string, clientName: string, source: string): PairResult {
    const result = this.codes.redeem(code, source);
    if (!result.ok) {
      if (result.why !== 'no_code') this.changed();
      return result;
    }
    const { id, token } = this.clients.add(clientName);
    this.changed();
    return { ok: true, id, token };
  }

  /** The paired client a token belongs to; its last use is noted. */
  authenticate(token: string): PairedClientInfo | undefined {
    const client = this.clients.verify(token);
    if (client && this.clients.touch(client.id)) this.changed();
    return client;
  }

  revoke(id: string): void {
    if (!this.clients.revoke(id)) throw new PairingError(`No paired client ${id}`);
    for (const listener of this.revokeListeners) listener(id);
    this.changed();
  }

  list(): PairedClientInfo[] {
    return this.clients.list();
  }

  state(): PairingState {
    const expiresAt = this.codes.expiresAt;
    const lockedUntil = this.codes.lockedUntil;
    return {
      ...(expiresAt !== undefined && { codeExpiresAt: expiresAt }),
      ...(lockedUntil !== undefined && { lockedUntil }),
    };
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Told when a client is revoked: its live connections are closed. */
  onRevoked(listener: (id: string) => void): () => void {
    this.revokeListeners.add(listener);
    return () => this.revokeListeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }
}
