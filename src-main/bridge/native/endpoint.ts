/**
 * The native endpoint: DiffTray's own protocol, on its own WebSocket server on 127.0.0.1 (port 0),
 * discovered through `<DIFFTRAY_HOME or ~/.difftray>/<port>.lock` (0600 in a 0700 folder).
 *
 * The gate is the other bridges': no Origin header (403), a loopback Host with our port (403), and the
 * per-run token in `x-difftray-authorization`, compared in constant time (401; the body is a JSON error
 * with code 1001 when it is missing, 1002 when it is wrong).
 */
import type http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { AppCore } from '../../core/app-core';
import { generateToken, singleHeader, tokensEqual } from '../auth';
import { DIFFTRAY_VERSION } from '../claude-ide/connection';
import { OwnedLockFile, writeFileAtomically } from '../lock-files';
import { serveNativeConnection, type AppHooks } from './connection';
import {
  CloseCode,
  ErrorCode,
  NATIVE_AUTH_HEADER,
  NATIVE_MAX_MESSAGE_BYTES,
  NATIVE_PROTOCOL_VERSION,
  type NativeLockFile,
} from '../../../shared/native-protocol';
import { NativeSessions } from './sessions';
import { createHttpServer, listenOnLoopback, refuseForeignRequest, refuseUpgrade } from '../gate';
import { RateWindow, type RateLimit } from '../rate-limit';
import { createSocketServer, guardSocket } from '../socket-guard';

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
}

export interface NativeEndpoint {
  port: number;
  token: string;
  /** The lock file's path. */
  lockFile: string;
  /**
   * Sets (or replaces) how the app shows its window / where its headless UI is, for `show_window`,
   * `status` and the lock file's `headlessUrl` (rewritten at once). For carriers that start after the
   * endpoint.
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

export async function startNativeEndpoint(options: NativeEndpointOptions): Promise<NativeEndpoint> {
  const { core } = options;
  const log = options.log ?? (() => {});
  const token = generateToken();
  let hooks: AppHooks = {
    ...(options.headlessUrl && { headlessUrl: options.headlessUrl }),
    ...(options.showWindow && { showWindow: options.showWindow }),
  };
  const sessions = new NativeSessions({
    core,
    graceMs: options.sessionGraceMs ?? DEFAULT_SESSION_GRACE_MS,
    log,
    disconnectCode: CloseCode.DISCONNECTED_BY_USER,
  });

  const server = createHttpServer((_request, response) => {
    response
      .writeHead(404, { 'content-type': 'text/plain' })
      .end('DiffTray native protocol: WebSocket only (see ~/.difftray/<port>.lock)\n');
  });
  // The token is checked at the upgrade: every socket here has proved it, so the full limit applies.
  const wss = createSocketServer(NATIVE_MAX_MESSAGE_BYTES);
  const endpointRate = new RateWindow(options.endpointRateLimit ?? DEFAULT_ENDPOINT_RATE_LIMIT);
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const port = await listenOnLoopback(server);

  server.on('upgrade', (request, socket, head) => {
    // ws adds a socket to wss.clients within handleUpgrade (no async client check): the count is exact.
    const verdict = admit(request, port, token) ?? tooMany(wss.clients.size, maxConnections);
    if (verdict) {
      log(`native: refused connection (${verdict.status} ${verdict.message})`);
      refuse(socket, verdict);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      guardSocket(ws, 'native', log);
      serveNativeConnection(ws, {
        core,
        sessions,
        serverVersion: DIFFTRAY_VERSION,
        heartbeatIntervalMs: options.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS,
        rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT,
        endpointRate,
        hooks: () => hooks,
        log,
      });
    });
  });

  const lockFile = path.join(options.lockDir, `${port}.lock`);
  const lockContent = (): NativeLockFile => {
    const headlessUrl = hooks.headlessUrl?.();
    return {
      pid: process.pid,
      port,
      authToken: token,
      workspaceFolders: [...core.workspaceFolders],
      ideName: 'DiffTray',
      transport: 'ws',
      protocol_version: NATIVE_PROTOCOL_VERSION,
      ...(headlessUrl !== undefined && { headlessUrl }),
    };
  };
  let lock: OwnedLockFile;
  try {
    lock = new OwnedLockFile(lockFile, lockContent());
    await lock.staleRemoved;
  } catch (error) {
    await closeServer(server, wss, 0);
    throw error;
  }

  let closed: Promise<void> | undefined;
  return {
    port,
    token,
    lockFile,
    setAppHooks: (next) => {
      hooks = { ...hooks, ...next };
      if (closed) return;
      try {
        writeFileAtomically(lockFile, JSON.stringify(lockContent()));
      } catch (error) {
        log(`native: could not update ${lockFile}: ${(error as Error).message}`);
      }
    },
    close: () => {
      // Synchronous first, so that `void endpoint.close()` in an exit handler still removes the file.
      closed ??= (async () => {
        lock.remove();
        // Pending reviews end as cancelled; their results still reach the clients before the sockets close.
        sessions.endAll('DiffTray is closing');
        await sessions.settled(1000);
        await closeServer(server, wss);
      })();
      return closed;
    },
  };
}

interface Refusal {
  status: number;
  code?: ErrorCode;
  message: string;
}

function admit(request: http.IncomingMessage, port: number, token: string): Refusal | undefined {
  const foreign = refuseForeignRequest(request, port);
  if (foreign) return { status: foreign.status, message: foreign.reason };
  const header = request.headers[NATIVE_AUTH_HEADER];
  if (header === undefined) {
    return {
      status: 401,
      code: ErrorCode.MISSING_TOKEN,
      message: `Missing token: send the authToken of the lock file in ${NATIVE_AUTH_HEADER}`,
    };
  }
  if (!tokensEqual(singleHeader(header), token)) {
    return { status: 401, code: ErrorCode.INVALID_TOKEN, message: 'Invalid token' };
  }
  return undefined;
}

function tooMany(open: number, max: number): Refusal | undefined {
  if (open < max) return undefined;
  return {
    status: 503,
    code: ErrorCode.TOO_MANY_CONNECTIONS,
    message: `Too many connections: this endpoint takes at most ${max} at once`,
  };
}

/** Closes every socket (1001, "going away"), forcing those that do not answer within a moment. */
async function closeServer(server: http.Server, wss: WebSocketServer, graceMs = 500): Promise<void> {
  const sockets = [...wss.clients];
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === socket.CLOSED) return resolve();
          const timer = setTimeout(() => {
            socket.terminate();
            resolve();
          }, graceMs);
          socket.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          socket.close(1001, 'DiffTray is closing');
        }),
    ),
  );
  wss.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function refuse(socket: Duplex, refusal: Refusal): void {
  const body =
    refusal.code !== undefined
      ? `${JSON.stringify({ code: refusal.code, message: refusal.message })}\n`
      : `${refusal.message}\n`;
  refuseUpgrade(socket, refusal.status, body, refusal.code !== undefined ? 'application/json' : 'text/plain');
}
