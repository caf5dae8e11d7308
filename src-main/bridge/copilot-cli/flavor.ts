/**
 * The MCP server Copilot CLI expects behind `/ide`: it must call itself `vscode-copilot-cli` (the CLI
 * checks the name), with tools that may change (`listChanged`, as VS Code declares), no Gemini
 * context notifications, and `selection_changed` for lines the person sends to the agent. Sessions,
 * routing and bodies are the shared ones (bridge/mcp-http-*.ts).
 */
import type http from 'node:http';
import { DIFFTRAY_VERSION } from '../../../shared/version';
import { processWorkingFolder } from '../../core/clients/process-info';
import { singleHeader } from '../../loopback/auth';
import type { McpFlavor, McpSessionEndpoint } from '../mcp-http-session';
import { selectionChangedNotification } from '../selection-changed';
import { COPILOT_CLI_NAME, registerCopilotTools } from './tools';

export const COPILOT_SERVER_NAME = 'vscode-copilot-cli';

export const COPILOT_FLAVOR: McpFlavor = {
  serverInfo: { name: COPILOT_SERVER_NAME, version: DIFFTRAY_VERSION, title: 'DiffTray for Copilot CLI' },
  capabilities: { tools: { listChanged: true } },
  registerTools: registerCopilotTools,
  // "Send to agent" (sailro/CopilotCliIde doc/protocol.md §4 and its captures): the CLI (1.0.102) shows
  // it beside its prompt (`@notes.txt:2-3`) and puts a non-empty one in an `<ide_selection>` block before
  // the person's next prompt. `diagnostics_changed`, the other push, is never sent: DiffTray has no
  // language service, and `get_diagnostics` answers `[]`, as VS Code does with no diagnostics.
  selectionNotification: selectionChangedNotification,
  clientDetails: copilotClientDetails,
};

/**
 * The CLI names its process in every request (`X-Copilot-PID`); its working folder comes from there.
 * A header is the client's word: any program that read the lock file can name any pid, and Node gives
 * no peer credentials for a Unix socket (SO_PEERCRED) to check it, nor does /proc link the two ends of
 * one. So the pid and folder are shown as claimed, never as facts.
 */
export function copilotClientDetails(request: http.IncomingMessage) {
  const pid = Number(singleHeader(request.headers['x-copilot-pid']));
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  const workspace = processWorkingFolder(pid);
  return { pid, ...(workspace !== undefined && { workspace }), claimed: true as const };
}

export const COPILOT_ENDPOINT: McpSessionEndpoint = {
  protocol: 'copilot-cli',
  displayName: COPILOT_CLI_NAME,
};
