/**
 * Gemini CLI's and Qwen Code's flavor of an MCP session (bridge/mcp-http-session.ts): the server calls
 * itself DiffTray, has the two diff tools, and pushes `ide/contextUpdate` (the open files: the
 * reviews waiting, and the lines last sent to the agent as the active file's selection) when the event
 * stream opens, when the queue changes and when the person sends lines ("Send to agent").
 */
import { DIFFTRAY_VERSION } from '../../../shared/version';
import { MAX_MCP_SESSIONS, type McpFlavor, type McpSessionEndpoint } from '../mcp-http-session';
import { CONTEXT_UPDATE, ideContext, registerGeminiTools } from './tools';

/** Gemini CLI and Qwen Code speak the same protocol; which one it is shows in the token it presents. */
export interface GeminiEndpoint extends McpSessionEndpoint {
  transport: 'http';
  protocol: 'gemini-ide' | 'qwen-ide';
  displayName: string;
  /** Gemini's `gemini-ide-server-<pid>-<port>.json` or Qwen's `<port>.lock`, written in `dir`. */
  discovery: 'gemini' | 'qwen';
  dir: string;
}

export const GEMINI_FLAVOR: McpFlavor = {
  serverInfo: { name: 'DiffTray', version: DIFFTRAY_VERSION },
  capabilities: { tools: {} },
  registerTools: registerGeminiTools,
  context: {
    method: CONTEXT_UPDATE,
    current: (port, selection) => ideContext(port.pendingReviews(), selection),
  },
  // The selection becomes the active file of the context, and stays in the contexts that follow.
  selectionNotification: (selection, port) => ({
    jsonrpc: '2.0',
    method: CONTEXT_UPDATE,
    params: ideContext(port.pendingReviews(), selection),
  }),
};

/** Live Gemini CLI and Qwen Code sessions at once, both together. */
export const MAX_GEMINI_SESSIONS = MAX_MCP_SESSIONS;
