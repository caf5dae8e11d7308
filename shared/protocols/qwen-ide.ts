/** Qwen Code's IDE protocol: Gemini CLI's, from its own lock folder. */
import { geminiIdeProtocol } from './gemini-ide';
import type { ProtocolDescriptor } from './descriptor';

export const qwenIdeProtocol = {
  id: 'qwen-ide',
  displayName: 'Qwen Code IDE (MCP over HTTP)',
  shortLabel: 'IDE connection',
  spokenName: "Qwen Code's IDE protocol",
  adapter: 'bridge/gemini-ide',
  discovery:
    'A lock file <port>.lock in ${QWEN_HOME:-~/.qwen}/ide names the bridge port and the token; Qwen ' +
    'Code reads the port from its environment.',
  // The same adapter as Gemini CLI's IDE protocol, so the same capabilities.
  capabilities: geminiIdeProtocol.capabilities,
  notesVia: null,
  setup: null,
  guide: {
    kind: 'clis',
    clis: [
      {
        id: 'qwen-code',
        name: 'Qwen Code',
        steps: [
          {
            text: 'Export the port named by the lock file in ~/.qwen/ide, then in qwen type',
            command: '/ide enable',
          },
        ],
      },
    ],
  },
} satisfies ProtocolDescriptor<'qwen-ide'>;
