/**
 * The native endpoint: DiffTray's own protocol, on its own loopback server (port 0), discovered through
 * `<DIFFTRAY_HOME or ~/.difftray>/<port>.lock` (0600 in a 0700 folder).
 *
 * The loopback server's gate comes first: no Origin header (403), a loopback Host with our port (403).
 * Then the per-run token in `x-difftray-authorization`, compared in constant time (401; the body is a
 * JSON error with code 1001 when it is missing, 1002 when it is wrong), and the cap on open connections.
 * At HANDSHAKE_PATH the token comes later, in a message, once the client has made us prove that we know
 * it (handshake-socket.ts); at PAIR_PATH a remote agent pairs (pair-socket.ts).
 */
import type http from 'node:http';
import path from 'node:path';
import type WebSocket from 'ws';
import { DIFFTRAY_VERSION } from '../../../shared/version';
import { ContextPool } from '../../core/context/context-pool';
import type { AppCore } from '../../core/app-core';
import { clientPort, type ClientPort, type PairingPort } from '../../core/clients/agent-session';
import type { WatchMode } from '../../core/watch/watch-mode';
import { generateToken, singleHeader, tokensEqual } from '../../loopback/auth';
import { closeSockets } from '../../loopback/close-sockets';
import {
  LoopbackServer,
  type AdmittedUpgrade,
  type EndpointRefusal,
  type LoopbackEndpoint,
} from '../../loopback/loopback-server';
import { createSocketServer, MAX_PENDING_PREAUTH_CONNECTIONS } from '../../loopback/socket-guard';
import { HostKey } from '../../core/pairing/host-key';
import { processStartTime } from '../../core/clients/process-info';
import { serveHandshake } from './handshake-socket';
import { OwnedLockFile } from '../lock-files';
import { RateWindow, type RateLimit } from '../rate-limit';
import { serveNativeConnection, type AppHooks } from './connection';
import {
  CloseCode,
  ErrorCode,
  HANDSHAKE_MAX_FRAME_BYTES,
  HANDSHAKE_PATH,
  NATIVE_AUTH_HEADER,
  NATIVE_MAX_MESSAGE_BYTES,
  NATIVE_PROTOCOL_VERSION,
  PAIR_PATH,
  type NativeLockFile,
} from '../../../shared/native-protocol';
import { NativeSessions } from './sessions';
import { pushStatusUpdates } from './status-updates';
import type { PairedIdentity } from './commands';
import { PairGate } from './pair-socket';
import { messageOf } from '../../../shared/error-message';

export interface NativeEndpointOptions extends AppHooks {
  core: AppCore;
  /** Where `<port>.lock` goes: `difftrayHome(env)` in the app, a temp folder in tests. */
  lockDir: string;
  log?: (message: string) => void;
  /** How often clients are asked to send `heartbeat` (30 s); about three missed ones close the socket. */
  heartbeatIntervalMs?: number;
  /** How long a session's pending reviews wait for a reconnect once its socket is gone (10 min). */
  sessionGraceMs?: number;
  /** Frames per connection, well-formed or not: at most `messages` per `perMs` (600 per minute). */
  rateLimit?: RateLimit;
  /** Frames across all connections, so that many connections do not escape the limit (3000 per minute). */
  endpointRateLimit?: RateLimit;
  /** Connections open at once (32); more are refused at the upgrade with 503 and code 4003. */
  maxConnections?: number;
  /** Watch mode, for `watch_folder` (`difftray watch`); without it that command is refused. */
  watch?: WatchMode;
  /** Pairing remote agents: `pair` at PAIR_PATH, and paired clients' tokens; without it, neither. */
  pairing?: PairingPort;
  /** A minute of a turn review's time limit, in ms (60 000; shorter in tests). */
  turnMinuteMs?: number;
}

