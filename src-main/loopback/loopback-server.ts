/**
 * One HTTP server on 127.0.0.1 for any number of protocols. Each protocol registers a LoopbackEndpoint
 * that says how to admit what arrives and how to serve it; listening, the gate, refusals, handing an
 * upgrade to a socket server and closing happen here, the same way for every protocol:
 *
 * - a plain request is routed by its path (query aside) to the endpoint that takes it; any other path
 *   gets the server's `notFound` text (404);
 * - the gate (gate.ts) refuses an Origin header or a Host other than ours (403);
 * - the endpoint admits (token, subprotocol, caps) or refuses with a status and a reason;
 * - an admitted upgrade joins the endpoint's socket server (its frame limit) behind guardSocket.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type WebSocket from 'ws';
import type { WebSocketServer } from 'ws';
import { markAuthenticated } from './connection-limits';
import { refuseForeignRequest, refuseUpgrade, type Refusal } from './gate';
import { createHttpServer, listenOnLoopback } from './http-server';
import { guardSocket, type Log } from './socket-guard';

/** A refusal; protocols whose errors are JSON (native) give the body to send instead of the reason. */
export interface EndpointRefusal extends Refusal {
  body?: object;
}

export interface AdmittedUpgrade {
  /** The socket server the connection joins: its frame limit, its subprotocols. */
  sockets: WebSocketServer;
  /** Names the connection in logs. */
  label: string;
  serve(socket: WebSocket): void;
}

export interface AdmittedRequest {
  serve(request: http.IncomingMessage, response: http.ServerResponse): void;
}

/** Plain HTTP requests at one path, and how they are admitted. */
export interface RequestRoute {
  path: string;
  admit(request: http.IncomingMessage): EndpointRefusal | AdmittedRequest;
}

/** One protocol's way in. Every method but close is optional: an endpoint takes only what it serves. */
export interface LoopbackEndpoint {
  requests?: RequestRoute;
  /**
   * Decides an upgrade that passed the gate; undefined when the upgrade is not this endpoint's (the next
   * endpoint of the server is asked).
   */
  admitUpgrade?(request: http.IncomingMessage): EndpointRefusal | AdmittedUpgrade | undefined;
  /** Called once the port is known, to write discovery files; a throw closes the server again. */
  open?(port: number): void | Promise<void>;
  /**
   * Removes the endpoint's discovery files synchronously, before anything is awaited (an exit handler
   * cannot wait), then ends its connections.
   */
  close(): Promise<void>;
}

export interface LoopbackServerOptions {
  /** Prefixes the server's log lines: "bridge: refused connection (…)". */
  name: string;
  /** The body of the 404 a plain request at no endpoint's path gets. */
  notFound: string;
  endpoints: LoopbackEndpoint[];
  log?: Log;
  /** 0 (default) lets the OS pick. */
  port?: number;
}

export class LoopbackServer {
  private closed: Promise<void> | undefined;

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
    private readonly options: LoopbackServerOptions,
    private readonly log: Log,
  ) {
    server.on('request', (request, response) => this.onRequest(request, response));
    server.on('upgrade', (request, socket, head) => this.onUpgrade(request, socket, head));
  }

  static async start(options: LoopbackServerOptions): Promise<LoopbackServer> {
    const server = createHttpServer(undefined, undefined, { name: options.name, log: options.log });
    const port = await listenOnLoopback(server, options.port);
    const loopback = new LoopbackServer(server, port, options, options.log ?? (() => {}));
    try {
      for (const endpoint of options.endpoints) await endpoint.open?.(port);
    } catch (error) {
      await loopback.close();
      throw error;
    }
    return loopback;
  }

  /** Ends every endpoint (their discovery files go at once, synchronously), then the server. */
  readonly close = (): Promise<void> => {
    this.closed ??= (async () => {
      const ended = this.options.endpoints.map((endpoint) => endpoint.close());
      await Promise.all(ended);
      const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
      // Event streams and keep-alive connections would otherwise hold the server open.
      this.server.closeAllConnections();
      await closed;
    })();
    return this.closed;
  };

  private onRequest(request: http.IncomingMessage, response: http.ServerResponse): void {
    const pathname = (request.url ?? '').split('?', 1)[0];
    const route = this.options.endpoints.find((endpoint) => endpoint.requests?.path === pathname)?.requests;
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(this.options.notFound);
      return;
    }
    const verdict = refuseForeignRequest(request, this.port) ?? route.admit(request);
    if ('status' in verdict) {
      this.log(`${this.options.name}: refused request (${verdict.status} ${verdict.reason})`);
      response
        .writeHead(verdict.status, { 'content-type': 'text/plain', connection: 'close' })
        .end(`${verdict.reason}\n`);
      return;
    }
    markAuthenticated(request.socket);
    verdict.serve(request, response);
  }

  private onUpgrade(request: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const verdict = refuseForeignRequest(request, this.port) ?? this.admitUpgrade(request);
    if ('status' in verdict) {
      this.log(`${this.options.name}: refused connection (${verdict.status} ${verdict.reason})`);
      refuse(socket, verdict);
      return;
    }
    markAuthenticated(socket);
    verdict.sockets.handleUpgrade(request, socket, head, (ws) => {
      guardSocket(ws, verdict.label, this.log);
      verdict.serve(ws);
    });
  }

  private admitUpgrade(request: http.IncomingMessage): EndpointRefusal | AdmittedUpgrade {
    for (const endpoint of this.options.endpoints) {
      const verdict = endpoint.admitUpgrade?.(request);
      if (verdict) return verdict;
    }
    return { status: 404, reason: 'Not found' };
  }
}

function refuse(socket: Duplex, refusal: EndpointRefusal): void {
  if (refusal.body === undefined) refuseUpgrade(socket, refusal.status, `${refusal.reason}\n`);
  else refuseUpgrade(socket, refusal.status, `${JSON.stringify(refusal.body)}\n`, 'application/json');
}
