/**
 * Claude Code's hooks: `difftray hook claude-code` runs for each edit and speaks the native protocol
 * with `writer: 'client'` (DiffTray hands back the composed text; Claude writes it).
 */
import type { ProtocolDescriptor } from './descriptor';

export const claudeHooksProtocol = {
  id: 'claude-hooks',
  displayName: 'Claude Code hooks (difftray hook claude-code)',
  shortLabel: 'hooks',
  spokenName: "Claude Code's hooks",
  adapter: 'bridge/native',
  discovery:
    'The hook command finds DiffTray through its lock files in ${DIFFTRAY_HOME:-~/.difftray}, as the ' +
    'difftray command does.',
  capabilities: {
    partialDecisions: true,
    notes: true,
    sendToAgent: false,
    writer: 'client',
    autoApply: true,
    pause: 'Paused: its edits go through without review in DiffTray (Claude Code asks in its terminal).',
  },
  notesVia: null,
  setup: {
    agent: 'claude-code',
    command: 'difftray setup claude-code',
    hookCommand: 'difftray hook claude-code',
    codec: 'shared/claude-code/hook-answer.ts',
  },
  // The empty state offers the hooks' setup in its own paragraph, beside the guides.
  guide: { kind: 'none' },
} satisfies ProtocolDescriptor<'claude-hooks'>;
