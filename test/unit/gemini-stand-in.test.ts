/**
 * The Gemini API stand-in as Google's own SDK reads it (@google/genai, which Gemini CLI uses, pointed at
 * it with a base URL): a scripted function call comes out of the SSE stream whole, side requests and
 * other paths get answers the SDK accepts, and function results sent back are recorded.
 */
import { GoogleGenAI } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { startGeminiStandIn, type GeminiStandIn } from '../support/gemini-stand-in';

const MODEL = 'gemini-2.5-flash';
const TOOLS = [{ functionDeclarations: [{ name: 'read_file' }] }];

describe('the Gemini API stand-in', () => {
  let standIn: GeminiStandIn;
  afterEach(() => standIn?.close());

  const sdk = () => new GoogleGenAI({ apiKey: 'stand-in-key', httpOptions: { baseUrl: standIn.baseUrl } });

  it('streams one turn per request: a function call, then the final text, then "Done."', async () => {
    standIn = await startGeminiStandIn([
      { tool: 'read_file', input: { file_path: '/w/notes.md' } },
      { text: 'All read.' },
    ]);
    const turn = async (
      contents: Parameters<GoogleGenAI['models']['generateContentStream']>[0]['contents'],
    ) => {
      const chunks = [];
      const stream = await sdk().models.generateContentStream({
        model: MODEL,
        contents,
        config: { tools: TOOLS },
      });
      for await (const chunk of stream) chunks.push(chunk);
      return chunks;
    };

    const first = await turn('Read notes.md');
    expect(first).toHaveLength(1);
    expect(first[0]!.functionCalls).toEqual([
      { id: 'call_1', name: 'read_file', args: { file_path: '/w/notes.md' } },
    ]);

    const history = [
      { role: 'user', parts: [{ text: 'Read notes.md' }] },
      { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'read_file', args: {} } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'call_1', name: 'read_file', response: { output: 'one\n' } } }],
      },
    ];
    expect((await turn(history)).map((chunk) => chunk.text)).toEqual(['All read.']);
    expect(standIn.functionResponses()).toEqual([
      { name: 'read_file', id: 'call_1', response: { output: 'one\n' } },
    ]);
    expect((await turn('Again')).map((chunk) => chunk.text)).toEqual(['Done.']);

    expect(standIn.turnsServed()).toBe(3);
    expect(standIn.requests.map((request) => [request.path, request.model, request.main])).toEqual([
      [`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, MODEL, true],
      [`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, MODEL, true],
      [`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, MODEL, true],
    ]);
  });

  it('answers side requests without using up the script, and counts tokens', async () => {
    standIn = await startGeminiStandIn([{ text: 'scripted' }]);
    const side = await sdk().models.generateContent({ model: MODEL, contents: 'Who speaks next' });
    expect(side.text).toBe('ok');
    const count = await sdk().models.countTokens({ model: MODEL, contents: 'hello' });
    expect(count.totalTokens).toBe(10);
    expect(standIn.turnsServed()).toBe(0);
    expect(standIn.requests.map((request) => request.main)).toEqual([false, false]);
  });
});
