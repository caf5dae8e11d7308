/**
 * The localhost bridge: one HTTP server on 127.0.0.1 (port 0) whose WebSocket upgrades are routed to a
 * protocol by the auth header they carry. Every upgrade must pass the gate: no Origin header (a web
 * page cannot forge its absence), a loopback Host with our port (no DNS rebinding), the `mcp`
 * subprotocol, and the right token compared in constant time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { ClientProtocol } from '../../shared/app-api';
import type { AppCore } from '../core/app-core';
import { generateToken, singleHeader, tokensEqual } from './auth';
import { serveClaudeConnection } from './claude-ide/connection';
import { OwnedLockFile } from './lock-files';

/** One way in: a protocol, the header that carries its token, and where its lock file goes. */
export interface WsEndpoint {
  protocol: ClientProtocol;
  displayName: string;
  authHeader: string;
  lockDir: string;
}

export interface BridgeOptions {
  core: AppCore;
  endpoints: WsEndpoint[];
  /** Written into lock files as `ideName`. */
  ideName?: string;
  log?: (message: string) => void;
}

/** Frames up to this size are accepted: a 10 MB file, JSON-escaped, with room to spare. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export class BridgeServer {
  private readonly lockFiles: OwnedLockFile[] = [];
  private readonly tokens = new Map<WsEndpoint, string>();

  private constructor(
    private readonly server: http.Server,
    private readonly wss: WebSocketServer,
    readonly port: number,
  ) {}

  static async start(options: BridgeOptions): Promise<BridgeServer> {
    const server = http.createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('DiffTray bridge: WebSocket only\n');
    });
    const wss = new WebSocketServer({
      noServer: true,
      maxPayload: MAX_FRAME_BYTES,
      handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false),
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const bridge = new BridgeServer(server, wss, (server.address() as AddressInfo).port);
    try {
      bridge.open(options);
    } catch (error) {
      await bridge.close();
      throw error;
    }
    return bridge;
  }

  tokenFor(protocol: ClientProtocol): string {
    for (const [endpoint, token] of this.tokens) if (endpoint.protocol === protocol) return token;
    throw new Error(`No endpoint for ${protocol}`);
  }

  lockFilePaths(): string[] {
    return this.lockFiles.map((lock) => lock.file);
  }

  async close(): Promise<void> {
    for (const lock of this.lockFiles) lock.remove();
    for (const socket of this.wss.clients) socket.terminate();
    this.wss.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private open(options: BridgeOptions): void {
    const { core, endpoints } = options;
    const log = options.log ?? (() => {});
    for (const endpoint of endpoints) {
      const token = generateToken();
      this.tokens.set(endpoint, token);
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
        serveClaudeConnection(ws, core, verdict.endpoint.protocol, verdict.endpoint.displayName).catch(
          (error) => {
            log(`bridge: connection failed: ${(error as Error).message}`);
            ws.terminate();
          },
        );
      });
    });
  }

  private admit(
    request: http.IncomingMessage,
  ): { endpoint: WsEndpoint } | { status: number; reason: string } {
    if (request.headers.origin !== undefined) return { status: 403, reason: 'Origin not allowed' };
    const host = request.headers.host;
    if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`) {
      return { status: 403, reason: 'Host not allowed' };
    }
    const protocols = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    if (!protocols.includes('mcp')) return { status: 400, reason: 'Subprotocol mcp required' };
    for (const [endpoint, token] of this.tokens) {
      const given = singleHeader(request.headers[endpoint.authHeader]);
      if (given !== undefined) {
        return tokensEqual(given, token) ? { endpoint } : { status: 401, reason: 'Invalid auth token' };
      }
    }
    return { status: 401, reason: 'Missing auth token' };
  }
}

function refuse(socket: Duplex, status: number, reason: string): void {
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\n` +
      `Content-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