export interface NativeEndpoint {
  port: number;
  token: string;
  /** The lock file's path. */
  lockFile: string;
  /**
   * Sets (or replaces) how the app shows itself for `show_window`: its window, or its headless UI in the
   * person's browser. For carriers that start after the endpoint.
   */
  setAppHooks(hooks: AppHooks): void;
  /** Removes the lock file at once, then ends every session (pending reviews cancelled) and closes. */
  close(): Promise<void>;
}

export const DEFAULT_HEARTBEAT_INTERVAL_MS = 30_000;
export const DEFAULT_SESSION_GRACE_MS = 10 * 60_000;
export const DEFAULT_RATE_LIMIT: RateLimit = { messages: 600, perMs: 60_000 };
export const DEFAULT_ENDPOINT_RATE_LIMIT: RateLimit = { messages: 3000, perMs: 60_000 };
export const DEFAULT_MAX_CONNECTIONS = 32;

/** How long a client may take to answer our close frame when DiffTray closes. */
const CLOSE_GRACE_MS = 500;

export async function startNativeEndpoint(options: NativeEndpointOptions): Promise<NativeEndpoint> {
  const native = new NativeLoopback(options);
  const notFound = 'DiffTray native protocol: WebSocket only (see ~/.difftray/<port>.lock)\n';
  const server = await LoopbackServer.start({
    name: 'native',
    notFound,
    endpoints: [native],
    log: options.log,
  });
  const { token, lockFile } = native;
  return {
    port: server.port,
    token,
    lockFile,
    setAppHooks: (hooks) => native.setAppHooks(hooks),
    close: server.close,
  };
}

export class NativeLoopback implements LoopbackEndpoint {
  readonly token = generateToken();
  lockFile = '';
  private port = 0;
  private lock: OwnedLockFile | undefined;
  private closing = false;
  private stopFollowing: (() => void) | undefined;
  private hooks: AppHooks;
  private readonly log: (message: string) => void;
  private readonly sessions: NativeSessions;
  // The token is checked at the upgrade: every socket here has proved it, so the full limit applies.
  private readonly sockets = createSocketServer(NATIVE_MAX_MESSAGE_BYTES);
  /** Sockets that authenticate in a message, after challenging us (handshake-socket.ts). */
  private readonly handshakeSockets = createSocketServer(HANDSHAKE_MAX_FRAME_BYTES);
  /** Those of them that have not authenticated yet. */
  private readonly unauthenticated = new Set<WebSocket>();
  /** What signs our answers to challenges: the pairing's host key, which paired hosts pinned. */
  private readonly hostKey: HostKey;
  private readonly endpointRate: RateWindow;
  private readonly maxConnections: number;
  private readonly stopStatusUpdates: () => void;
  private readonly pairGate: PairGate | undefined;
  /** Each paired client's open sockets, closed at once when it is revoked. */
  private readonly pairedSockets = new Map<string, Set<WebSocket>>();
  /** The context commands' walks and searches, in worker threads started on first use. */
  private readonly contextPool = new ContextPool();
  /** Core, as this adapter reaches it. */
  private readonly clientPort: ClientPort;

  constructor(private readonly options: NativeEndpointOptions) {
    this.log = options.log ?? (() => {});
    this.hooks = {
      ...(options.showWindow && { showWindow: options.showWindow }),
      ...(options.openInBrowser && { openInBrowser: options.openInBrowser }),
    };
    this.clientPort = clientPort(options.core);
    this.sessions = new NativeSessions({
      port: this.clientPort,
      graceMs: options.sessionGraceMs ?? DEFAULT_SESSION_GRACE_MS,
      log: this.log,
      disconnectCode: CloseCode.DISCONNECTED_BY_USER,
    });
    this.endpointRate = new RateWindow(options.endpointRateLimit ?? DEFAULT_ENDPOINT_RATE_LIMIT);
    this.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    this.stopStatusUpdates = pushStatusUpdates(this.clientPort, this.sessions);
    const { pairing } = options;
    this.hostKey = pairing?.hostKey ?? HostKey.ephemeral();
    if (pairing) {
      this.pairGate = new PairGate(pairing, this.log);
      pairing.onRevoked((id) => this.closePaired(id));
    }
  }

