/**
 * The app API served over HTTP + WebSocket on 127.0.0.1, so the renderer runs in any browser.
 *
 * The page and the API are guarded by a per-run token carried in the URL DiffTray prints on the terminal
 * that started it (and nowhere an agent can read: no lock file, no protocol answer). The page loaded
 * with the token sets a session cookie (./session-cookie.ts), which then admits the page and the API
 * alone. The API WebSocket also requires our own Origin (a browser always sends it, and a foreign page
 * cannot fake it) and a loopback Host (no DNS rebinding).
 */
import http from 'node:http';
import type { RawData, WebSocketServer } from 'ws';
import type WebSocket from 'ws';
import { z } from 'zod';
import type { AppChange, HeadlessServerMessage } from '../../shared/app-api';
import { RENDERER_CSP } from '../../shared/csp';
import type { AppApiHandler } from '../core/app-api-handler';
import type { AppCore } from '../core/app-core';
import { generateToken, tokensEqual } from '../loopback/auth';
import { MAX_FRAME_BYTES } from '../loopback/frame-limits';
import { markAuthenticated } from '../loopback/connection-limits';
import { createHttpServer, listenOnLoopback } from '../loopback/http-server';
import { isLoopbackHost } from '../loopback/gate';
import { rawDataToString } from '../loopback/raw-data';
import {
  createSocketServer,
  guardSocket,
  onGuardedMessage,
  sendText,
  type Log,
} from '../loopback/socket-guard';
import { readStaticTarget, resolveStaticFile } from '../loopback/static-files';
import { hasSessionCookie, sessionCookieHeader } from './session-cookie';
import { messageOf } from '../../shared/error-message';

export interface HeadlessOptions {
  core: AppCore;
  handler: AppApiHandler;
  rendererDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  token?: string;
  log?: Log;
}

/** One call from the renderer; the handler validates `params` per method. */
const apiRequestSchema = z.object({ id: z.number(), method: z.string(), params: z.unknown().optional() });

export class HeadlessServer {
  /** The session cookie's value: a secret of its own, so the cookie is not the token that is printed. */
  private readonly sessionSecret = generateToken();

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
    // The token is checked at the upgrade: every API socket has proved it, so the full limit applies.
    const wss = createSocketServer(MAX_FRAME_BYTES);
    const server = createHttpServer(undefined, undefined, { name: 'headless', log: options.log });
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

  private hasToken(request: http.IncomingMessage): boolean {
    return tokensEqual(this.tokenOf(request), this.token);
  }

  /** The printed token in the URL, or the session cookie the page loaded with it set. */
  private admitted(request: http.IncomingMessage): boolean {
    return this.hasToken(request) || hasSessionCookie(request.headers.cookie, this.port, this.sessionSecret);
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
            : !this.admitted(request)
              ? 401
              : 0;
      if (status) {
        socket.end(
          `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
        );
        return;
      }
      markAuthenticated(socket);
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
    // Decided on what would be served, however the path is spelled: every page needs the token or the
    // session cookie; the token sets the cookie, so the page may drop it from the address bar.
    const target = await resolveStaticFile(rendererDir, pathname);
    if (target?.isPage && !this.admitted(request)) {
      response
        .writeHead(401, { ...headers, 'content-type': 'text/plain; charset=utf-8' })
        .end(
          'DiffTray: open the address DiffTray printed on the terminal that started it (it carries the ' +
            'access token), or run `difftray open`.\n',
        );
      return;
    }
    const cookie =
      target?.isPage && this.hasToken(request) && sessionCookieHeader(this.port, this.sessionSecret);
    const file = target && (await readStaticTarget(target));
    if (!file) {
      response.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    response.writeHead(200, {
      ...headers,
      'content-type': file.type,
      'content-security-policy': RENDERER_CSP,
      'referrer-policy': 'no-referrer',
      ...(cookie && { 'set-cookie': cookie }),
    });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  }
}

/** A change goes to every open window as the same text: it is serialized once, not once per socket. */
const changeFrames = new WeakMap<AppChange, string>();

function changeFrame(change: AppChange): string {
  let frame = changeFrames.get(change);
  if (frame === undefined) {
    frame = JSON.stringify({ event: 'change', change } satisfies HeadlessServerMessage);
    changeFrames.set(change, frame);
  }
  return frame;
}

/**
 * One renderer connection: the whole state once, then the change stream; requests answered as they
 * complete. A malformed frame is answered with an error (id -1 when it has no usable id); none ends
 * the app.
 */
function serveApiSocket(ws: WebSocket, { core, handler, log = () => {} }: HeadlessOptions): void {
  const send = (message: HeadlessServerMessage) => {
    sendText(ws, JSON.stringify(message), 'headless API', log);
  };
  guardSocket(ws, 'headless API', log);
  const subscription = core.subscribe((change) => sendText(ws, changeFrame(change), 'headless API', log));
  ws.on('close', () => subscription.close());
  onGuardedMessage(
    ws,
    'headless API',
    log,
    async (data: RawData, isBinary: boolean) => {
      let raw: unknown;
      try {
        if (isBinary) throw new Error('binary frame');
        raw = JSON.parse(rawDataToString(data));
      } catch {
        return send({ id: -1, error: { message: 'Malformed message: not JSON' } });
      }
      const request = apiRequestSchema.safeParse(raw);
      if (!request.success) {
        return send({
          id: idOf(raw),
          error: { message: 'Malformed message: expected {"id": number, "method": string, "params"?: …}' },
        });
      }
      const { id, method, params } = request.data;
      try {
        send({ id, result: await handler(method, params, subscription) });
      } catch (error) {
        // The call failed, or its result could not be sent: either way the renderer hears of it.
        send({ id, error: { message: messageOf(error) } });
      }
    },
    () => send({ id: -1, error: { message: 'DiffTray could not handle this message' } }),
  );
  send({ event: 'snapshot', snapshot: core.snapshot() });
}

function idOf(value: unknown): number {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'number' ? id : -1;
}
