/** Clio's IDE bridge (WebSocket): DiffTray writes what the person accepted. */
import type { ProtocolDescriptor } from './descriptor';

export const clioProtocol = {
  id: 'clio',
  displayName: 'Clio IDE bridge (WebSocket)',
  shortLabel: 'IDE bridge',
  spokenName: "Clio's protocol",
  adapter: 'bridge/clio',
  discovery: '~/.clio/ide/bridge.json names its own port and the token (or CLIO_IDE_PORT).',
  capabilities: {
    partialDecisions: true,
    notes: true,
    sendToAgent: false,
    writer: 'difftray',
    autoApply: true,
    pause: null,
  },
  notesVia: null,
  setup: null,
  guide: {
    kind: 'clis',
    clis: [
      {
        id: 'clio',
        name: 'Clio',
        folded: true,
        steps: [
          {
            text: 'Finds DiffTray through ~/.clio/ide/bridge.json (or CLIO_IDE_PORT, which `difftray status` prints).',
          },
        ],
      },
    ],
  },
} satisfies ProtocolDescriptor<'clio'>;
