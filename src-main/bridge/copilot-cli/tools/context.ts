/** What Copilot CLI's tools work with: the session that called them (its agent session, notify). */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolDefiner } from '../../mcp-tools';
import type { McpToolSession } from '../../mcp-http-session';

export interface CopilotTools {
  readonly session: McpToolSession;
}

export const defineCopilotTool = toolDefiner<CopilotTools>();

/** Answers as VS Code's server does: one text part, the JSON indented by two spaces. */
export function copilotJson(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}
