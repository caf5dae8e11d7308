/**
 * The Clio endpoint: its own loopback server (port 0), discovered through `~/.clio/ide/bridge.json` (or
 * `CLIO_IDE_PORT`, which the person exports; see README).
 *
 * The loopback server's gate (no Origin header, a loopback Host with our port: 403) comes first; then the
 * per-run token, compared in constant time. Clio's seed has no authentication, so the token may come
 * either in the `x-clio-ide-authorization` header (checked at upgrade: a wrong one is refused with 401)
 * or as `token` in the first `connect` message (connection.ts).
 *
 * A socket without the header has not proved anything yet: its frames are limited to
 * MAX_PREAUTH_FRAME_BYTES until `connect` carries the token, it is closed if that has not happened
 * within the deadline, and only a few such sockets may wait at once.
 *
 * A `connect` with no token at all (the real Clio CLI) is not refused: the person is asked (prompt.ts).
 * The socket then waits for that answer instead of the deadline, still with the small frames, taking
 * no other message; denied or unanswered, it is told so and closed.
 */
import type http from 'node:http';
import type WebSocket from 'ws';
import type { AppCore } from '../../core/app-core';
import { clientPort, type ClientPort } from '../../core/clients/agent-session';
import { generateToken, singleHeader, tokensEqual } from '../../loopback/auth';
import { terminateSockets } from '../../loopback/close-sockets';
import { AUTH_DEADLINE_MS, MAX_FRAME_BYTES, MAX_PREAUTH_FRAME_BYTES } from '../../loopback/frame-limits';
import {
  LoopbackServer,
  type AdmittedUpgrade,
  type EndpointRefusal,
  type LoopbackEndpoint,
} from '../../loopback/loopback-server';
import {
  createSocketServer,
  MAX_PENDING_PREAUTH_CONNECTIONS,
  setFrameLimit,
  startAuthDeadline,
} from '../../loopback/socket-guard';
import { claimBridgeFile, releaseBridgeFile, rewriteBridgeFile, type ClioBridgeInfo } from './bridge-file';
import { CLIO_AUTH_HEADER, serveClioConnection } from './connection';
import { askToConnect } from './prompt';
import { messageOf } from '../../../shared/error-message';

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
  const clio = new ClioLoopback(options);
  const notFound = 'DiffTray Clio bridge: WebSocket only\n';
  const server = await LoopbackServer.start({ name: 'clio', notFound, endpoints: [clio], log: options.log });
  return { port: server.port, token: clio.token, ownsLockFile: clio.ownsLockFile, close: server.close };
}

export class ClioLoopback implements LoopbackEndpoint {
  readonly token = generateToken();
  ownsLockFile = false;
  private port: number | undefined;
  private stopFollowing: (() => void) | undefined;
  // Sockets that proved the token in the upgrade header, and those that still have to (in `connect`).
  private readonly authenticated = createSocketServer(MAX_FRAME_BYTES);
  private readonly unauthenticated = createSocketServer(MAX_PREAUTH_FRAME_BYTES);
  private readonly waiting = new Set<WebSocket>();
  private readonly log: (message: string) => void;
  private readonly autoApply: () => readonly string[];
  /** Core, as this adapter reaches it. */
  private readonly clientPort: ClientPort;

  constructor(private readonly options: ClioEndpointOptions) {
    this.clientPort = clientPort(options.core);
    this.log = options.log ?? (() => {});
    this.autoApply = options.autoApply ?? (() => []);
  }

  async open(port: number): Promise<void> {
    const { lockFile } = this.options;
    const claim = await claimBridgeFile(lockFile, this.bridgeInfo(port));
    this.port = port;
    this.ownsLockFile = claim.written;
    if (claim.written) {
      this.stopFollowing = this.clientPort.onWorkspaceFolders(() => {
        try {
          rewriteBridgeFile(lockFile, this.bridgeInfo(port));
        } catch (error) {
          this.log(`clio: ${lockFile} not updated: ${messageOf(error)}`);
        }
      });
    }
    if (!claim.written) {
      this.log(
        `clio: ${lockFile} belongs to a running process (pid ${claim.ownerPid}); kept it. ` +
          `Clio can still reach DiffTray with CLIO_IDE_PORT=${port}`,
      );
    }
  }

