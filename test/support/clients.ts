/** The client a core test proposes as: connected, Claude Code's protocol. */
import type { ClientInfo } from '../../shared/app-api';

export function testClient(fields: Partial<ClientInfo> = {}): ClientInfo {
  return { id: 'c1', name: 'Client', protocol: 'claude-ide', connectedAt: 1, connected: true, ...fields };
}
