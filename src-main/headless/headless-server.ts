/**
 * The app API served over HTTP + WebSocket on 127.0.0.1, so the renderer runs in any browser.
 *
 * The page and the API are guarded by a per-run token carried in the URL DiffTray prints. The API
 * WebSocket also requires our own Origin (a browser always sends it, and a foreign page cannot fake
 * it) and a loopback Host (no DNS rebinding).
 */
import http from 'node:http';
import type { RawData } from 'ws';
import WebSocket, { WebSocketServer } from 'ws';
import type { HeadlessServerMessage } from '../../shared/app-api';
import { RENDERER_CSP } from '../../shared/csp';
import type { AppApiHandler } from '../core/app-api-handler';
import type { AppCore } from '../core/app-core';
import { generateToken, tokensEqual } from '../bridge/auth';
import { rawDataToString } from '../bridge/raw-data';
import { readStaticFile } from './static-files';
import { isLoopbackHost, listenOnLoopback } from '../bridge/gate';

export interface HeadlessOptions {
  core: AppCore;
  handler: AppApiHandler;
  rendererDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  token?: string;
}

const MAX_API_FRAME_BYTES = 64 * 1024 * 1024;

export class HeadlessServer {
  private constructor(
    private readonly server: http.Server,
    private readonly wss: WebSocketServer,
    readonly port: number,
    readonly token: string,
  ) {}

  /** The address to open in a browser. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/?token=${this.token}`;
  }

  static async start(options: HeadlessOptions): Promise<HeadlessServer> {
    const token = options.token ?? generateToken();
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_API_FRAME_BYTES });
    const server = http.createServer();
    const headless = new HeadlessServer(server, wss, await listenOnLoopback(server, options.port), token);
    headless.serve(options);
    return headless;
  }

  async close(): Promise<void> {
    for (const socket of this.wss.clients) socket.terminate();
    this.wss.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private hostAllowed(host: string | undefined): boolean {
    return isLoopbackHost(host, this.port);
  }

  private tokenOf(request: http.IncomingMessage): string | undefined {
    return new URL(request.url ?? '/', 'http://x').searchParams.get('token') ?? undefined;
  }

  private serve(options: HeadlessOptions): void {
    this.server.on('request', (request, response) => {
      void this.serveHttp(options.rendererDir, request, response);
    });
    this.server.on('upgrade', (request, socket, head) => {
      const url = new URL(request.url ?? '/', 'http://x');
      const origin = request.headers.origin;
      const ownOrigin =
        origin === `http://127.0.0.1:${this.port}` || origin === `http://localhost:${this.port}`;
      const status =
        url.pathname !== '/api'
          ? 404
          : !this.hostAllowed(request.headers.host) || !ownOrigin
            ? 403
            : !tokensEqual(this.tokenOf(request), this.token)
              ? 401
              : 0;
      if (status) {
        socket.end(
          `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
        );
        return;
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => serveApiSocket(ws, options));
    });
  }

  private async serveHttp(
    rendererDir: string,
    request: http.IncomingMessage,
    response: http.ServerResponse,
  ): Promise<void> {
    const headers = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };
    if (!this.hostAllowed(request.headers.host)) {
      response.writeHead(403, { ...headers, 'content-type': 'text/plain' }).end('Host not allowed\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...headers, allow: 'GET, HEAD' }).end();
      return;
    }
    const { pathname } = new URL(request.url ?? '/', 'http://x');
    const isPage = pathname === '/' || pathname === '/index.html';
    if (isPage && !tokensEqual(this.tokenOf(request), this.token)) {
      response
        .writeHead(401, { ...headers, 'content-type': 'text/plain; charset=utf-8' })
        .end('DiffTray: open the address DiffTray printed at start; it carries the access token.\n');
      return;
    }
    const file = await readStaticFile(rendererDir, pathname);
    if (!file) {
      response.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    response.writeHead(200, {
      ...headers,
      'content-type': file.type,
      'content-security-policy': RENDERER_CSP,
      'referrer-policy': 'no-referrer',
    });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  }
}

/** One renderer connection: requests answered in order of arrival, snapshots pushed as they change. */
function serveApiSocket(ws: WebSocket, { core, handler }: HeadlessOptions): void {
  const send = (message: HeadlessServerMessage) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  };
  const unsubscribe = core.onSnapshot((snapshot) => send({ event: 'snapshot', snapshot }));
  ws.on('close', unsubscribe);
  ws.on('message', (data: RawData) => {
    let request: { id?: unknown; method?: unknown; params?: unknown };
    try {
      request = JSON.parse(rawDataToString(data));
    } catch {
      return send({ id: -1, error: { message: 'Malformed message: not JSON' } });
    }
    const id = typeof request?.id === 'number' ? request.id : -1;
    handler(request.method, request.params).then(
      (result) => send({ id, result }),
      (error: unknown) =>
        send({ id, error: { message: error instanceof Error ? error.message : String(error) } }),
    );
  });
  send({ event: 'snapshot', snapshot: core.snapshot() });
}
