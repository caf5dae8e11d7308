/**
 * The floors' server: static files from one folder and a WebSocket on the same port, through which
 * the bench hands a bare page what the app would get from its own server. Nothing but `ws` and
 * node:http, so it costs as little as a server can.
 */
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface PageServer {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** Sends `message` as JSON to every page connected. */
  send(message: unknown): void;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.json': 'application/json',
};

/** `greeting`, when given, is sent as JSON to each page as it connects. */
export async function startPageServer(root: string, greeting?: unknown): Promise<PageServer> {
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = path.join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
    if (!file.startsWith(root + path.sep)) return void response.writeHead(403).end();
    readFile(file).then(
      (body) =>
        response
          .writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' })
          .end(body),
      () => response.writeHead(404).end(),
    );
  });
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ server, maxPayload: 256 * 1024 * 1024 });
  wss.on('connection', (socket) => {
    sockets.add(socket);
    if (greeting !== undefined) socket.send(JSON.stringify(greeting));
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    send: (message) => {
      const text = JSON.stringify(message);
      for (const socket of sockets) socket.send(text);
    },
    close: async () => {
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
