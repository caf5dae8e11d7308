/**
 * `/mcp`: MCP over Streamable HTTP, for Gemini CLI and Qwen Code on the bridge and for Copilot CLI on its
 * Unix socket. The caller has already checked who is asking, and says for which endpoint (client name
 * and protocol); the flavor says which server and tools (mcp-http-session.ts). Here requests
 * are routed to their session, as the companion's IDE server routes them: an `initialize` without a
 * session id opens one, anything else must name a live session of the same endpoint.
 *
 * Bodies are read and parsed here, bounded by MAX_FRAME_BYTES (a larger one gets 413 and a JSON-RPC
 * error as soon as its Content-Length or its bytes say so), so malformed JSON gets a JSON-RPC parse
 * error and nothing else; the SDK transport is handed the parsed body and validates the rest.
 */
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type http from 'node:http';
import type { ClientPort } from '../core/clients/agent-session';
import { singleHeader } from '../loopback/auth';
import { MAX_FRAME_BYTES } from '../loopback/frame-limits';
import {
  MAX_MCP_SESSIONS,
  McpHttpSession,
  type McpFlavor,
  type McpSessionEndpoint,
  type SessionHost,
} from './mcp-http-session';
import { messageOf } from '../../shared/error-message';

export const JSONRPC_PARSE_ERROR = -32700;
const JSONRPC_SERVER_ERROR = -32000;
const JSONRPC_SESSION_NOT_FOUND = -32001;
const JSONRPC_INTERNAL_ERROR = -32603;

/** A request body up to this size is read: the frame limit every endpoint states. */
export const MAX_BODY_BYTES = MAX_FRAME_BYTES;

/** The context follows the queue, at most once per this many milliseconds. */
const CONTEXT_DEBOUNCE_MS = 50;

/**
 * How long a session lives without its event stream (the CLI's GET) before the CLI counts as gone and
 * its reviews are cancelled. The stream reconnects within a few seconds on an idle machine, but the real
 * Copilot CLI on two loaded cores took longer than 5 s to open it after initialize: the session ended,
 * the CLI reconnected and its open diff was cancelled under the person. A CLI that has really quit only
 * keeps its reviews on screen this much longer.
 */
export const DEFAULT_STREAM_GRACE_MS = 20_000;

export interface McpEndpointOptions {
  port: ClientPort;
  flavor: McpFlavor;
  log: (message: string) => void;
  streamGraceMs?: number;
}

export class McpHttpEndpoint implements SessionHost {
  readonly port: ClientPort;
  readonly log: (message: string) => void;
  readonly streamGraceMs: number;
  readonly flavor: McpFlavor;
  private readonly sessions = new Map<string, McpHttpSession>();
  /** Sessions whose `initialize` is being answered. */
  private readonly opening = new Set<McpHttpSession>();
  /** Initialize requests between the session-count check and their session's creation. */
  private starting = 0;
  private contextTimer: NodeJS.Timeout | undefined;
  private readonly unsubscribe: () => void;

  constructor(options: McpEndpointOptions) {
    this.port = options.port;
    this.log = options.log;
    this.flavor = options.flavor;
    this.streamGraceMs = options.streamGraceMs ?? DEFAULT_STREAM_GRACE_MS;
    this.unsubscribe = this.port.onReviewsChange(() => this.scheduleContext());
  }

  /** Answers one authenticated request to /mcp. Never throws. */
  async handle(request: http.IncomingMessage, response: http.ServerResponse, endpoint: McpSessionEndpoint) {
    try {
      await this.route(request, response, endpoint);
    } catch (error) {
      this.log(`${endpoint.displayName}: request failed: ${messageOf(error)}`);
      if (!response.headersSent) jsonRpcError(response, 500, JSONRPC_INTERNAL_ERROR, 'Internal error');
      else response.destroy();
    }
  }

  sessionInitialized(session: McpHttpSession): void {
    if (session.id === undefined) return;
    this.sessions.set(session.id, session);
    this.log(`${session.endpoint.displayName}: session ${session.id} opened`);
  }

