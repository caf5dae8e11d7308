/**
 * The HTTP server under every loopback endpoint, and where it listens: 127.0.0.1 only, with deadlines
 * for clients that never finish (or never start) their request.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CONNECTION_LIMITS, limitConnections, type ConnectionLimits } from './connection-limits';
import type { Log } from './socket-guard';

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

export interface HttpServerGuard {
  /** Prefixes log lines ("bridge: ..."). */
  name?: string;
  log?: Log;
  limits?: ConnectionLimits;
}

/**
 * An HTTP server that drops clients that never finish their request (408, or closed), caps the
 * connections waiting unauthenticated (connection-limits.ts), and logs its own errors instead of ending
 * the process: with no 'error' listener, a failed accept (EMFILE: out of file descriptors) would throw.
 */
export function createHttpServer(
  listener?: http.RequestListener,
  timeouts: HttpTimeouts = HTTP_TIMEOUTS,
  guard: HttpServerGuard = {},
): http.Server {
  const server = http.createServer({
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: timeouts.checkEveryMs,
  });
  if (listener) server.on('request', listener);
  const name = guard.name ?? 'server';
  const log = guard.log ?? ((line: string) => console.error(line));
  server.on('error', (error) => log(`${name}: ${error.message}`));
  limitConnections(server, name, log, guard.limits ?? CONNECTION_LIMITS);
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
