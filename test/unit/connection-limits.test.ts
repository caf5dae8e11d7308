/** The caps on unauthenticated connections, on a real loopback server with real sockets. */
import { spawn } from 'node:child_process';
import type http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, listenOnLoopback } from '../../src-main/loopback/http-server';

let server: http.Server | undefined;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

function connect(port: number): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => {});
  return new Promise((resolve) => socket.once('connect', () => resolve(socket)));
}

const closedCount = (list: net.Socket[]) => list.filter((socket) => socket.destroyed).length;

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries++) {
    if (tries > 400) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('unauthenticated connections', () => {
  it('over the per-peer cap are closed at once, and the server says so once', async () => {
    const log: string[] = [];
    server = createHttpServer(undefined, undefined, {
      name: 'test',
      log: (line) => log.push(line),
      limits: { perPeer: 3, perServer: 100 },
    });
    const port = await listenOnLoopback(server);
    const idle = await Promise.all(Array.from({ length: 10 }, () => connect(port)));
    // Closed by the server well before the 10 s deadline for a first request.
    await until(() => closedCount(idle) >= 7);
    await until(() => log.length > 0);
    expect(closedCount(idle)).toBe(7);
    expect(log.join('\n')).toMatch(/^test: closed 7 unauthenticated connection\(s\) over the limit/);
    // The server keeps an error listener after listen: an accept error (EMFILE) is logged, not thrown.
    server.emit('error', new Error('accept EMFILE'));
    expect(log).toContain('test: accept EMFILE');
  });

  it('when the server is full, the oldest waiting connection makes room for the newcomer', async () => {
    server = createHttpServer(undefined, undefined, {
      name: 'test',
      log: () => {},
      // One peer (this process) under its own cap, the server's cap the one reached.
      limits: { perPeer: 100, perServer: 4 },
    });
    const port = await listenOnLoopback(server);
    const first = await Promise.all(Array.from({ length: 4 }, () => connect(port)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const newcomer = await connect(port);
    await until(() => closedCount(first) >= 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The oldest went; the newcomer is still open, to send its request with its token.
    expect(first[0]!.destroyed).toBe(true);
    expect(closedCount(first)).toBe(1);
    expect(newcomer.destroyed).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'from another peer are still let in when one peer is at its cap',
    async () => {
      server = createHttpServer(undefined, undefined, {
        name: 'test',
        log: () => {},
        limits: { perPeer: 3, perServer: 100 },
      });
      const port = await listenOnLoopback(server);
      const ours = await Promise.all(Array.from({ length: 5 }, () => connect(port)));
      await until(() => closedCount(ours) >= 2);
      // Another process: its own budget.
      // Another process: a budget of its own. It says whether its connection was closed within 1.5 s.
      const script =
        `require('node:net').connect(${port}, '127.0.0.1')` +
        ".on('close', () => { console.log('closed'); process.exit(0); });" +
        "setTimeout(() => { console.log('open'); process.exit(0); }, 1500);";
      const other = spawn(process.execPath, ['-e', script]);
      const said = await new Promise<string>((resolve) =>
        other.stdout!.on('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
      );
      expect(said).toBe('open');
      expect(closedCount(ours)).toBe(2);
    },
  );
});
