/**
 * GitHub Copilot CLI's `/ide` protocol (MCP over HTTP on a Unix socket). After `SAVED` the CLI writes its
 * own proposal whole, so its reviews are accepted or rejected whole (bridge/copilot-cli/tools/open-diff.ts).
 */
import type { ProtocolDescriptor } from './descriptor';

export const copilotCliProtocol = {
  id: 'copilot-cli',
  displayName: 'Copilot CLI /ide (MCP over a Unix socket)',
  shortLabel: '/ide',
  spokenName: "Copilot CLI's /ide protocol",
  adapter: 'bridge/copilot-cli',
  discovery:
    'A lock file <uuid>.lock in ${COPILOT_HOME:-~/.copilot}/ide names the Unix socket (in a 0700 ' +
    'folder) and the token.',
  capabilities: {
    partialDecisions: false,
    notes: false,
    sendToAgent: true,
    writer: 'client',
    autoApply: true,
    pause: null,
  },
  notesVia: null,
  setup: null,
  guide: {
    kind: 'clis',
    clis: [
      {
        id: 'copilot-cli',
        name: 'GitHub Copilot CLI',
        steps: [{ text: 'From a workspace folder, start copilot and pick DiffTray with', command: '/ide' }],
      },
    ],
  },
} satisfies ProtocolDescriptor<'copilot-cli'>;