  async open(port: number): Promise<void> {
    this.port = port;
    this.lockFile = path.join(this.options.lockDir, `${port}.lock`);
    this.lock = new OwnedLockFile(this.lockFile, this.lockContent());
    this.stopFollowing = this.clientPort.onWorkspaceFolders(() => this.rewriteLockFile());
    this.options.pairing?.setPort(port);
    await this.lock.staleRemoved;
  }

  admitUpgrade(request: http.IncomingMessage): EndpointRefusal | AdmittedUpgrade {
    if (this.pairGate && pathOf(request.url) === PAIR_PATH) return this.admitPairing(request, this.pairGate);
    if (pathOf(request.url) === HANDSHAKE_PATH) return this.admitHandshake();
    // ws adds a socket to its clients within handleUpgrade (no async client check): the count is exact.
    const verdict = this.checkToken(request);
    const refusal = 'status' in verdict ? verdict : this.checkCapacity();
    if (refusal) {
      const { status, code, message } = refusal;
      return { status, reason: message, body: { code, message } };
    }
    const paired = 'paired' in verdict ? verdict.paired : undefined;
    return { sockets: this.sockets, label: 'native', serve: (ws) => this.serve(ws, paired) };
  }

  /** A socket without a token yet: it challenges us, then authenticates in a message (handshake-socket.ts). */
  private admitHandshake(): EndpointRefusal | AdmittedUpgrade {
    const refusal =
      this.checkCapacity() ??
      (this.unauthenticated.size < MAX_PENDING_PREAUTH_CONNECTIONS
        ? undefined
        : {
            status: 503,
            code: ErrorCode.TOO_MANY_CONNECTIONS,
            message: `Too many connections waiting to authenticate (at most ${MAX_PENDING_PREAUTH_CONNECTIONS})`,
          });
    if (refusal) {
      const { status, code, message } = refusal;
      return { status, reason: message, body: { code, message } };
    }
    return {
      sockets: this.handshakeSockets,
      label: 'native',
      serve: (ws) => {
        this.unauthenticated.add(ws);
        ws.once('close', () => this.unauthenticated.delete(ws));
        serveHandshake(ws, {
          token: this.token,
          hostKey: this.hostKey,
          identify: (token) => this.identify(token),
          admit: (socket, paired) => {
            this.unauthenticated.delete(socket);
            this.serve(socket, paired);
          },
          log: this.log,
        });
      },
    };
  }

  /** A socket without a token, for one `pair` request (pair-socket.ts). */
  private admitPairing(request: http.IncomingMessage, gate: PairGate): EndpointRefusal | AdmittedUpgrade {
    if (gate.full) {
      const message = 'Too many pairing connections at once';
      return { status: 503, reason: message, body: { code: ErrorCode.TOO_MANY_CONNECTIONS, message } };
    }
    return { sockets: gate.sockets, label: 'native pair', serve: (ws) => gate.serve(ws, request) };
  }

  /** A revoked client: its sessions end (pending reviews cancelled) and every socket of it closes now. */
  private closePaired(id: string): void {
    const reason = 'pairing revoked';
    this.sessions.endPaired(id, reason, { code: CloseCode.PAIRING_REVOKED, reason });
    for (const socket of this.pairedSockets.get(id) ?? []) socket.close(CloseCode.PAIRING_REVOKED, reason);
    this.pairedSockets.delete(id);
  }

  setAppHooks(next: AppHooks): void {
    this.hooks = { ...this.hooks, ...next };
  }

  /** The lock file follows what it says: the workspace folders. */
  private rewriteLockFile(): void {
    if (this.closing || !this.lock) return;
    try {
      this.lock.rewrite(this.lockContent());
    } catch (error) {
      this.log(`native: could not update ${this.lockFile}: ${messageOf(error)}`);
    }
  }

