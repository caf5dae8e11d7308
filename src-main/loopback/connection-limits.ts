/**
 * How many connections may wait, unauthenticated, on one loopback server: per peer and in all. Each
 * holds a file descriptor, so without a cap one local user opening a thousand idle connections used up
 * the process's descriptors: Claude Code could not connect and files could not be read.
 *
 * A connection counts from its arrival until the endpoint admits it with a token (`markAuthenticated`)
 * or it closes. Over its peer's cap it is closed at once; when the server is full, the connection that
 * has waited longest is closed to make room, so a newcomer with a token always gets its chance. A peer is a process of our user (`pid:`), or another
 * user as a whole (`uid:`), found through /proc (core/clients/peer-process.ts); the remote port alone tells
 * nothing, every connection has its own. Where peers cannot be told apart (not Linux) only the
 * server-wide cap applies. Peers are looked up only once `perPeer` connections wait (an idle app
 * never pays for it), and in one look per burst of arrivals (gathered for GATHER_MS).
 */
import type { AddressInfo, Server, Socket } from 'node:net';
import { loopbackPeerKeys } from '../core/clients/peer-process';
import type { Log } from './socket-guard';

export interface ConnectionLimits {
  /** Unauthenticated connections one peer may hold on one server. */
  perPeer: number;
  /** Unauthenticated connections on one server, whoever holds them. */
  perServer: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = { perPeer: 32, perServer: 256 };

/** How long arrivals past `perPeer` wait to be decided together. */
const GATHER_MS = 20;

const limiters = new WeakMap<Socket, ConnectionLimiter>();

/** The connection has proved its token: it no longer counts against the caps. */
export function markAuthenticated(socket: unknown): void {
  const limiter = limiters.get(socket as Socket);
  limiter?.release(socket as Socket);
}

/** Counts and caps the unauthenticated connections of `server`. */
export function limitConnections(
  server: Server,
  name: string,
  log: Log,
  limits: ConnectionLimits = CONNECTION_LIMITS,
): void {
  const limiter = new ConnectionLimiter(server, name, log, limits);
  server.on('connection', (socket: Socket) => limiter.arrived(socket));
}

class ConnectionLimiter {
  /** Arrived, not yet authenticated, still open: in arrival order. */
  private readonly waiting = new Set<Socket>();
  /** Arrived while `perPeer` or more waited: decided together once the burst has been accepted. */
  private undecided: Socket[] = [];
  private readonly peers = new WeakMap<Socket, string>();
  private refusedSinceLog = 0;

  constructor(
    private readonly server: Server,
    private readonly name: string,
    private readonly log: Log,
    private readonly limits: ConnectionLimits,
  ) {}

  arrived(socket: Socket): void {
    limiters.set(socket, this);
    socket.once('close', () => this.release(socket));
    // Full: the oldest waiting connection makes room, not the newcomer. Counting arrivals not yet
    // decided as well keeps the descriptors held by a burst at the cap (past the process's limit, accept
    // itself would fail and drop connections at random, a token's holder among them).
    if (this.waiting.size + this.undecided.length >= this.limits.perServer) {
      this.undecided = this.undecided.filter((waiting) => limiters.has(waiting)); // gone meanwhile
      if (this.waiting.size + this.undecided.length >= this.limits.perServer) this.evictOldest();
    }
    const quiet = Math.min(this.limits.perPeer, this.limits.perServer);
    if (this.waiting.size + this.undecided.length < quiet) {
      this.waiting.add(socket);
      return;
    }
    // A short wait gathers a burst, so that its peers are found in one look at /proc.
    if (this.undecided.length === 0) setTimeout(() => this.decide(), GATHER_MS);
    this.undecided.push(socket);
  }

  release(socket: Socket): void {
    this.waiting.delete(socket);
    limiters.delete(socket);
  }

  private decide(): void {
    const arrivals = this.undecided.filter((socket) => !socket.destroyed);
    this.undecided = [];
    this.identify([...this.waiting, ...arrivals]);
    const counts = new Map<string, number>();
    for (const socket of this.waiting) {
      const peer = this.peers.get(socket);
      if (peer !== undefined) counts.set(peer, (counts.get(peer) ?? 0) + 1);
    }
    for (const socket of arrivals) {
      if (!limiters.has(socket)) continue; // authenticated or closed meanwhile
      const peer = this.peers.get(socket);
      const held = peer === undefined ? 0 : (counts.get(peer) ?? 0);
      if (held >= this.limits.perPeer) {
        this.refuse(socket, peer);
        continue;
      }
      this.waiting.add(socket);
      if (peer !== undefined) counts.set(peer, held + 1);
    }
  }

  /**
   * Closes the connection that has waited longest without proving a token. A client with a token proves
   * it within moments of arriving, so whoever fills the server (peers /proc could not tell apart, or many
   * of them) can only push out idle connections, never lock everyone out.
   */
  private evictOldest(): void {
    const oldest = this.waiting.values().next().value ?? this.undecided.shift();
    if (oldest !== undefined) this.refuse(oldest, this.peers.get(oldest));
  }

  /** Looks up, in one go, the peers not known yet. */
  private identify(sockets: Socket[]): void {
    const unknown = sockets.filter((socket) => !this.peers.has(socket) && socket.remotePort !== undefined);
    const address = this.server.address() as AddressInfo | null;
    if (unknown.length === 0 || !address) return;
    const keys = loopbackPeerKeys(
      address.port,
      unknown.map((socket) => socket.remotePort!),
    );
    for (const socket of unknown) {
      const key = keys.get(socket.remotePort!);
      if (key !== undefined) this.peers.set(socket, key);
    }
  }

  private refuse(socket: Socket, peer: string | undefined): void {
    this.release(socket);
    socket.destroy();
    // One line per burst, not one per connection: the log must not become the next thing to fill up.
    if (this.refusedSinceLog++ === 0) {
      setTimeout(() => {
        this.log(
          `${this.name}: closed ${this.refusedSinceLog} unauthenticated connection(s) over the limit ` +
            `(${this.limits.perPeer} per peer, ${this.limits.perServer} in all; last from ${peer ?? 'an unknown peer'})`,
        );
        this.refusedSinceLog = 0;
      }, 1000).unref();
    }
  }
}
