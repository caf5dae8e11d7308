/**
 * A loopback stand-in for an OpenAI-compatible Chat Completions API, so a real CLI with a custom model
 * provider (Copilot CLI's BYOK: COPILOT_PROVIDER_BASE_URL) runs offline and its model's turns come from
 * a script: each turn either calls one tool or ends with text.
 *
 * What Copilot CLI 1.0.102 sends (observed, interactive, COPILOT_OFFLINE=true): only
 * `POST /v1/chat/completions` with `stream: true` (the OpenAI JS SDK's stream helper), the whole history
 * in `messages` (each tool result as a `role: "tool"` message with its `tool_call_id`) and its tools in
 * `tools` (`view`, `edit`, `create`, `bash`, …, and the IDE's `ide-get_selection`, `ide-get_diagnostics`).
 * A request with a non-empty `tools` list is the main conversation and consumes a turn; any other
 * chat request gets a short text, and any other path gets `{}`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One turn of the scripted model: a tool call, or the final text that ends the conversation. */
export type ScriptedTurn = { tool: string; input: Record<string, unknown> } | { text: string };

export interface ChatMessage {
  role: string;
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

export interface ChatRequestBody {
  model?: string;
  stream?: boolean;
  tools?: Array<{ type: string; function?: { name: string } }>;
  messages?: ChatMessage[];
}

export interface RecordedChatRequest {
  method: string;
  path: string;
  body: ChatRequestBody | undefined;
  /** True for the main conversation (a request that offers tools). */
  main: boolean;
}

/** A tool's result as the model received it. */
export interface ReceivedToolResult {
  toolCallId: string;
  /** The scripted tool this answers. */
  tool: string | undefined;
  text: string;
}

export interface OpenAiStandIn {
  /** For COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  requests: RecordedChatRequest[];
  /** How many scripted turns were served. */
  turnsServed(): number;
  /** Every tool result the model received, in order, each once. */
  toolResults(): ReceivedToolResult[];
  /** The text of each user message in the latest main request's history, in order. */
  userTexts(): string[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export async function startOpenAiStandIn(script: ScriptedTurn[]): Promise<OpenAiStandIn> {
  const requests: RecordedChatRequest[] = [];
  const toolNames = new Map<string, string>();
  let turn = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      const body = parseBody(Buffer.concat(chunks).toString('utf8'));
      const main = (body?.tools?.length ?? 0) > 0;
      requests.push({ method: req.method ?? '', path: req.url ?? '', body, main });
      if (!req.url?.endsWith('/chat/completions')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const step: ScriptedTurn = main ? (script[turn++] ?? { text: 'Done.' }) : { text: 'ok' };
      const id = `call_${turn}`;
      if ('tool' in step) toolNames.set(id, step.tool);
      answer(res, body, step, id);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    turnsServed: () => turn,
    // Each main request carries the whole conversation, so the latest one holds every message so far.
    userTexts: () =>
      (requests.filter((request) => request.main).at(-1)?.body?.messages ?? [])
        .filter((message) => message.role === 'user')
        .map((message) => contentText(message.content)),
    toolResults: () => {
      const seen = new Map<string, ReceivedToolResult>();
      for (const request of requests) {
        for (const message of request.body?.messages ?? []) {
          if (message.role !== 'tool' || !message.tool_call_id || seen.has(message.tool_call_id)) continue;
          seen.set(message.tool_call_id, {
            toolCallId: message.tool_call_id,
            tool: toolNames.get(message.tool_call_id),
            text: contentText(message.content),
          });
        }
      }
      return [...seen.values()];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: http.ServerResponse, body: ChatRequestBody | undefined, step: ScriptedTurn, id: string) {
  const delta =
    'tool' in step
      ? {
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id,
              type: 'function',
              function: { name: step.tool, arguments: JSON.stringify(step.input) },
            },
          ],
        }
      : { role: 'assistant', content: step.text };
  const finish = 'tool' in step ? 'tool_calls' : 'stop';
  const base = {
    id: `chatcmpl-${id}`,
    created: Math.floor(Date.now() / 1000),
    model: body?.model ?? 'stand-in',
  };
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (body?.stream === false) {
    const { role, ...rest } = delta;
    const message = { role, content: null, ...rest };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [choice], ...extra })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk({ index: 0, delta, finish_reason: null }));
  res.write(chunk({ index: 0, delta: {}, finish_reason: finish }, { usage }));
  res.end('data: [DONE]\n\n');
}

function parseBody(text: string): ChatRequestBody | undefined {
  try {
    return JSON.parse(text) as ChatRequestBody;
  } catch {
    return undefined;
  }
}

function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}
