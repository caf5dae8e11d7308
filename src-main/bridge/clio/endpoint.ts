/**
 * The Clio endpoint: its own WebSocket server on 127.0.0.1 (port 0), discovered through
 * `~/.clio/ide/bridge.json` (or `CLIO_IDE_PORT`, which the person exports; see README).
 *
 * The gate is the Claude bridge's: no Origin header (403), a loopback Host with our port (403), and the
 * per-run token, compared in constant time. Clio's seed has no authentication, so the token may come
 * either in the `x-clio-ide-authorization` header (checked at upgrade: a wrong one is refused with 401)
 * or as `token` in the first `connect` message (connection.ts).
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { AppCore } from '../../core/app-core';
import { generateToken, singleHeader, tokensEqual } from '../auth';
import { claimBridgeFile, releaseBridgeFile } from './bridge-file';
import { CLIO_AUTH_HEADER, serveClioConnection } from './connection';
import { listenOnLoopback, refuseForeignRequest, refuseUpgrade } from '../gate';

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
}

export interface ClioEndpoint {
  port: number;
  token: string;
  /** False when another live process (an editor's Clio extension, another DiffTray) keeps bridge.json. */
  ownsLockFile: boolean;
  /** Removes bridge.json (if still ours) at once, then closes every connection and the server. */
  close(): Promise<void>;
}

/** Frames up to this size are accepted: a 10 MB file, JSON-escaped, with room to spare. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export async function startClioEndpoint(options: ClioEndpointOptions): Promise<ClioEndpoint> {
  const { core, lockFile } = options;
  const log = options.log ?? (() => {});
  const autoApply = options.autoApply ?? (() => []);
  const token = generateToken();

  const server = http.createServer((_request, response) => {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('DiffTray Clio bridge: WebSocket only\n');
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const port = await listenOnLoopback(server);

  server.on('upgrade', (request, socket, head) => {
    const verdict = admit(request, port, token);
    if ('status' in verdict) {
      log(`clio: refused connection (${verdict.status} ${verdict.reason})`);
      refuse(socket, verdict.status, verdict.reason);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      serveClioConnection(ws, { core, token, authenticated: verdict.authenticated, autoApply, log });
    });
  });

  let ownsLockFile = false;
  try {
    const claim = claimBridgeFile(lockFile, {
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
    await closeServer(server, wss);
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
        return closeServer(server, wss);
      })();
      return closed;
    },
  };
}

function admit(
  request: http.IncomingMessage,
  port: number,
  token: string,
): { authenticated: boolean } | { status: number; reason: string } {
  const foreign = refuseForeignRequest(request, port);
  if (foreign) return foreign;
  const header = request.headers[CLIO_AUTH_HEADER];
  // No header: the token must come in `connect`. A header must be given once, and be right.
  if (header === undefined) return { authenticated: false };
  return tokensEqual(singleHeader(header), token)
    ? { authenticated: true }
    : { status: 401, reason: 'Invalid auth token' };
}

async function closeServer(server: http.Server, wss: WebSocketServer): Promise<void> {
  for (const socket of wss.clients) socket.terminate();
  wss.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function refuse(socket: Duplex, status: number, reason: string): void {
  refuseUpgrade(socket, status, `${reason}\n`);
}
