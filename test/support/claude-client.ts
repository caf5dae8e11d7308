/**
 * A Claude Code stand-in built from the official MCP SDK client, connecting the way the CLI does:
 * WebSocket to 127.0.0.1, subprotocol `mcp`, token in the IDE auth header.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import WebSocket from 'ws';
import { WebSocketTransport } from '../../src-main/bridge/ws-transport';

export interface ClaudeTestClient {
  client: Client;
  socket: WebSocket;
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** Proposes `proposed` as the new text of `file`, as Claude Code does; answers once the person decides. */
  openDiff(file: string, proposed: string, tabName: string): Promise<CallToolResult>;
  close(): Promise<void>;
}

export function openSocket(
  port: number,
  headers: Record<string, string>,
  protocol = 'mcp',
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, protocol, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

export async function connectClaudeClient(
  port: number,
  token: string,
  header = 'x-claude-code-ide-authorization',
): Promise<ClaudeTestClient> {
  const socket = await openSocket(port, { [header]: token });
  const client = new Client({ name: 'claude-code', version: '2.1.0' });
  await client.connect(new WebSocketTransport(socket));
  await client.notification({ method: 'ide_connected', params: { pid: process.pid } });
  // openDiff blocks until a person decides: no request timeout.
  const callTool = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })) as CallToolResult;
  return {
    client,
    socket,
    callTool,
    openDiff: (file, proposed, tabName) =>
      callTool('openDiff', {
        old_file_path: file,
        new_file_path: file,
        new_file_contents: proposed,
        tab_name: tabName,
      }),
    close: () => client.close(),
  };
}

export function texts(result: CallToolResult): string[] {
  return result.content.map((item) => (item.type === 'text' ? item.text : `<${item.type}>`));
}
