/**
 * Watch mode: what agents write directly, reviewed after the fact (src-main/core/watch/). A rejected
 * hunk is reverted by DiffTray's writer.
 */
import type { ProtocolDescriptor } from './descriptor';

export const watchProtocol = {
  id: 'watch',
  displayName: 'Watch mode (reviews changes on disk after they are written)',
  shortLabel: 'changes on disk',
  spokenName: 'Watch mode',
  adapter: 'core/watch',
  discovery: 'None: DiffTray watches the folders the person turned on (the watchFolders setting).',
  capabilities: {
    partialDecisions: true,
    notes: false,
    sendToAgent: false,
    writer: 'difftray',
    // Changes seen on disk are not a client's proposals.
    autoApply: false,
    pause: 'Paused: changes on disk are kept without review, and later changes are compared with them.',
  },
  notesVia: null,
  setup: null,
  // Agents that write files themselves have no way for DiffTray to stand in before the write.
  guide: {
    kind: 'watch',
    name: 'Agents that write files themselves',
    agents: ['Codex CLI', 'Aider', 'Cursor CLI', 'OpenCode', 'Goose', 'Crush', 'Amp'],
    command: 'difftray watch',
  },
} satisfies ProtocolDescriptor<'watch'>;