  /** Removes the lock file at once, then ends every session (pending reviews cancelled) and closes. */
  async close(): Promise<void> {
    this.closing = true;
    this.stopFollowing?.();
    this.lock?.remove();
    this.stopStatusUpdates();
    this.sessions.pushStatus({ message: 'DiffTray is closing', statusType: 'connection_status' });
    // Pending reviews end as cancelled; their results still reach the clients before the sockets close.
    this.sessions.endAll('DiffTray is closing');
    await this.sessions.settled(1000);
    await closeSockets(this.sockets, 1001, 'DiffTray is closing', CLOSE_GRACE_MS);
    await closeSockets(this.handshakeSockets, 1001, 'DiffTray is closing', CLOSE_GRACE_MS);
    if (this.pairGate) await closeSockets(this.pairGate.sockets, 1001, 'DiffTray is closing', CLOSE_GRACE_MS);
    await this.contextPool.close();
  }

  private serve(ws: WebSocket, paired: PairedIdentity | undefined): void {
    if (paired) {
      let open = this.pairedSockets.get(paired.id);
      if (!open) this.pairedSockets.set(paired.id, (open = new Set()));
      open.add(ws);
      ws.once('close', () => {
        open.delete(ws);
        if (open.size === 0 && this.pairedSockets.get(paired.id) === open)
          this.pairedSockets.delete(paired.id);
      });
    }
    serveNativeConnection(ws, {
      ...(paired && { paired }),
      port: this.clientPort,
      sessions: this.sessions,
      serverVersion: DIFFTRAY_VERSION,
      heartbeatIntervalMs: this.options.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS,
      rateLimit: this.options.rateLimit ?? DEFAULT_RATE_LIMIT,
      endpointRate: this.endpointRate,
      hooks: () => this.hooks,
      ...(this.options.watch && { watch: this.options.watch }),
      log: this.log,
      contextPool: this.contextPool,
      ...(this.options.turnMinuteMs !== undefined && { turnMinuteMs: this.options.turnMinuteMs }),
    });
  }

  /** What any process of this user may read: never the headless UI's address (its token decides reviews). */
  private lockContent(): NativeLockFile {
    const processStart = processStartTime(process.pid);
    return {
      pid: process.pid,
      ...(processStart !== undefined && { processStart }),
      port: this.port,
      authToken: this.token,
      workspaceFolders: [...this.clientPort.workspaceFolders],
      ideName: 'DiffTray',
      transport: 'ws',
      protocol_version: NATIVE_PROTOCOL_VERSION,
    };
  }

  /** The lock file's token (a local client), a paired client's own token, or a refusal. */
  private checkToken(
    request: http.IncomingMessage,
  ): NativeRefusal | { local: true } | { paired: PairedIdentity } {
    const header = request.headers[NATIVE_AUTH_HEADER];
    if (header === undefined) {
      return {
        status: 401,
        code: ErrorCode.MISSING_TOKEN,
        message: `Missing token: send the authToken of the lock file in ${NATIVE_AUTH_HEADER}`,
      };
    }
    const given = singleHeader(header);
    const who = given === undefined ? undefined : this.identify(given);
    return who ?? { status: 401, code: ErrorCode.INVALID_TOKEN, message: 'Invalid token' };
  }

  /** Whose token this is: the lock file's (a local client), a paired client's, or nobody's. */
  private identify(token: string): { local: true } | { paired: PairedIdentity } | undefined {
    if (tokensEqual(token, this.token)) return { local: true };
    const client = this.options.pairing?.authenticate(token);
    return client ? { paired: { id: client.id, name: client.name } } : undefined;
  }

  private checkCapacity(): NativeRefusal | undefined {
    const open = this.sockets.clients.size + this.handshakeSockets.clients.size;
    if (open < this.maxConnections) return undefined;
    return {
      status: 503,
      code: ErrorCode.TOO_MANY_CONNECTIONS,
      message: `Too many connections: this endpoint takes at most ${this.maxConnections} at once`,
    };
  }
}

interface NativeRefusal {
  status: number;
  code: ErrorCode;
  message: string;
}

/** The path of an upgrade, without its query string. */
function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0] ?? '/';
}
