/**
 * A loopback stand-in for the OpenAI Responses API, so the real Codex CLI (a custom model provider with
 * `wire_api = "responses"`) runs offline and its model's turns come from a script: each turn calls one
 * tool or ends with text.
 *
 * What Codex CLI 0.171.0 sends (observed with `codex exec`, model "gpt-5.5"): only `POST /v1/responses`
 * (`stream: true`, `store: false`), each one the whole history in `input`: developer messages (its
 * instructions, skills), a user message with `<environment_context>`, the prompt as a user message, then
 * every `custom_tool_call` / `function_call` with its `custom_tool_call_output` / `function_call_output`
 * and any developer message a hook added. The `tools` it offers, in order: `exec_command` (function;
 * `cmd`, `workdir`, `shell`, `login`, `tty`, `yield_time_ms`, `max_output_tokens`, `sandbox_permissions`,
 * `justification`, `prefix_rule`), `write_stdin`, `request_user_input`, `apply_patch` (custom, a
 * grammar), `view_image`, `get_goal`, `create_goal`, `update_goal`, `tool_search` and `web_search`
 * (unless disabled). So the shell tool is `exec_command`, a function call with `{"cmd": "…"}`.
 *
 * Each answer is SSE: `response.created`, `response.output_item.added`, `response.output_item.done`
 * (the item Codex acts on) and `response.completed` (its `usage` is optional: a run without it went
 * the same). Any other path gets `{}`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Codex's shell tool with model gpt-5.5 (unified exec). */
export const SHELL_TOOL = 'exec_command';

/** One turn of the scripted model. */
export type ResponsesTurn =
  | { customTool: string; input: string }
  | { functionTool: string; arguments: Record<string, unknown> }
  | { text: string };

/** The model calls apply_patch with `patch` (`*** Begin Patch` … `*** End Patch`). */
export const applyPatchTurn = (patch: string): ResponsesTurn => ({ customTool: 'apply_patch', input: patch });
/** The model runs `cmd` with the shell tool. */
export const shellTurn = (cmd: string): ResponsesTurn => ({ functionTool: SHELL_TOOL, arguments: { cmd } });
export const textTurn = (text: string): ResponsesTurn => ({ text });

/** An item of a request's `input`, as far as the tests read it. */
export interface InputItem {
  type: string;
  role?: string;
  content?: string | Array<{ type: string; text?: string }>;
  name?: string;
  call_id?: string;
  input?: string;
  arguments?: string;
  output?: string | Array<{ type: string; text?: string }>;
}

export interface ResponsesRequestBody {
  model?: string;
  stream?: boolean;
  input?: InputItem[];
  tools?: Array<{ type: string; name?: string }>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: ResponsesRequestBody | undefined;
}

/** A tool's output as the model received it. */
export interface ReceivedToolOutput {
  callId: string;
  /** The tool whose call this answers, from the same request's history. */
  tool: string | undefined;
  text: string;
}

export interface ResponsesStandIn {
  /** For `[model_providers.<id>] base_url`: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** Every request to any path, in order. */
  allRequests: RecordedRequest[];
  /** How many scripted turns were served (the final "Done." after the script does not count). */
  turnsServed(): number;
  /** The `POST …/responses` bodies, in order: index n is what the model received before answering turn n. */
  requestsReceived(): ResponsesRequestBody[];
  /** The names of the tools offered in the first model request. */
  toolsOffered(): string[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export async function startResponsesStandIn(script: ResponsesTurn[]): Promise<ResponsesStandIn> {
  const allRequests: RecordedRequest[] = [];
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
      const request = { method: req.method ?? '', path: req.url ?? '', body };
      allRequests.push(request);
      if (!isModelRequest(request)) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const step = script[turn] ?? textTurn('Done.');
      turn = Math.min(turn + 1, script.length);
      streamTurn(res, step, allRequests.filter(isModelRequest).length, body?.model);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const requestsReceived = () => allRequests.filter(isModelRequest).flatMap((r) => (r.body ? [r.body] : []));

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    allRequests,
    turnsServed: () => turn,
    requestsReceived,
    toolsOffered: () => (requestsReceived()[0]?.tools ?? []).map((tool) => tool.name ?? tool.type),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function isModelRequest(request: RecordedRequest): boolean {
  return request.method === 'POST' && request.path.split('?')[0]?.endsWith('/responses') === true;
}

/** The output item a turn produces; ids are unique per request (`n`). */
function outputItem(step: ResponsesTurn, n: number): Record<string, unknown> {
  if ('customTool' in step) {
    return {
      type: 'custom_tool_call',
      id: `ctc_${n}`,
      status: 'completed',
      call_id: `call_${n}`,
      name: step.customTool,
      input: step.input,
    };
  }
  if ('functionTool' in step) {
    return {
      type: 'function_call',
      id: `fc_${n}`,
      status: 'completed',
      call_id: `call_${n}`,
      name: step.functionTool,
      arguments: JSON.stringify(step.arguments),
    };
  }
  return {
    type: 'message',
    id: `msg_${n}`,
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: step.text, annotations: [] }],
  };
}

function streamTurn(res: http.ServerResponse, step: ResponsesTurn, n: number, model: string | undefined) {
  const id = `resp_${n}`;
  const item = outputItem(step, n);
  const response = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: model ?? '' };
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  const events = [
    { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress' } },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { ...response, status: 'completed', output: [item], usage } },
  ];
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  events.forEach((event, sequence) =>
    res.write(`event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence })}\n\n`),
  );
  res.end();
}

function parseBody(text: string): ResponsesRequestBody | undefined {
  try {
    return JSON.parse(text) as ResponsesRequestBody;
  } catch {
    return undefined;
  }
}

/** The texts of the `role` messages (developer, user, assistant) in a request's history, in order. */
export function messagesIn(request: ResponsesRequestBody | undefined, role: string): string[] {
  return (request?.input ?? [])
    .filter((item) => item.type === 'message' && item.role === role)
    .map((item) => partsText(item.content));
}

/** Every tool output in a request's history, each named by the call it answers. */
export function toolOutputsIn(request: ResponsesRequestBody | undefined): ReceivedToolOutput[] {
  const items = request?.input ?? [];
  const callNames = new Map<string, string>();
  for (const item of items) {
    if ((item.type === 'custom_tool_call' || item.type === 'function_call') && item.call_id && item.name) {
      callNames.set(item.call_id, item.name);
    }
  }
  return items
    .filter((item) => item.type === 'custom_tool_call_output' || item.type === 'function_call_output')
    .map((item) => ({
      callId: item.call_id ?? '',
      tool: item.call_id === undefined ? undefined : callNames.get(item.call_id),
      text: partsText(item.output),
    }));
}

function partsText(content: InputItem['content'] | InputItem['output']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}
