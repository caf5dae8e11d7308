/**
 * A loopback stand-in for the Anthropic Messages API, so the real Claude Code CLI runs offline and its
 * model's turns come from a script: each turn either calls one tool or ends with text.
 *
 * What Claude Code sends (observed with 2.1.197 and 2.1.332, `-p` and interactive):
 * - `HEAD /` once at start (a reachability check): answered 200, no body.
 * - The main conversation: `POST /v1/messages?beta=true`, `stream: true`, a non-empty `tools` array
 *   (Read, Edit, Write, Bash, …), the whole history in `messages` (each tool result comes back as a
 *   `tool_result` block in the next request's last user message) and the session id in the
 *   `x-claude-code-session-id` header.
 * - Side requests, interactive mode only, and only without CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: a
 *   session title, also streamed, with `tools: []` and `output_config.format` a JSON schema
 *   (`{title: string}`). `-p` made none here, with or without that variable.
 * - A PreToolUse hook's additionalContext, prefixed "PreToolUse:<tool> hook additional context: ": 2.1.197
 *   puts it in a `<system-reminder>` text block beside the tool_result, in the same user message; 2.1.332
 *   sends it as a message of its own, `role: "system"` with one text block, right after that user message.
 * So a request is the main conversation when its `tools` list is non-empty; only those consume turns.
 * Side requests get text that fits their JSON schema, if any; `/v1/messages/count_tokens` gets a count;
 * any other path gets `{}`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One turn of the scripted model: a tool call, or the final text that ends the conversation. */
export type ScriptedTurn = { tool: string; input: Record<string, unknown> } | { text: string };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body, or undefined when there was none or it was not JSON. */
  body: MessagesRequestBody | undefined;
  /** True for the main conversation (a request that offers tools). */
  main: boolean;
}

/** The parts of a Messages API request body the stand-in reads. */
export interface MessagesRequestBody {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  messages?: RequestMessage[];
  output_config?: { format?: { type?: string; schema?: JsonSchema } };
}

interface RequestMessage {
  role: string;
  content: string | ContentBlock[];
}

interface ContentBlock {
  type: string;
  text?: string;
  tool_use_id?: string;
  content?: string | ContentBlock[];
  is_error?: boolean;
}

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
}

/** Where a hook's context reached the model, next to a tool's result. */
export type ContextPlacement = 'beside-tool-result' | 'system-message';

/** Text the model received alongside a tool's result (not part of the result itself). */
export interface ReceivedContext {
  placement: ContextPlacement;
  text: string;
}

/** A tool's result as the model received it. */
export interface ReceivedToolResult {
  toolUseId: string;
  /** The scripted tool this answers. */
  tool: string | undefined;
  text: string;
  isError: boolean;
}

export interface AnthropicStandIn {
  /** For ANTHROPIC_BASE_URL. */
  baseUrl: string;
  /** Every request, in order. */
  requests: RecordedRequest[];
  /** Main-conversation turns answered so far (when past the script, the stand-in ends with text). */
  turnsServed(): number;
  /** The tool_result blocks of the latest main request (it carries the whole history), oldest first. */
  toolResults(): ReceivedToolResult[];
  /** The tool_use id the stand-in gave script turn `turnIndex` (once served). */
  toolUseIdOfTurn(turnIndex: number): string | undefined;
  /** The result of the tool called by script turn `turnIndex`, if the model received it. */
  toolResultOfTurn(turnIndex: number): ReceivedToolResult | undefined;
  /**
   * The text the latest main request carries right after the result of script turn `turnIndex`'s tool:
   * other blocks of the message holding the tool_result, then the system messages that follow it.
   */
  contextAfterTurn(turnIndex: number): ReceivedContext[];
  /** All text the latest main request's last user message carries (tool results and system reminders). */
  lastMessageText(): string;
  /** The text of every user message of the latest main request (its whole history), oldest first. */
  userMessageTexts(): string[];
  close(): Promise<void>;
}

