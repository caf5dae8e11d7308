/** NEXUS3, which speaks Claude Code's IDE protocol under its own header and lock folder. */
import { claudeIdeProtocol } from './claude-ide';
import type { ProtocolDescriptor } from './descriptor';

export const nexus3IdeProtocol = {
  id: 'nexus3-ide',
  displayName: 'NEXUS3 IDE (MCP over WebSocket)',
  shortLabel: 'IDE connection',
  spokenName: "NEXUS3's IDE protocol",
  adapter: 'bridge/claude-ide',
  discovery: 'A lock file <port>.lock in ~/.nexus3/ide names the bridge port and the token.',
  // The same adapter as Claude Code's IDE protocol, so the same capabilities.
  capabilities: claudeIdeProtocol.capabilities,
  notesVia: 'claude-hooks',
  setup: null,
  guide: {
    kind: 'clis',
    clis: [
      {
        id: 'nexus3',
        name: 'NEXUS3',
        folded: true,
        steps: [
          {
            text: 'Connects on its own: it finds DiffTray through its lock file in ~/.nexus3/ide when started from a workspace folder.',
          },
        ],
      },
    ],
  },
} satisfies ProtocolDescriptor<'nexus3-ide'>;