  sessionClosed(session: McpHttpSession): void {
    if (session.id === undefined || this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    this.log(`${session.endpoint.displayName}: session ${session.id} closed`);
  }

  async close(): Promise<void> {
    this.unsubscribe();
    clearTimeout(this.contextTimer);
    this.contextTimer = undefined;
    const all = [...this.sessions.values(), ...this.opening];
    await Promise.all(all.map((session) => session.close()));
  }

  private async route(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    endpoint: McpSessionEndpoint,
  ) {
    const sessionId = singleHeader(request.headers['mcp-session-id']);
    switch (request.method) {
      case 'POST':
        return this.post(request, response, endpoint, sessionId);
      case 'GET':
      case 'DELETE': {
        if (sessionId === undefined) {
          return jsonRpcError(
            response,
            400,
            JSONRPC_SERVER_ERROR,
            'Bad Request: Mcp-Session-Id header is required',
          );
        }
        const session = this.find(sessionId, endpoint);
        if (!session) return jsonRpcError(response, 404, JSONRPC_SESSION_NOT_FOUND, 'Session not found');
        if (request.method === 'GET') session.watchEventStream(response);
        // For the GET this resolves only when the event stream ends.
        await session.transport.handleRequest(request, response);
        return;
      }
      default:
        response.setHeader('Allow', 'GET, POST, DELETE');
        return jsonRpcError(response, 405, JSONRPC_SERVER_ERROR, 'Method not allowed');
    }
  }

  private async post(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    endpoint: McpSessionEndpoint,
    sessionId: string | undefined,
  ) {
    const body = await readBody(request, MAX_BODY_BYTES);
    if (body === undefined) {
      // Nothing more is read from this connection.
      response.setHeader('connection', 'close');
      return jsonRpcError(
        response,
        413,
        JSONRPC_SERVER_ERROR,
        `Request body too large: at most ${MAX_BODY_BYTES} bytes`,
      );
    }
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return jsonRpcError(response, 400, JSONRPC_PARSE_ERROR, 'Parse error: the body is not valid JSON');
    }
    if (sessionId === undefined) {
      if (!isInitializeRequest(message)) {
        return jsonRpcError(
          response,
          400,
          JSONRPC_SERVER_ERROR,
          'Bad Request: No valid session ID provided for non-initialize request',
        );
      }
      if (this.sessions.size + this.opening.size + this.starting >= MAX_MCP_SESSIONS) {
        return jsonRpcError(
          response,
          503,
          JSONRPC_SERVER_ERROR,
          `Too many sessions: at most ${MAX_MCP_SESSIONS} at once; sessions without an event stream end after ${this.streamGraceMs} ms`,
        );
      }
      this.starting++;
      let session: McpHttpSession;
      try {
        session = await McpHttpSession.open(endpoint, this);
      } finally {
        this.starting--;
      }
      this.opening.add(session);
      try {
        await session.transport.handleRequest(request, response, message);
      } finally {
        this.opening.delete(session);
        // Refused by the transport (wrong Accept header...): nothing to keep.
        if (session.id === undefined || this.sessions.get(session.id) !== session) void session.close();
      }
      const details = this.flavor.clientDetails?.(request);
      if (details && session.id !== undefined && this.sessions.get(session.id) === session) {
        session.agent.describe(details);
      }
      return;
    }
    const session = this.find(sessionId, endpoint);
    if (!session) return jsonRpcError(response, 404, JSONRPC_SESSION_NOT_FOUND, 'Session not found');
    await session.transport.handleRequest(request, response, message);
  }

  /** A session answers only to the endpoint (token) that opened it. */
  private find(sessionId: string, endpoint: McpSessionEndpoint): McpHttpSession | undefined {
    const session = this.sessions.get(sessionId);
    return session && session.endpoint === endpoint && !session.isClosed ? session : undefined;
  }

  private scheduleContext(): void {
    if (!this.flavor.context || this.contextTimer || this.sessions.size === 0) return;
    this.contextTimer = setTimeout(() => {
      this.contextTimer = undefined;
      // Each session's own: it includes the selection last sent to it.
      for (const session of this.sessions.values()) session.sendContext();
    }, CONTEXT_DEBOUNCE_MS);
    this.contextTimer.unref();
  }
}

function jsonRpcError(response: http.ServerResponse, status: number, code: number, message: string): void {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The whole body as text, or undefined as soon as it is known to exceed `limit`: from Content-Length
 * before anything is read, or from the bytes read so far (what was read is dropped, nothing more kept).
 */
function readBody(request: http.IncomingMessage, limit: number): Promise<string | undefined> {
  const declared = Number(singleHeader(request.headers['content-length']) ?? 0);
  if (declared > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      chunks = [];
      resolve(undefined);
    });
    request.on('end', () => resolve(size <= limit ? Buffer.concat(chunks).toString('utf8') : undefined));
    request.on('error', reject);
    request.on('close', () => {
      if (!request.complete) reject(new Error('the client went away while sending its request'));
    });
  });
}