/** Claude Code's requests are ~100 KB (system prompt and tool schemas) plus the files it has read. */
const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
const FINAL_TEXT_PAST_SCRIPT = 'The stand-in script has no more turns.';

const messageText = (message: RequestMessage): string =>
  typeof message.content === 'string'
    ? message.content
    : message.content.map((block) => blockText([block])).join('\n');

export async function startAnthropicStandIn(script: ScriptedTurn[]): Promise<AnthropicStandIn> {
  const requests: RecordedRequest[] = [];
  const toolUseIds: string[] = [];
  let turnsServed = 0;

  const nextTurn = (): ScriptedTurn => {
    const turn = script[turnsServed] ?? { text: FINAL_TEXT_PAST_SCRIPT };
    if ('tool' in turn) toolUseIds[turnsServed] = `toolu_standin_${turnsServed}`;
    turnsServed++;
    return turn;
  };

  const server = http.createServer((request, response) => {
    readBoundedBody(request, (raw) => {
      if (raw === undefined) {
        response.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
        response.end(errorBody('request_too_large', 'The stand-in bounds request bodies.'));
        return;
      }
      const body = parseBody(raw);
      const path = (request.url ?? '/').split('?')[0]!;
      const main = Array.isArray(body?.tools) && body.tools.length > 0;
      requests.push({ method: request.method ?? '', path, headers: request.headers, body, main });
      answer(request.method ?? '', path, body, main, response);
    });
  });

  const answer = (
    method: string,
    path: string,
    body: MessagesRequestBody | undefined,
    main: boolean,
    response: http.ServerResponse,
  ) => {
    if (method === 'POST' && path === '/v1/messages/count_tokens') {
      return sendJson(response, 200, { input_tokens: Math.ceil(JSON.stringify(body ?? {}).length / 4) });
    }
    if (method !== 'POST' || path !== '/v1/messages') return sendJson(response, 200, {});
    if (body === undefined) {
      response.writeHead(400, { 'content-type': 'application/json' });
      return response.end(errorBody('invalid_request_error', 'The body is not JSON.'));
    }
    const turnIndex = turnsServed;
    const turn = main ? nextTurn() : { text: sideRequestText(body) };
    const toolUseId = main ? toolUseIds[turnIndex] : undefined;
    const message = assistantMessage(body.model ?? 'stand-in', turn, toolUseId);
    if (body.stream) streamMessage(response, message);
    else sendJson(response, 200, message);
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const latestMain = () => requests.filter((request) => request.main).at(-1)?.body;
  const toolResults = (): ReceivedToolResult[] =>
    (latestMain()?.messages ?? []).flatMap((message) =>
      typeof message.content === 'string'
        ? []
        : message.content
            .filter((block) => block.type === 'tool_result')
            .map((block) => ({
              toolUseId: block.tool_use_id ?? '',
              tool: scriptedToolOf(script, toolUseIds, block.tool_use_id),
              text: blockText(block.content),
              isError: block.is_error === true,
            })),
    );

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    turnsServed: () => turnsServed,
    toolResults,
    toolUseIdOfTurn: (turnIndex) => toolUseIds[turnIndex],
    toolResultOfTurn: (turnIndex) =>
      toolResults().find((result) => result.toolUseId === toolUseIds[turnIndex]),
    contextAfterTurn: (turnIndex) => contextAfter(latestMain()?.messages ?? [], toolUseIds[turnIndex]),
    lastMessageText: () => {
      const last = latestMain()?.messages?.at(-1);
      return last ? messageText(last) : '';
    },
    userMessageTexts: () =>
      (latestMain()?.messages ?? []).filter((message) => message.role === 'user').map(messageText),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBoundedBody(request: http.IncomingMessage, done: (raw: string | undefined) => void): void {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let overflow = false;
  request.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_REQUEST_BYTES) overflow = true;
    else chunks.push(chunk);
  });
  request.on('end', () => done(overflow ? undefined : Buffer.concat(chunks).toString('utf8')));
  request.on('error', () => done(undefined));
}

