/**
 * The loopback server on its own, with small made-up endpoints: requests routed by path, the gate asked
 * before any endpoint, refusals as text or JSON, upgrades offered to each endpoint in turn, and closing
 * (discovery files first, synchronously) also when an endpoint fails to open.
 */
import http from 'node:http';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LoopbackServer,
  type AdmittedUpgrade,
  type EndpointRefusal,
  type LoopbackEndpoint,
} from '../../src-main/loopback/loopback-server';
import { createSocketServer } from '../../src-main/loopback/socket-guard';
import { readResponse, type RawResponse } from '../support/http-response';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(endpoints: LoopbackEndpoint[]): Promise<LoopbackServer> {
  const server = await LoopbackServer.start({ name: 'test', notFound: 'nothing here\n', endpoints });
  servers.push(server);
  return server;
}

function get(port: number, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers }, (response) => readResponse(response, resolve))
      .on('error', reject);
  });
}

/** Opens a WebSocket: the first message it receives, or the refusal's status and body. */
function upgrade(port: number, headers: Record<string, string> = {}): Promise<string | RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/`, { headers });
    socket.once('message', (data) => {
      resolve(data.toString());
      socket.terminate();
    });
    socket.once('unexpected-response', (_request, response) => readResponse(response, resolve));
    socket.once('error', reject);
  });
}

/** An endpoint that greets the sockets it admits, refusing those whose `x-refuse` header names a status. */
function greeter(greeting: string, claims = () => true): LoopbackEndpoint & { closed: boolean } {
  const sockets = createSocketServer(1024);
  const endpoint = {
    closed: false,
    admitUpgrade(request: http.IncomingMessage): EndpointRefusal | AdmittedUpgrade | undefined {
      if (!claims()) return undefined;
      const refuse = request.headers['x-refuse'];
      if (refuse === 'json') return { status: 401, reason: 'no', body: { code: 1001, message: 'no' } };
      if (refuse !== undefined) return { status: Number(refuse), reason: 'refused here' };
      return { sockets, label: greeting, serve: (ws) => ws.send(greeting) };
    },
    async close() {
      endpoint.closed = true;
      for (const socket of sockets.clients) socket.terminate();
      sockets.close();
    },
  };
  return endpoint;
}

describe('LoopbackServer', () => {
  it('routes a plain request by its path; any other path gets the not-found text', async () => {
    const asked: string[] = [];
    const server = await start([
      {
        requests: {
          path: '/hello',
          admit: (request) => {
            asked.push(request.url ?? '');
            return { serve: (_request, response) => response.end('hi\n') };
          },
        },
        close: async () => {},
      },
    ]);
    expect(await get(server.port, '/hello?x=1')).toMatchObject({ status: 200, body: 'hi\n' });
    expect(await get(server.port, '/other')).toMatchObject({ status: 404, body: 'nothing here\n' });
    expect(asked).toEqual(['/hello?x=1']);
  });

  it('refuses an Origin header or a foreign Host before any endpoint is asked', async () => {
    let asked = 0;
    const server = await start([
      {
        requests: {
          path: '/',
          admit: () => {
            asked++;
            return { serve: (_request, response) => response.end() };
          },
        },
        admitUpgrade: () => {
          asked++;
          return undefined;
        },
        close: async () => {},
      },
    ]);
    expect(await get(server.port, '/', { origin: 'http://evil.example' })).toMatchObject({
      status: 403,
      body: 'Origin not allowed\n',
    });
    expect(await upgrade(server.port, { host: `evil.example:${server.port}` })).toMatchObject({
      status: 403,
      body: 'Host not allowed\n',
    });
    expect(asked).toBe(0);
  });

  it("answers an endpoint's refusal as text, or as JSON when the endpoint gives a body", async () => {
    const server = await start([greeter('hello')]);
    const text = await upgrade(server.port, { 'x-refuse': '503' });
    expect(text).toMatchObject({ status: 503, body: 'refused here\n' });
    const json = (await upgrade(server.port, { 'x-refuse': 'json' })) as RawResponse;
    expect(json.status).toBe(401);
    expect(json.headers['content-type']).toBe('application/json');
    expect(JSON.parse(json.body)).toEqual({ code: 1001, message: 'no' });
  });

  it('offers an upgrade to each endpoint in turn; one that none takes is refused with 404', async () => {
    let secondClaims = true;
    const server = await start([greeter('first', () => false), greeter('second', () => secondClaims)]);
    expect(await upgrade(server.port)).toBe('second');
    secondClaims = false;
    expect(await upgrade(server.port)).toMatchObject({ status: 404, body: 'Not found\n' });
  });

  it('closes every endpoint synchronously first, then the server', async () => {
    const endpoint = greeter('hello');
    const server = await LoopbackServer.start({ name: 'test', notFound: '', endpoints: [endpoint] });
    const closing = server.close();
    expect(endpoint.closed).toBe(true);
    await closing;
    await expect(get(server.port, '/')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('an endpoint that cannot open closes the server and every endpoint again', async () => {
    const first = greeter('first');
    const failing = { ...greeter('second'), open: () => Promise.reject(new Error('no lock file')) };
    await expect(
      LoopbackServer.start({ name: 'test', notFound: '', endpoints: [first, failing] }),
    ).rejects.toThrow('no lock file');
    expect(first.closed).toBe(true);
  });
});
