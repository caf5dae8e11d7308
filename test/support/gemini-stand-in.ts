/**
 * A loopback stand-in for the Gemini API (generativelanguage), so the real Gemini CLI runs offline
 * (`GOOGLE_GEMINI_BASE_URL=<baseUrl>`, `GEMINI_API_KEY=<any>`) and its model's turns come from a script:
 * each turn either calls one function or ends with text.
 *
 * What Gemini CLI 0.61.0 sends (through @google/genai):
 * - The main conversation: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` with the whole
 *   history in `contents` (each function result as a `functionResponse` part of a `role: "user"`
 *   content) and its tools in `tools[].functionDeclarations` (`read_file`, `replace`, …). The answer is
 *   one SSE message (`data: <GenerateContentResponse>`) per turn.
 * - Side requests without tools (checks of who speaks next, loop detection, …): a short text, streamed
 *   or not as asked. Any other path (`:countTokens`, …) gets `{}`-like JSON.
 * A request is the main conversation when it offers function declarations; only those consume turns.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One turn of the scripted model: a function call, or the final text that ends the conversation. */
export type ScriptedTurn = { tool: string; input: Record<string, unknown> } | { text: string };

export interface GeminiPart {
  text?: string;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response?: Record<string, unknown> };
}

export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

/** The parts of a generateContent request body the stand-in reads. */
export interface GenerateContentBody {
  contents?: GeminiContent[];
  tools?: Array<{ functionDeclarations?: Array<{ name: string }> }>;
}

export interface RecordedGeminiRequest {
  method: string;
  /** With the query: `/v1beta/models/<model>:streamGenerateContent?alt=sse`. */
  path: string;
  /** The model named in the path, if any. */
  model: string | undefined;
  body: GenerateContentBody | undefined;
  /** True for the main conversation (a request that offers function declarations). */
  main: boolean;
}

/** A function's result as the model received it. */
export interface ReceivedFunctionResponse {
  /** The function it answers (`read_file`, `replace`). */
  name: string;
  /** The id the CLI gave the call, if any. */
  id: string | undefined;
  /** As sent: Gemini CLI puts `{output: "…"}` or `{error: "…"}` here. */
  response: Record<string, unknown>;
}

export interface GeminiStandIn {
  /** For GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:<port>`. */
  baseUrl: string;
  requests: RecordedGeminiRequest[];
  /** How many scripted turns were served. */
  turnsServed(): number;
  /** Every function result the model received, in order, each once. */
  functionResponses(): ReceivedFunctionResponse[];
  /** The text of each user message in the latest main request's history, in order. */
  userTexts(): string[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;
const GENERATE = /^\/v1(?:beta|alpha)?\/models\/([^/:?]+):(streamGenerateContent|generateContent)(?:\?|$)/;

export async function startGeminiStandIn(script: ScriptedTurn[]): Promise<GeminiStandIn> {
  const requests: RecordedGeminiRequest[] = [];
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
      const path = req.url ?? '';
      const body = parseBody(Buffer.concat(chunks).toString('utf8'));
      const generate = GENERATE.exec(path);
      const main = generate !== null && offersFunctions(body);
      requests.push({ method: req.method ?? '', path, model: generate?.[1], body, main });
      if (!generate) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(path.includes(':countTokens') ? { totalTokens: 10 } : {}));
        return;
      }
      const step: ScriptedTurn = main ? (script[turn++] ?? { text: 'Done.' }) : { text: 'ok' };
      const response = generateContentResponse(step, turn, generate[1]!);
      if (generate[2] === 'streamGenerateContent') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(sseMessage(response));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(response));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  // Each main request carries the whole history, so the latest one holds everything so far.
  const history = () => requests.filter((request) => request.main).at(-1)?.body?.contents ?? [];
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    turnsServed: () => turn,
    userTexts: () =>
      history()
        .filter((content) => content.role === 'user')
        .map((content) => (content.parts ?? []).map((part) => part.text ?? '').join(''))
        .filter((text) => text !== ''),
    functionResponses: () => {
      return history()
        .flatMap((content) => content.parts ?? [])
        .flatMap((part) => (part.functionResponse ? [part.functionResponse] : []))
        .map(({ name, id, response }) => ({ name, id, response: response ?? {} }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One GenerateContentResponse holding the whole turn. */
export function generateContentResponse(
  step: ScriptedTurn,
  turn: number,
  model: string,
): Record<string, unknown> {
  const part: GeminiPart =
    'tool' in step
      ? { functionCall: { id: `call_${turn}`, name: step.tool, args: step.input } }
      : { text: step.text };
  return {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: model,
    responseId: `stand-in-${turn}`,
  };
}

/** The SSE framing @google/genai reads with `alt=sse`: one `data:` line, then a blank line. */
export function sseMessage(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\r\n\r\n`;
}

function offersFunctions(body: GenerateContentBody | undefined): boolean {
  return (body?.tools ?? []).some((tool) => (tool.functionDeclarations?.length ?? 0) > 0);
}

function parseBody(text: string): GenerateContentBody | undefined {
  try {
    return JSON.parse(text) as GenerateContentBody;
  } catch {
    return undefined;
  }
}
