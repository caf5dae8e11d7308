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
    'A lock file <port>.lock in ${QWEN_HOME:-~/.qwen}/ide names the bridge port, the token and the ' +
    'workspace; Qwen Code reads the lock files there and takes the one whose workspace holds its folder ' +
    '(QWEN_CODE_IDE_SERVER_PORT picks one where several do).',
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
            text: 'Finds DiffTray by itself: from a workspace folder, start qwen and turn IDE mode on once with',
            command: '/ide enable',
          },
        ],
      },
    ],
  },
} satisfies ProtocolDescriptor<'qwen-ide'>;
