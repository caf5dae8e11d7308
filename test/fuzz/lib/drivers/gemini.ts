/**
 * Fuzz driver for Gemini CLI's endpoint: MCP Streamable HTTP at POST /mcp with a bearer token and an
 * `mcp-session-id`, plus raw malformed HTTP on plain TCP sockets. Sessions the fuzz opens are deleted at
 * the end of each batch, so their number (and their pending reviews) stay bounded. Copilot CLI's `/ide`
 * (copilot.ts) is the same over a Unix socket with a nonce: it overrides `target`.
 */
import http from 'node:http';
import net from 'node:net';
import type { Frame } from '../frames';
import { LimitRefusal, settleAll, type DriverOptions, type EndpointDriver } from './driver';

const REQUEST_TIMEOUT_MS = 15_000;
/** Requests in flight at once. */
const CONCURRENCY = 4;
/** How long a raw socket is given to be answered before the fuzz drops it. */
const RAW_SOCKET_MS = 1000;
/** Response bytes read per request (the rest is dropped; the leak check reads what is kept). */
const MAX_RESPONSE_BYTES = 1024 * 1024;

interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Where the endpoint is, how a request proves itself, and the tool tools/list must name. */
export interface HttpTarget {
  connect: { host: string; port: number } | { socketPath: string };
  host: string;
  authorization: string;
  protocolVersion: string;
  diffTool: string;
}

export class GeminiDriver implements EndpointDriver {
  reconnects = 0;
  private session: string | undefined;
  private readonly opened = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(protected readonly options: DriverOptions) {}

  protected target(): HttpTarget {
    const { port, token } = this.options.endpoints.gemini;
    return {
      connect: { host: '127.0.0.1', port },
      host: `127.0.0.1:${port}`,
      authorization: `Bearer ${token}`,
      protocolVersion: '2025-06-18',
      diffTool: 'openDiff',
    };
  }

  async send(frame: Frame): Promise<void> {
    while (this.inFlight.size >= CONCURRENCY) await Promise.race(this.inFlight);
    const task = frame.raw ? this.sendRaw(frame.data) : this.sendBody(frame);
    const tracked = task.catch(() => undefined).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  async endBatch(): Promise<void> {
    await settleAll(this.inFlight);
    const sessions = [...this.opened];
    this.opened.clear();
    this.session = undefined;
    await settleAll(sessions.map((id) => this.request('DELETE', '', { 'mcp-session-id': id })));
  }

  async probe(timeoutMs: number): Promise<void> {
    const init = await this.request('POST', JSON.stringify(this.initialize(1)), {}, timeoutMs);
    const id = sessionOf(init);
    if (init.status === 503 && /Too many sessions/.test(init.body))
      throw new LimitRefusal(init.body.slice(0, 200));
    if (init.status !== 200 || !id)
      throw new Error(`initialize answered ${init.status}: ${init.body.slice(0, 200)}`);
    try {
      await this.request(
        'POST',
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        { 'mcp-session-id': id },
        timeoutMs,
      );
      const list = await this.request(
        'POST',
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
        { 'mcp-session-id': id },
        timeoutMs,
      );
      if (list.status !== 200 || !list.body.includes(this.target().diffTool)) {
        throw new Error(`tools/list answered ${list.status}: ${list.body.slice(0, 200)}`);
      }
    } finally {
      await this.request('DELETE', '', { 'mcp-session-id': id }, timeoutMs).catch(() => undefined);
    }
  }

  private async sendBody(frame: Frame): Promise<void> {
    const headers: Record<string, string | null> = {};
    // Most frames go to this batch's session; some to none, some to one that does not exist.
    const roll = this.options.prng.next();
    if (roll < 0.8) headers['mcp-session-id'] = await this.batchSession();
    else if (roll < 0.85) headers['mcp-session-id'] = '00000000-0000-0000-0000-000000000000';
    if (frame.preauth) headers.authorization = null;
    if (frame.binary) headers['content-type'] = 'application/octet-stream';
    const answer = await this.request('POST', frame.data, { ...headers, ...frame.headers });
    const opened = sessionOf(answer);
    if (opened) this.opened.add(opened);
  }

  private async batchSession(): Promise<string> {
    if (this.session) return this.session;
    const init = await this.request('POST', JSON.stringify(this.initialize(0)), {});
    const id = sessionOf(init);
    if (!id) throw new Error(`initialize answered ${init.status}`);
    this.opened.add(id);
    this.session = id;
    await this.request('POST', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {
      'mcp-session-id': id,
    });
    return id;
  }

  private request(
    method: string,
    body: string | Buffer,
    extra: Record<string, string | null | undefined>,
    timeoutMs = REQUEST_TIMEOUT_MS,
  ): Promise<HttpAnswer> {
    const target = this.target();
    const headers: Record<string, string> = {
      host: target.host,
      authorization: target.authorization,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    for (const [name, value] of Object.entries(extra)) {
      if (value === null || value === undefined) delete headers[name];
      else headers[name] = value;
    }
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          ...target.connect,
          path: '/mcp',
          method,
          headers,
          agent: false,
          timeout: timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk);
          });
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            this.options.onText(text);
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text });
          });
          response.on('error', reject);
        },
      );
      request.on('timeout', () =>
        request.destroy(new Error(`${method} /mcp not answered within ${timeoutMs} ms`)),
      );
      request.on('error', reject);
      request.end(method === 'GET' || method === 'DELETE' ? undefined : body);
    });
  }

  private initialize(id: number) {
    return {
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: {
        protocolVersion: this.target().protocolVersion,
        capabilities: {},
        clientInfo: { name: 'fuzz', version: '1' },
      },
    };
  }

  private sendRaw(data: string | Buffer): Promise<void> {
    const target = this.target();
    const bytes = Buffer.from(
      (typeof data === 'string' ? data : data.toString('latin1'))
        .replaceAll('@@HOST@@', target.host)
        .replaceAll('Authorization: Bearer @@TOKEN@@', `Authorization: ${target.authorization}`),
      'latin1',
    );
    return new Promise((resolve) => {
      const { connect } = target;
      const socket =
        'socketPath' in connect ? net.connect(connect.socketPath) : net.connect(connect.port, connect.host);
      const chunks: Buffer[] = [];
      const done = () => {
        clearTimeout(timer);
        socket.destroy();
        this.options.onText(Buffer.concat(chunks).toString('utf8'));
        resolve();
      };
      const timer = setTimeout(done, RAW_SOCKET_MS);
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', done);
      socket.on('close', done);
      socket.write(bytes);
    });
  }
}

function sessionOf(answer: HttpAnswer): string | undefined {
  const id = answer.headers['mcp-session-id'];
  return typeof id === 'string' ? id : undefined;
}
