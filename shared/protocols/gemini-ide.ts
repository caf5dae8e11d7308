/** Gemini CLI's IDE protocol (MCP over Streamable HTTP). */
import type { ProtocolDescriptor } from './descriptor';

export const geminiIdeProtocol = {
  id: 'gemini-ide',
  displayName: 'Gemini CLI IDE (MCP over HTTP)',
  shortLabel: 'IDE connection',
  spokenName: "Gemini CLI's IDE protocol",
  adapter: 'bridge/gemini-ide',
  discovery: 'A discovery file in <os.tmpdir()>/gemini/ide names the bridge port and the token.',
  capabilities: {
    partialDecisions: true,
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
        id: 'gemini-cli',
        name: 'Gemini CLI',
        steps: [
          {
            text: 'From a workspace folder, start gemini and turn IDE mode on once with',
            command: '/ide enable',
          },
        ],
      },
    ],
  },
} satisfies ProtocolDescriptor<'gemini-ide'>;
