/**
 * The localhost bridge: one HTTP server on 127.0.0.1 (port 0). WebSocket upgrades (Claude Code, NEXUS3)
 * are routed to a protocol by the auth header they carry; HTTP requests to /mcp (Gemini CLI, Qwen Code)
 * by the bearer token they carry. Every request must pass the gate: no Origin header (a web page cannot
 * forge its absence), a loopback Host with our port (no DNS rebinding), and the right token compared
 * in constant time; upgrades also need the `mcp` subprotocol.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { ClientProtocol } from '../../shared/app-api';
import type { AppCore } from '../core/app-core';
import { generateToken, singleHeader, tokensEqual } from '../loopback/auth';
import { serveClaudeConnection } from './claude-ide/connection';
import { writeGeminiDiscoveryFile, writeQwenLockFile } from './gemini-ide/discovery';
import { GeminiMcpEndpoint } from './gemini-ide/mcp-endpoint';
import type { GeminiEndpoint } from './gemini-ide/session';
import { MAX_FRAME_BYTES } from '../loopback/frame-limits';
import { OwnedLockFile } from './lock-files';
import { createHttpServer, listenOnLoopback } from '../loopback/http-server';
import { refuseForeignRequest, refuseUpgrade, type Refusal } from '../loopback/gate';
import { createSocketServer, guardSocket } from '../loopback/socket-guard';

export type { GeminiEndpoint };

/** One way in over WebSocket: a protocol, the header that carries its token, and where its lock file goes. */
export interface WsEndpoint {
  transport?: 'ws';
  protocol: ClientProtocol;
  displayName: string;
  authHeader: string;
  lockDir: string;
}

/** Every way in: WebSocket endpoints, and MCP over HTTP at /mcp for Gemini CLI and Qwen Code. */
export type BridgeEndpoint = WsEndpoint | GeminiEndpoint;

export interface BridgeOptions {
  core: AppCore;
  endpoints: BridgeEndpoint[];
  /** Written into lock files as `ideName`. */
  ideName?: string;
  log?: (message: string) => void;
  /** How long a Gemini/Qwen session may be without its event stream before it counts as gone. */
  mcpStreamGraceMs?: number;
}

export const MCP_PATH = '/mcp';

export class BridgeServer {
  private readonly lockFiles: OwnedLockFile[] = [];
  private readonly discoveryFiles: OwnedLockFile[] = [];
  private readonly tokens = new Map<BridgeEndpoint, string>();
  private mcp: GeminiMcpEndpoint | undefined;

  private constructor(
    private readonly server: http.Server,
    private readonly wss: WebSocketServer,
    readonly port: number,
  ) {}

  static async start(options: BridgeOptions): Promise<BridgeServer> {
    // Requests are answered once the bridge is open (below); none can arrive before listen().
    let onRequest: http.RequestListener = (_request, response) => response.writeHead(503).end();
    const server = createHttpServer((request, response) => onRequest(request, response));
    // The token comes in the upgrade's header: every socket here has proved it, so the full limit applies.
    const wss = createSocketServer(MAX_FRAME_BYTES, (protocols) => (protocols.has('mcp') ? 'mcp' : false));
    const bridge = new BridgeServer(server, wss, await listenOnLoopback(server));
    onRequest = (request, response) => bridge.onRequest(request, response, options.log ?? (() => {}));
    try {
      bridge.open(options);
    } catch (error) {
      await bridge.close();
      throw error;
    }
    // Started: stale lock files of crashed instances are gone (lock-files.ts says which are stale).
    await Promise.all([...bridge.lockFiles, ...bridge.discoveryFiles].map((lock) => lock.staleRemoved));
    return bridge;
  }

  tokenFor(protocol: ClientProtocol): string {
    for (const [endpoint, token] of this.tokens) if (endpoint.protocol === protocol) return token;
    throw new Error(`No endpoint for ${protocol}`);
  }

  /** Claude Code's and NEXUS3's `<port>.lock` files. */
  lockFilePaths(): string[] {
    return this.lockFiles.map((lock) => lock.file);
  }

  /** Gemini CLI's discovery file and Qwen Code's lock file (where they could be written). */
  discoveryFilePaths(): string[] {
    return this.discoveryFiles.map((file) => file.file);
  }

  async close(): Promise<void> {
    for (const lock of [...this.lockFiles, ...this.discoveryFiles]) lock.remove();
    for (const socket of this.wss.clients) socket.terminate();
    this.wss.close();
    await this.mcp?.close();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Event streams and keep-alive connections would otherwise hold the server open.
    this.server.closeAllConnections();
    await closed;
  }

