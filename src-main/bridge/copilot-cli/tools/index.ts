/**
 * The six tools of Copilot CLI's `/ide` protocol, with the names and argument schemas the CLI matches
 * on (sailro/CopilotCliIde doc/protocol.md and its captures of VS Code): one module per group,
 * registered from this table.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpToolSession } from '../../mcp-http-session';
import { registerTools, type McpTool } from '../../mcp-tools';
import { closeDiff } from './close-diff';
import type { CopilotTools } from './context';
import { getDiagnostics, getSelection, getVscodeInfo, updateSessionName } from './ide-info';
import { openDiff } from './open-diff';

export { COPILOT_CLI_NAME } from './ide-info';
export { CLOSED_VIA_TOOL, diffAnswer, PARTIAL_NOT_SENT, stillConfined } from './open-diff';

export const COPILOT_TOOL_NAMES = [
  'get_vscode_info',
  'get_selection',
  'get_diagnostics',
  'open_diff',
  'close_diff',
  'update_session_name',
] as const;

export const copilotTools: readonly McpTool<CopilotTools>[] = [
  getVscodeInfo,
  getSelection,
  getDiagnostics,
  openDiff,
  closeDiff,
  updateSessionName,
];

export function registerCopilotTools(server: McpServer, session: McpToolSession): void {
  registerTools(server, copilotTools, { session });
}
