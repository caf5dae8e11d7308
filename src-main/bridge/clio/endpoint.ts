/**
 * The Clio endpoint: its own WebSocket server on 127.0.0.1 (port 0), discovered through
 * `~/.clio/ide/bridge.json` (or `CLIO_IDE_PORT`, which the person exports; see README).
 *
 * The gate is the Claude bridge's: no Origin header (403), a loopback Host with our port (403), and the
 * per-run token, compared in constant time. Clio's seed has no authentication, so the token may come
 * either in the `x-clio-ide-authorization` header (checked at upgrade: a wrong one is refused with 401)
 * or as `token` in the first `connect` message (connection.ts).
 *
 * A socket without the header has not proved anything yet: its frames are limited to
 * MAX_PREAUTH_FRAME_BYTES until `connect` carries the token, it is closed if that has not happened
 * within the deadline, and only a few such sockets may wait at once.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type WebSocket from 'ws';
import type { WebSocketServer } from 'ws';
import type { AppCore } from '../../core/app-core';
import { generateToken, singleHeader, tokensEqual } from '../../loopback/auth';
import { AUTH_DEADLINE_MS, MAX_FRAME_BYTES, MAX_PREAUTH_FRAME_BYTES } from '../../loopback/frame-limits';
import { createHttpServer, listenOnLoopback } from '../../loopback/http-server';
import { refuseForeignRequest, refuseUpgrade } from '../../loopback/gate';
import {
  createSocketServer,
  guardSocket,
  MAX_PENDING_PREAUTH_CONNECTIONS,
  setFrameLimit,
  startAuthDeadline,
} from '../../loopback/socket-guard';
import { claimBridgeFile, releaseBridgeFile } from './bridge-file';
import { CLIO_AUTH_HEADER, serveClioConnection } from './connection';

export interface ClioEndpointOptions {
  core: AppCore;
  /** Where bridge.json goes: `clioBridgeFile()` (~/.clio/ide/bridge.json) in the app, a temp path in tests. */
  lockFile: string;
  /**
   * Client names (as under Connections: "Clio") whose applyDiff is written without review; read at each
   * applyDiff, so a settings change applies at once. Default: none.
   */
  autoApply?: () => readonly string[];
  log?: (message: string) => void;
  /** How long a socket without the header may take to send `connect` with the token (AUTH_DEADLINE_MS). */
  authDeadlineMs?: number;
}

export interface ClioEndpoint {
  port: number;
  token: string;
  /** False when another live process (an editor's Clio extension, another DiffTray) keeps bridge.json. */
  ownsLockFile: boolean;
  /** Removes bridge.json (if still ours) at once, then closes every connection and the server. */
  close(): Promise<void>;
}

export async function startClioEndpoint(options: ClioEndpointOptions): Promise<ClioEndpoint> {
  const { core, lockFile } = options;
  const log = options.log ?? (() => {});
  const autoApply = options.autoApply ?? (() => []);
  const token = generateToken();

  const server = createHttpServer((_request, response) => {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('DiffTray Clio bridge: WebSocket only\n');
  });
  // Sockets that proved the token in the upgrade header, and those that still have to (in `connect`).
  const authenticated = createSocketServer(MAX_FRAME_BYTES);
  const unauthenticated = createSocketServer(MAX_PREAUTH_FRAME_BYTES);
  const waiting = new Set<WebSocket>();
  const port = await listenOnLoopback(server);

  server.on('upgrade', (request, socket, head) => {
    const verdict = admit(request, port, token, waiting.size);
    if ('status' in verdict) {
      log(`clio: refused connection (${verdict.status} ${verdict.reason})`);
      refuse(socket, verdict.status, verdict.reason);
      return;
    }
    if (verdict.authenticated) {
      authenticated.handleUpgrade(request, socket, head, (ws) => {
        guardSocket(ws, 'clio', log);
        serveClioConnection(ws, { core, token, authenticated: true, autoApply, log });
      });
      return;
    }
    unauthenticated.handleUpgrade(request, socket, head, (ws) => {
      guardSocket(ws, 'clio', log);
      waiting.add(ws);
      ws.once('close', () => waiting.delete(ws));
      const deadlineMs = options.authDeadlineMs ?? AUTH_DEADLINE_MS;
      const connection = serveClioConnection(ws, {
        core,
        token,
        authenticated: false,
        autoApply,
        log,
        onAuthenticated: () => {
          deadline.done();
          waiting.delete(ws);
          try {
            setFrameLimit(ws, MAX_FRAME_BYTES);
          } catch (error) {
            log(`clio: frames stay limited to ${MAX_PREAUTH_FRAME_BYTES} bytes: ${(error as Error).message}`);
          }
        },
      });
      const deadline = startAuthDeadline(
        ws,
        () => {
          log('clio: closed a connection that did not authenticate in time');
          connection.refuse(`No connect with the token within ${deadlineMs} ms`);
        },
        deadlineMs,
      );
    });
  });

  let ownsLockFile = false;
  try {
    const claim = await claimBridgeFile(lockFile, {
      port,
      pid: process.pid,
      ideName: 'DiffTray',
      workspaceFolders: [...core.workspaceFolders],
      timestamp: Date.now(),
      authToken: token,
    });
    ownsLockFile = claim.written;
    if (!claim.written) {
      log(
        `clio: ${lockFile} belongs to a running process (pid ${claim.ownerPid}); kept it. ` +
          `Clio can still reach DiffTray with CLIO_IDE_PORT=${port}`,
      );
    }
  } catch (error) {
    await closeServer(server, [authenticated, unauthenticated]);
    throw error;
  }

  let closed: Promise<void> | undefined;
  return {
    port,
    token,
    ownsLockFile,
    close: () => {
      // Synchronous first, so that `void endpoint.close()` in an exit handler still removes the file.
      closed ??= (() => {
        if (ownsLockFile) releaseBridgeFile(lockFile, port);
        return closeServer(server, [authenticated, unauthenticated]);
      })();
      return closed;
    },
  };
}

function admit(
  request: http.IncomingMessage,
  port: number,
  token: string,
  waiting: number,
): { authenticated: boolean } | { status: number; reason: string } {
  const foreign = refuseForeignRequest(request, port);
  if (foreign) return foreign;
  const header = request.headers[CLIO_AUTH_HEADER];
  // No header: the token must come in `connect`. A header must be given once, and be right.
  if (header === undefined) {
    return waiting < MAX_PENDING_PREAUTH_CONNECTIONS
      ? { authenticated: false }
      : { status: 503, reason: 'Too many connections waiting to authenticate' };
  }
  return tokensEqual(singleHeader(header), token)
    ? { authenticated: true }
    : { status: 401, reason: 'Invalid auth token' };
}

async function closeServer(server: http.Server, servers: WebSocketServer[]): Promise<void> {
  for (const wss of servers) {
    for (const socket of wss.clients) socket.terminate();
    wss.close();
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function refuse(socket: Duplex, status: number, reason: string): void {
  refuseUpgrade(socket, status, `${reason}\n`);
}