  private open(options: BridgeOptions): void {
    const { core, endpoints } = options;
    const log = options.log ?? (() => {});
    for (const endpoint of endpoints) {
      const token = generateToken();
      this.tokens.set(endpoint, token);
      if (endpoint.transport === 'http') {
        this.openMcpEndpoint(endpoint, token, options, log);
        continue;
      }
      this.lockFiles.push(
        new OwnedLockFile(`${endpoint.lockDir}/${this.port}.lock`, {
          pid: process.pid,
          workspaceFolders: core.workspaceFolders,
          ideName: options.ideName ?? 'DiffTray',
          transport: 'ws',
          authToken: token,
          runningInWindows: process.platform === 'win32',
        }),
      );
    }

    this.server.on('upgrade', (request, socket, head) => {
      const verdict = this.admit(request);
      if ('status' in verdict) {
        log(`bridge: refused connection (${verdict.status} ${verdict.reason})`);
        refuse(socket, verdict.status, verdict.reason);
        return;
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => {
        guardSocket(ws, verdict.endpoint.displayName, log);
        serveClaudeConnection(ws, core, verdict.endpoint.protocol, verdict.endpoint.displayName).catch(
          (error) => {
            log(`bridge: connection failed: ${(error as Error).message}`);
            ws.terminate();
          },
        );
      });
    });
  }

  /**
   * Gemini CLI's discovery file or Qwen Code's lock file. Both live in folders other programs share
   * (the temp folder, ~/.qwen), so a failure to write one is logged and the bridge runs on.
   */
  private openMcpEndpoint(
    endpoint: GeminiEndpoint,
    token: string,
    options: BridgeOptions,
    log: (message: string) => void,
  ): void {
    this.mcp ??= new GeminiMcpEndpoint({
      core: options.core,
      log,
      ...(options.mcpStreamGraceMs !== undefined && { streamGraceMs: options.mcpStreamGraceMs }),
    });
    const details = { port: this.port, authToken: token, workspaceFolders: options.core.workspaceFolders };
    try {
      this.discoveryFiles.push(
        endpoint.discovery === 'gemini'
          ? writeGeminiDiscoveryFile(endpoint.dir, details)
          : writeQwenLockFile(endpoint.dir, details),
      );
    } catch (error) {
      log(`bridge: no discovery file for ${endpoint.displayName}: ${(error as Error).message}`);
    }
  }

  private onRequest(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    log: (message: string) => void,
  ): void {
    const url = request.url ?? '';
    const pathname = url.split('?', 1)[0];
    if (pathname !== MCP_PATH || !this.mcp) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('DiffTray bridge: not found\n');
      return;
    }
    const verdict = this.admitHttp(request);
    if ('status' in verdict) {
      log(`bridge: refused request (${verdict.status} ${verdict.reason})`);
      response
        .writeHead(verdict.status, { 'content-type': 'text/plain', connection: 'close' })
        .end(`${verdict.reason}\n`);
      return;
    }
    void this.mcp.handle(request, response, verdict.endpoint);
  }

  /** Origin and Host, checked the same way for upgrades and plain requests. */
  private checkOrigin(request: http.IncomingMessage): Refusal | undefined {
    return refuseForeignRequest(request, this.port);
  }

  private admit(
    request: http.IncomingMessage,
  ): { endpoint: WsEndpoint } | { status: number; reason: string } {
    const refused = this.checkOrigin(request);
    if (refused) return refused;
    const protocols = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    if (!protocols.includes('mcp')) return { status: 400, reason: 'Subprotocol mcp required' };
    for (const [endpoint, token] of this.tokens) {
      if (endpoint.transport === 'http') continue;
      const given = singleHeader(request.headers[endpoint.authHeader]);
      if (given !== undefined) {
        return tokensEqual(given, token) ? { endpoint } : { status: 401, reason: 'Invalid auth token' };
      }
    }
    return { status: 401, reason: 'Missing auth token' };
  }

  /**
   * `Authorization: Bearer <token>`: the token says which endpoint (Gemini CLI or Qwen Code). Every
   * token is compared, in constant time, whichever matches.
   */
  private admitHttp(
    request: http.IncomingMessage,
  ): { endpoint: GeminiEndpoint } | { status: number; reason: string } {
    const refused = this.checkOrigin(request);
    if (refused) return refused;
    const match = /^Bearer +(\S+) *$/i.exec(singleHeader(request.headers.authorization) ?? '');
    if (!match) return { status: 401, reason: 'Missing auth token' };
    let admitted: GeminiEndpoint | undefined;
    for (const [endpoint, token] of this.tokens) {
      if (endpoint.transport !== 'http') continue;
      if (tokensEqual(match[1], token)) admitted ??= endpoint;
    }
    return admitted ? { endpoint: admitted } : { status: 401, reason: 'Invalid auth token' };
  }
}

function refuse(socket: Duplex, status: number, reason: string): void {
  refuseUpgrade(socket, status, `${reason}\n`);
}
