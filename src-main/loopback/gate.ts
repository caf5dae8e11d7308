/**
 * The checks every localhost endpoint makes before anything else, in one place.
 *
 * A request with an Origin header comes from a web page (CLIs send none, and a page cannot remove it):
 * refused. A Host other than our loopback address and port is a DNS-rebinding attempt: refused.
 * Without these a localhost server is exactly the hole of CVE-2025-52882.
 */
import http from 'node:http';
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
