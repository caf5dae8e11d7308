/**
 * DiffTray's own protocol (WebSocket; shared/native-protocol.ts), spoken by the `difftray` command and
 * scripts. DiffTray writes a change set itself unless the client asked to write (`writer: 'client'`) or
 * is a paired remote host.
 */
import type { ProtocolDescriptor } from './descriptor';

export const nativeProtocol = {
  id: 'native',
  displayName: 'DiffTray protocol (WebSocket)',
  shortLabel: 'DiffTray protocol',
  spokenName: "DiffTray's protocol",
  adapter: 'bridge/native',
  discovery: 'A lock file <port>.lock in ${DIFFTRAY_HOME:-~/.difftray} names its own port and the token.',
  capabilities: {
    partialDecisions: true,
    notes: true,
    sendToAgent: true,
    writer: 'difftray',
    autoApply: true,
    pause: 'Paused: its proposals go through without review in DiffTray.',
  },
  notesVia: null,
  setup: null,
  guide: {
    kind: 'clis',
    clis: [
      {
        id: 'difftray',
        name: 'Any script',
        folded: true,
        steps: [
          {
            text: 'Review a patch, or changes an agent already wrote, with',
            command: 'git diff | difftray review',
          },
        ],
      },
    ],
  },
} satisfies ProtocolDescriptor<'native'>;
