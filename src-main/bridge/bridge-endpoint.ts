/**
 * What an endpoint on the bridge port is, apart from the server that serves it: bridge-server.ts and
 * endpoints.ts (the default list) both need the type, and neither should import the other for it.
 */
import type { WsEndpoint } from './claude-ide/endpoint';
import type { GeminiEndpoint } from './gemini-ide/session';

export type { GeminiEndpoint, WsEndpoint };

/** Every way in: WebSocket endpoints, and MCP over HTTP at /mcp for Gemini CLI and Qwen Code. */
export type BridgeEndpoint = WsEndpoint | GeminiEndpoint;
