/**
 * The socket guard and the HTTP timeouts on real loopback servers: the frame limit can be raised per
 * socket with the installed ws, the last-resort guard keeps throws from reaching ws, and clients that
 * never finish a request are dropped while a long response stream lives on.
 */
import http from 'node:http';
import net from 'node:net';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, listenOnLoopback } from '../../src-main/loopback/http-server';
import {
  createSocketServer,
  guardSocket,
  lastResort,
  onGuardedMessage,
  MAX_UNREAD_BYTES,
  sendText,
  SerialIntake,
  setFrameLimit,
} from '../../src-main/loopback/socket-guard';
import { closed } from '../support/raw-frames';
import { messageOf } from '../../shared/error-message';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An echo server whose sockets start with a 1 KB limit; the message `raise` sets that socket's to 64 KB. */
async function echoServer(): Promise<{ port: number }> {
  const port = await serverWith((ws) => {
    guardSocket(ws, 'test', () => {});
    ws.on('message', (data) => {
      if (data.toString() === 'raise') setFrameLimit(ws, 64 * 1024);
      ws.send(`got ${data.toString().length}`);
    });
  }, 1024);
  return { port };
}

/** A server that hands each new socket to `serve`, its sockets starting with `maxPayload`; resolves with its port. */
async function serverWith(serve: (ws: WebSocket) => void, maxPayload = 1024 * 1024): Promise<number> {
  const server = createHttpServer();
  const wss = createSocketServer(maxPayload);
  server.on('upgrade', (request, socket, head) => wss.handleUpgrade(request, socket, head, serve));
  const port = await listenOnLoopback(server);
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        server.close(() => resolve());
      }),
  );
  return port;
}

function connect(port: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`);
    cleanups.push(() => socket.terminate());
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

function reply(socket: WebSocket, text: string): Promise<string> {
  return new Promise((resolve) => {
    socket.once('message', (data) => resolve(data.toString()));
    socket.send(text);
  });
}

describe('frame limits (installed ws)', () => {
  it('a socket refuses a frame over its limit with 1009', async () => {
    const { port } = await echoServer();
    const socket = await connect(port);
    expect(await reply(socket, 'x'.repeat(1024))).toBe('got 1024');
    const end = closed(socket);
    socket.send('x'.repeat(1025));
    expect((await end).code).toBe(1009);
  });

  it('setFrameLimit raises the limit of that socket only', async () => {
    const { port } = await echoServer();
    const raised = await connect(port);
    const other = await connect(port);
    expect(await reply(raised, 'raise')).toBe('got 5');
    expect(await reply(raised, 'x'.repeat(60 * 1024))).toBe('got 61440');
    const end = closed(other);
    other.send('x'.repeat(2048));
    expect((await end).code).toBe(1009);
    expect(raised.readyState).toBe(WebSocket.OPEN);
  });

  it('the limit also bounds a message sent in many small fragments', async () => {
    const { port } = await echoServer();
    const socket = await connect(port);
    const end = closed(socket);
    for (let i = 0; i < 4; i++) socket.send('x'.repeat(400), { fin: i === 3 });
    expect((await end).code).toBe(1009);
  });
});

describe('last-resort guard', () => {
  it('a throw or a rejection is logged and answered; nothing escapes', async () => {
    const logs: string[] = [];
    const answers: unknown[] = [];
    lastResort(
      () => {
        throw new Error('sync boom');
      },
      'test',
      (m) => logs.push(m),
      (e) => answers.push(messageOf(e)),
    );
    lastResort(
      () => Promise.reject(new Error('async boom')),
      'test',
      (m) => logs.push(m),
      (e) => answers.push(messageOf(e)),
    );
    // An answer that throws too is only logged.
    lastResort(
      () => {
        throw new Error('again');
      },
      'test',
      (m) => logs.push(m),
      () => {
        throw new Error('cannot answer');
      },
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(answers).toEqual(['sync boom', 'async boom']);
    expect(logs.some((m) => m.includes('cannot answer'))).toBe(true);
  });

  it('a handler that throws on a socket gets the error answer; the socket stays open', async () => {
    const server = createHttpServer();
    const wss = createSocketServer(1024);
    server.on('upgrade', (request, socket, head) =>
      wss.handleUpgrade(request, socket, head, (ws) => {
        const intake = new SerialIntake('test', () => {});
        onGuardedMessage(
          ws,
          'test',
          () => {},
          (data) =>
            intake.enqueue(
              () => {
                if (data.toString() === 'null') throw new TypeError('reading method of null');
                ws.send('ok');
              },
              () => ws.send('error'),
            ),
          () => ws.send('error'),
        );
      }),
    );
    const port = await listenOnLoopback(server);
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const socket = await connect(port);
    expect(await reply(socket, 'null')).toBe('error');
    expect(await reply(socket, 'fine')).toBe('ok');
  });
});

describe('back-pressure', () => {
  it('a peer that stops reading is cut off once MAX_UNREAD_BYTES wait for it, not buffered without end', async () => {
    let serverSide: WebSocket | undefined;
    const port = await serverWith((ws) => (serverSide = ws));
    const client = await connect(port);
    // The client's process stops reading its socket: TCP fills, then our frames wait in memory.
    (client as unknown as { _socket: net.Socket })._socket.pause();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const chunk = 'x'.repeat(4 * 1024 * 1024);
    const logs: string[] = [];
    let sent = 0;
    while (serverSide!.readyState === serverSide!.OPEN && sent < 4 * MAX_UNREAD_BYTES) {
      sendText(serverSide!, chunk, 'test', (m) => logs.push(m));
      sent += chunk.length;
    }
    expect(serverSide!.readyState).not.toBe(serverSide!.OPEN);
    expect(sent).toBeLessThan(2 * MAX_UNREAD_BYTES);
    expect(logs.join('\n')).toMatch(/stopped reading/);
  });

  it('a client sending faster than its messages are handled is paused, then resumed; nothing is lost', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handled: string[] = [];
    let serverSide: WebSocket | undefined;
    const port = await serverWith((ws) => {
      serverSide = ws;
      const intake = new SerialIntake('test', () => {}, ws);
      ws.on('message', (data) => {
        const text = data.toString();
        intake.enqueue(
          async () => {
            await gate;
            handled.push(text);
          },
          () => {},
        );
      });
    });
    const client = await connect(port);
    for (let i = 0; i < 200; i++) client.send(`m${i}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(serverSide!.isPaused).toBe(true);
    release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(serverSide!.isPaused).toBe(false);
    expect(handled).toEqual(Array.from({ length: 200 }, (_, i) => `m${i}`));
  });
});

