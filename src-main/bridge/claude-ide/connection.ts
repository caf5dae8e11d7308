/**
 * One Claude Code (or NEXUS3) connection: an MCP server with the IDE tools, over one WebSocket.
 * When the socket goes, the client's pending reviews are cancelled: nobody is left to receive them.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type WebSocket from 'ws';
import { z } from 'zod';
import type { ClientProtocol } from '../../../shared/app-api';
import { DIFFTRAY_VERSION } from '../../../shared/version';
import type { ClientPort } from '../../core/clients/agent-session';
import { processWorkingFolder } from '../../core/clients/process-info';
import { SelectionError } from '../../core/review/selection-context';
import { WebSocketTransport } from '../ws-transport';
import { claudeSelectionNotifications } from './selection';
import { registerClaudeTools } from './tools';
import { messageOf } from '../../../shared/error-message';

const ideConnectedSchema = z.object({
  method: z.literal('ide_connected'),
  params: z.object({ pid: z.number().optional() }).passthrough().optional(),
});

export async function serveClaudeConnection(
  socket: WebSocket,
  port: ClientPort,
  protocol: ClientProtocol,
  displayName: string,
): Promise<void> {
  // "Disconnect" in the UI closes the socket; the close handler below does the rest, as for any close.
  const session = port.connect(displayName, protocol, () => socket.close(1000, 'disconnected by the user'));
  const server = new McpServer(
    { name: 'DiffTray', version: DIFFTRAY_VERSION },
    { capabilities: { tools: {} } },
  );
  registerClaudeTools(server, session);
  // "Send to agent" reaches this connection's own client only.
  session.takeSelections(async (selection) => {
    try {
      for (const notification of claudeSelectionNotifications(selection)) {
        await server.server.notification(notification);
      }
    } catch (error) {
      throw new SelectionError(`${displayName} could not be reached: ${messageOf(error)}`);
    }
  });

  server.server.oninitialized = () => {
    const info = server.server.getClientVersion();
    if (info?.version) session.describe({ version: info.version });
  };
  server.server.setNotificationHandler(ideConnectedSchema, (notification) => {
    const pid = notification.params?.pid;
    if (typeof pid !== 'number') return;
    const workspace = processWorkingFolder(pid);
    session.describe(workspace === undefined ? { pid } : { pid, workspace });
  });

  const transport = new WebSocketTransport(socket);
  transport.onclose = () => session.gone();
  await server.connect(transport);
}
