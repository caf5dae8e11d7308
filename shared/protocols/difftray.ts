/** DiffTray itself: the merge review an undo puts up for files changed since (core/undo/undo-writes.ts). */
import type { ProtocolDescriptor } from './descriptor';

export const difftrayProtocol = {
  id: 'difftray',
  displayName: 'DiffTray itself (undoing its own writes onto files changed since)',
  shortLabel: 'DiffTray itself',
  // What it cannot carry is said with the client's own name.
  spokenName: null,
  adapter: 'core/undo/undo-writes.ts',
  discovery: 'None: DiffTray puts these reviews up itself.',
  capabilities: {
    partialDecisions: true,
    notes: false,
    sendToAgent: false,
    writer: 'difftray',
    // An undo's merge is not a client's proposal.
    autoApply: false,
    pause: null,
  },
  notesVia: null,
  setup: null,
  guide: { kind: 'none' },
  difftrayItself: true,
} satisfies ProtocolDescriptor<'difftray'>;