describe('HTTP timeouts', () => {
  const timeouts = { firstRequestMs: 300, headersMs: 300, requestMs: 600, checkEveryMs: 50 };

  async function server(): Promise<number> {
    const s = createHttpServer((request, response) => {
      if (request.url === '/stream') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const timer = setInterval(() => response.write('data: x\n\n'), 100);
        response.on('close', () => clearInterval(timer));
        return;
      }
      request.resume();
      request.on('end', () => response.end('ok'));
    }, timeouts);
    const port = await listenOnLoopback(s);
    cleanups.push(() => {
      s.closeAllConnections();
      return new Promise<void>((resolve) => s.close(() => resolve()));
    });
    return port;
  }

  function raw(port: number, text: string): Promise<{ data: string; socket: net.Socket }> {
    return new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        if (text) socket.write(text);
      });
      cleanups.push(() => void socket.destroy());
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve({ data, socket }));
    });
  }

  it('a connection that sends nothing is dropped', async () => {
    const port = await server();
    expect((await raw(port, '')).data).toBe('');
  });

  it('headers that never end: the connection is dropped (or answered 408), never served', async () => {
    const port = await server();
    expect((await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\n')).data).toMatch(/^$|^HTTP\/1.1 408/);
  });

  it('a body that never ends gets 408', async () => {
    const port = await server();
    const sent = 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc';
    expect((await raw(port, sent)).data).toMatch(/408 Request Timeout/);
  });

  it('a response stream outlives every timeout', async () => {
    const port = await server();
    const chunks = await new Promise<number>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/stream' }, (response) => {
        let count = 0;
        response.on('data', () => count++);
        // Three times the longest timeout, and more than the checks' interval many times over.
        setTimeout(() => {
          request.destroy();
          resolve(count);
        }, 3 * timeouts.requestMs);
      });
      request.on('error', reject);
    });
    expect(chunks).toBeGreaterThan(5);
  });

  it('keeps answering after dropping slow clients', async () => {
    const port = await server();
    await raw(port, '');
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/' }, (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    expect(body).toBe('ok');
  });
});
