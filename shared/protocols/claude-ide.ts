/** Claude Code's IDE protocol (MCP over WebSocket), spoken by Claude Code and OpenClaude. */
import type { ProtocolDescriptor } from './descriptor';

export const claudeIdeProtocol = {
  id: 'claude-ide',
  displayName: 'Claude Code IDE (MCP over WebSocket)',
  shortLabel: 'IDE connection',
  spokenName: "Claude Code's IDE protocol",
  adapter: 'bridge/claude-ide',
  discovery:
    'A lock file <port>.lock in ${CLAUDE_CONFIG_DIR:-~/.claude}/ide (and OpenClaude’s ' +
    '${OPENCLAUDE_CONFIG_DIR:-~/.openclaude}/ide) names the bridge port and the token.',
  capabilities: {
    partialDecisions: true,
    notes: false,
    sendToAgent: true,
    writer: 'client',
    autoApply: true,
    pause: null,
  },
  notesVia: 'claude-hooks',
  setup: null,
  guide: {
    kind: 'clis',
    clis: [
      {
        id: 'claude-code',
        name: 'Claude Code',
        steps: [
          { text: 'From a workspace folder, start it with', command: 'claude --ide' },
          { text: 'or, inside a running session, type', command: '/ide' },
        ],
      },
      {
        id: 'openclaude',
        name: 'OpenClaude',
        folded: true,
        steps: [{ text: 'From a workspace folder, start openclaude and type', command: '/ide' }],
      },
    ],
  },
} satisfies ProtocolDescriptor<'claude-ide'>;
