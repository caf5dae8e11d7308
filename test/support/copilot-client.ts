/**
 * A client of Copilot CLI's `/ide` speaking exactly as the real CLI does in the captures
 * (sailro/CopilotCliIde src/CopilotCliIde.Server.Tests/Captures): its headers, chunked bodies, the
 * initialize / initialized / GET stream sequence, tools/call with `_meta.progressToken`, over the Unix
 * socket named in the lock file. For the integration and end-to-end tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { readResponse, type RawResponse } from './http-response';

export interface CopilotLock {
  socketPath: string;
  scheme: string;
  headers: { Authorization: string };
  pid: number;
  ideName: string;
  timestamp: number;
  workspaceFolders: string[];
  isTrusted: boolean;
}

/** The one lock file in `lockDir` (`<home>/.copilot/ide`). */
export function readCopilotLock(lockDir: string): CopilotLock {
  const names = readdirSync(lockDir).filter((name) => name.endsWith('.lock'));
  if (names.length !== 1) throw new Error(`expected one lock file in ${lockDir}, found ${names.length}`);
  return JSON.parse(readFileSync(path.join(lockDir, names[0]!), 'utf8')) as CopilotLock;
}

/** The headers the CLI sends on every request (capture vscode-0.41, seq 3). */
export function cliHeaders(lock: CopilotLock, sessionId?: string, pid = 41632): Record<string, string> {
  return {
    'X-Copilot-Session-Id': 'a0b765fc-f6f9-42bf-9ac2-02f79bbe7e00',
    'X-Copilot-PID': String(pid),
    'X-Copilot-Parent-PID': '41104',
    Authorization: lock.headers.Authorization,
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    Host: 'localhost',
    ...(sessionId !== undefined && { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId }),
  };
}

/** One request on the socket; a body goes chunked, as the CLI sends it. */
export function sendOnSocket(
  socketPath: string,
  method: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath, path: '/mcp', method, headers }, (response) =>
      readResponse(response, resolve),
    );
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

/** The JSON-RPC messages of an SSE body (`event: message` / `data: {...}`). */
export function sseMessages(body: string): Array<Record<string, unknown>> {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

export interface CopilotSession {
  lock: CopilotLock;
  id: string;
  nextId: number;
}

/** initialize, notifications/initialized and the GET stream, as the CLI opens them (seq 1-6). */
export async function connectCopilot(
  lock: CopilotLock,
): Promise<CopilotSession & { initialize: RawResponse; initialized: RawResponse; stream: EventStream }> {
  const session = await initializeCopilot(lock);
  return { ...session, stream: await openCopilotStream(session) };
}

/** initialize and notifications/initialized only: a session with no event stream (yet). */
export async function initializeCopilot(
  lock: CopilotLock,
  /** The pid the client names in X-Copilot-PID (any it likes). */
  pid?: number,
): Promise<CopilotSession & { initialize: RawResponse; initialized: RawResponse }> {
  const send = (method: string, headers: Record<string, string>, body?: string) =>
    sendOnSocket(lock.socketPath, method, headers, body);
  const initialize = await send(
    'POST',
    cliHeaders(lock, undefined, pid),
    JSON.stringify({
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'copilot-cli', version: '1.0.0' },
      },
      jsonrpc: '2.0',
      id: 0,
    }),
  );
  const id = initialize.headers['mcp-session-id'] as string;
  const initialized = await send(
    'POST',
    cliHeaders(lock, id),
    JSON.stringify({ method: 'notifications/initialized', jsonrpc: '2.0' }),
  );
  return { lock, id, nextId: 1, initialize, initialized };
}

export interface EventStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The JSON-RPC messages received on it so far. */
  readonly messages: Array<Record<string, unknown>>;
  close(): void;
}
const streams: EventStream[] = [];

/** Closes every event stream opened so far (the CLI's GET). */
export function closeCopilotStreams(): void {
  for (const stream of streams.splice(0)) stream.close();
}

/** The CLI's GET: the event stream the server's notifications come on. */
export function openCopilotStream(session: CopilotSession): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const { accept: _accept, 'content-type': _type, ...headers } = cliHeaders(session.lock, session.id);
    const request = http.request(
      {
        socketPath: session.lock.socketPath,
        path: '/mcp',
        method: 'GET',
        headers: { ...headers, accept: 'text/event-stream' },
      },
      (response) => {
        const messages: Array<Record<string, unknown>> = [];
        let pending = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          // An SSE event ends with a blank line; a chunk may end mid-event.
          const events = (pending + chunk).split('\n\n');
          pending = events.pop() ?? '';
          for (const event of events) messages.push(...sseMessages(event));
        });
        const stream = {
          status: response.statusCode ?? 0,
          headers: response.headers,
          messages,
          close: () => request.destroy(),
        };
        streams.push(stream);
        resolve(stream);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** A tools/call as the CLI sends it; resolves with the tool's result once answered. */
export async function callTool(
  session: CopilotSession,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError?: boolean; response: RawResponse }> {
  const id = session.nextId++;
  const response = await sendOnSocket(
    session.lock.socketPath,
    'POST',
    cliHeaders(session.lock, session.id),
    JSON.stringify({
      method: 'tools/call',
      params: { name, arguments: args, _meta: { progressToken: id } },
      jsonrpc: '2.0',
      id,
    }),
  );
  const [message] = sseMessages(response.body);
  const result = message?.result as { content: Array<{ text: string }>; isError?: boolean };
  return { text: result.content[0]!.text, ...(result.isError && { isError: true }), response };
}