function parseBody(raw: string): MessagesRequestBody | undefined {
  if (raw === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null ? (parsed as MessagesRequestBody) : undefined;
  } catch {
    return undefined;
  }
}

/** Text for a side request: JSON matching its output schema when it asks for one (the title does). */
function sideRequestText(body: MessagesRequestBody): string {
  const format = body.output_config?.format;
  if (format?.type !== 'json_schema') return 'Stand-in reply.';
  return JSON.stringify(sampleOf(format.schema ?? {}));
}

function sampleOf(schema: JsonSchema): unknown {
  if (schema.type === 'object' || schema.properties) {
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([key, sub]) => [key, sampleOf(sub)]),
    );
  }
  if (schema.type === 'number' || schema.type === 'integer') return 0;
  if (schema.type === 'boolean') return false;
  if (schema.type === 'array') return [];
  return 'Stand-in session';
}

interface AssistantMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Array<Record<string, unknown>>;
  stop_reason: 'tool_use' | 'end_turn';
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number };
}

function assistantMessage(
  model: string,
  turn: ScriptedTurn,
  toolUseId: string | undefined,
): AssistantMessage {
  const isTool = 'tool' in turn;
  return {
    id: `msg_standin_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`,
    type: 'message',
    role: 'assistant',
    model,
    content: isTool
      ? [{ type: 'tool_use', id: toolUseId, name: turn.tool, input: turn.input }]
      : [{ type: 'text', text: turn.text }],
    stop_reason: isTool ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 10 },
  };
}

/** The same message as server-sent events, in the order the real API sends them. */
function streamMessage(response: http.ServerResponse, message: AssistantMessage): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type: string, data: Record<string, unknown>) =>
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', {
    message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
  });
  const block = message.content[0]!;
  if (block.type === 'tool_use') {
    send('content_block_start', { index: 0, content_block: { ...block, input: {} } });
    // Two halves, as the real API splits a tool's input across deltas.
    const json = JSON.stringify(block.input);
    const middle = Math.floor(json.length / 2);
    for (const part of [json.slice(0, middle), json.slice(middle)]) {
      send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: part } });
    }
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: block.text } });
  }
  send('content_block_stop', { index: 0 });
  send('message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  send('message_stop', {});
  response.end();
}

function sendJson(response: http.ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

function errorBody(type: string, message: string): string {
  return JSON.stringify({ type: 'error', error: { type, message } });
}

/** The text of a tool_result's content (a string or text blocks), or of a list of blocks. */
function blockText(content: string | ContentBlock[] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .map((block) => (block.type === 'tool_result' ? blockText(block.content) : (block.text ?? '')))
    .join('\n');
}

function contextAfter(messages: RequestMessage[], toolUseId: string | undefined): ReceivedContext[] {
  const holds = (message: RequestMessage) =>
    typeof message.content !== 'string' &&
    message.content.some((block) => block.type === 'tool_result' && block.tool_use_id === toolUseId);
  const at = toolUseId === undefined ? -1 : messages.findIndex(holds);
  if (at < 0) return [];
  const contexts: ReceivedContext[] = [];
  const resultMessage = messages[at]!;
  if (typeof resultMessage.content !== 'string') {
    for (const block of resultMessage.content) {
      if (block.type !== 'tool_result')
        contexts.push({ placement: 'beside-tool-result', text: blockText([block]) });
    }
  }
  for (const message of messages.slice(at + 1)) {
    if (message.role !== 'system') break;
    const text = typeof message.content === 'string' ? message.content : blockText(message.content);
    contexts.push({ placement: 'system-message', text });
  }
  return contexts;
}

function scriptedToolOf(
  script: ScriptedTurn[],
  toolUseIds: string[],
  id: string | undefined,
): string | undefined {
  const turn = script[toolUseIds.indexOf(id ?? '')];
  return turn && 'tool' in turn ? turn.tool : undefined;
}
