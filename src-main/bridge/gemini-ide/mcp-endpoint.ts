/**
 * `/mcp` on the bridge for Gemini CLI and Qwen Code: the shared MCP-over-Streamable-HTTP endpoint
 * (bridge/mcp-http-endpoint.ts) with Gemini's flavor. The bridge has already checked Origin, Host and
 * the bearer token, and says which endpoint the token belongs to.
 */
import { McpHttpEndpoint, type McpEndpointOptions } from '../mcp-http-endpoint';
import { GEMINI_FLAVOR } from './session';

export class GeminiMcpEndpoint extends McpHttpEndpoint {
  constructor(options: Omit<McpEndpointOptions, 'flavor'>) {
    super({ ...options, flavor: GEMINI_FLAVOR });
  }
}