  admitUpgrade(request: http.IncomingMessage): EndpointRefusal | AdmittedUpgrade {
    const header = request.headers[CLIO_AUTH_HEADER];
    // No header: the token must come in `connect`. A header must be given once, and be right.
    if (header === undefined) {
      return this.waiting.size < MAX_PENDING_PREAUTH_CONNECTIONS
        ? {
            sockets: this.unauthenticated,
            label: 'clio',
            serve: (ws) => this.serveUnauthenticated(ws, request.socket.localPort, request.socket.remotePort),
          }
        : { status: 503, reason: 'Too many connections waiting to authenticate' };
    }
    if (!tokensEqual(singleHeader(header), this.token)) return { status: 401, reason: 'Invalid auth token' };
    return { sockets: this.authenticated, label: 'clio', serve: (ws) => this.serve(ws, true) };
  }

  private bridgeInfo(port: number): ClioBridgeInfo {
    return {
      port,
      pid: process.pid,
      ideName: 'DiffTray',
      workspaceFolders: [...this.clientPort.workspaceFolders],
      timestamp: Date.now(),
      authToken: this.token,
    };
  }

  async close(): Promise<void> {
    this.stopFollowing?.();
    if (this.ownsLockFile && this.port !== undefined) releaseBridgeFile(this.options.lockFile, this.port);
    terminateSockets(this.authenticated, this.unauthenticated);
  }

  private serve(
    ws: WebSocket,
    authenticated: boolean,
    onAuthenticated?: () => void,
    onTokenlessConnect?: (clientName: string | undefined) => void,
  ) {
    return serveClioConnection(ws, {
      port: this.clientPort,
      token: this.token,
      authenticated,
      autoApply: this.autoApply,
      log: this.log,
      ...(onAuthenticated && { onAuthenticated }),
      ...(onTokenlessConnect && { onTokenlessConnect }),
    });
  }

  /** Frames stay small until `connect` carries the token, which must come before the deadline. */
  private serveUnauthenticated(
    ws: WebSocket,
    serverPort: number | undefined,
    peerPort: number | undefined,
  ): void {
    this.waiting.add(ws);
    ws.once('close', () => this.waiting.delete(ws));
    const deadlineMs = this.options.authDeadlineMs ?? AUTH_DEADLINE_MS;
    const onAuthenticated = () => {
      deadline.done();
      this.waiting.delete(ws);
      try {
        setFrameLimit(ws, MAX_FRAME_BYTES);
      } catch (error) {
        this.log(`clio: frames stay limited to ${MAX_PREAUTH_FRAME_BYTES} bytes: ${messageOf(error)}`);
      }
    };
    // No token at all: the prompt's own time limit replaces the deadline (core/clients/connection-requests.ts).
    const onTokenlessConnect = (clientName: string | undefined) => {
      deadline.done();
      if (serverPort === undefined || peerPort === undefined) {
        return connection.refuse('The connecting program could not be identified');
      }
      askToConnect(
        {
          serverPort,
          peerPort,
          allow: (peer) => connection.allow(peer),
          refuse: (reason) => connection.refuse(reason),
          onClose: (listener) => ws.once('close', listener),
        },
        clientName,
        { port: this.clientPort, log: this.log },
      );
    };
    const connection = this.serve(ws, false, onAuthenticated, onTokenlessConnect);
    const deadline = startAuthDeadline(
      ws,
      () => {
        this.log('clio: closed a connection that did not authenticate in time');
        connection.refuse(`No connect with the token within ${deadlineMs} ms`);
      },
      deadlineMs,
    );
  }
}
