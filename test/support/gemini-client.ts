/** Gemini CLI's side of the MCP Streamable HTTP endpoint, built from the official MCP SDK client. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Connects to `/mcp` on the bridge `port` with `token` as the bearer, as Gemini CLI 0.61 does. */
export async function connectGeminiClient(port: number, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'gemini-cli', version: '0.61.0' });
  await client.connect(transport);
  return client;
}
