/** How an endpoint ends the connections of its socket servers when it closes. */
import type { WebSocketServer } from 'ws';

/** Cuts every connection at once (no close handshake) and stops the socket servers. */
export function terminateSockets(...servers: WebSocketServer[]): void {
  for (const wss of servers) {
    for (const socket of wss.clients) socket.terminate();
    wss.close();
  }
}

/**
 * Closes every connection with `code` and `reason`, cutting those that do not answer within `graceMs`,
 * then stops the socket server.
 */
export async function closeSockets(
  wss: WebSocketServer,
  code: number,
  reason: string,
  graceMs: number,
): Promise<void> {
  await Promise.all(
    [...wss.clients].map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === socket.CLOSED) return resolve();
          const timer = setTimeout(() => {
            socket.terminate();
            resolve();
          }, graceMs);
          socket.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          socket.close(code, reason);
        }),
    ),
  );
  wss.close();
}
