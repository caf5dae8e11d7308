/**
 * The checks every localhost endpoint makes before anything else, in one place.
 *
 * A request with an Origin header comes from a web page (CLIs send none, and a page cannot remove it):
 * refused. A Host other than our loopback address and port is a DNS-rebinding attempt: refused.
 * Without these a localhost server is exactly the hole of CVE-2025-52882.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface Refusal {
  status: number;
  reason: string;
}

export function isLoopbackHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** The Origin and Host checks; undefined when the request may go on to prove its token. */
export function refuseForeignRequest(request: http.IncomingMessage, port: number): Refusal | undefined {
  if (request.headers.origin !== undefined) return { status: 403, reason: 'Origin not allowed' };
  if (!isLoopbackHost(request.headers.host, port)) return { status: 403, reason: 'Host not allowed' };
  return undefined;
}

/** Answers a refused WebSocket upgrade with a plain HTTP response and closes the socket. */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  body: string,
  contentType = 'text/plain',
): void {
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\n` +
      `Content-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * How long a client may take over its request. Node's own headersTimeout/requestTimeout cover a request
 * once its first byte arrived; `firstRequestMs` also covers a connection that sends nothing at all. A response
 * may take as long as it likes (Gemini's event stream at /mcp stays open for the whole session).
 */
export interface HttpTimeouts {
  firstRequestMs: number;
  headersMs: number;
  requestMs: number;
  /** How often Node looks for requests past their deadline. */
  checkEveryMs: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = {
  firstRequestMs: 10_000,
  headersMs: 10_000,
  // A whole request body of MAX_FRAME_BYTES takes well under a second on loopback.
  requestMs: 60_000,
  checkEveryMs: 1_000,
};

/** An HTTP server that drops clients that never finish their request (408, or closed). */
export function createHttpServer(
  listener?: http.RequestListener,
  timeouts: HttpTimeouts = HTTP_TIMEOUTS,
): http.Server {
  const server = http.createServer({
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: timeouts.checkEveryMs,
  });
  if (listener) server.on('request', listener);
  const silent = new WeakMap<Socket, NodeJS.Timeout>();
  const spoke = (socket: Socket) => {
    clearTimeout(silent.get(socket));
    silent.delete(socket);
  };
  server.on('connection', (socket: Socket) => {
    // Until the first request's headers are complete; Node does not time out a connection that is silent.
    const timer = setTimeout(() => socket.destroy(), timeouts.firstRequestMs);
    timer.unref();
    silent.set(socket, timer);
    socket.once('close', () => spoke(socket));
  });
  // A request or an upgrade has arrived whole: from here on Node's own timeouts apply.
  server.on('request', (request: http.IncomingMessage) => spoke(request.socket));
  server.on('upgrade', (request: http.IncomingMessage) => spoke(request.socket));
  return server;
}

/** Listens on 127.0.0.1 only (never all interfaces); port 0 lets the OS pick. Resolves with the port. */
export function listenOnLoopback(server: http.Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.removeListener('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
