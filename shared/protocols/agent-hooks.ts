/**
 * The hooks of Codex CLI, Gemini CLI, Copilot CLI and Qwen Code: `difftray hook <agent>` runs before
 * each edit or command and speaks the native protocol with `writer: 'client'` (DiffTray answers with the
 * composed text; the agent writes it). One shape for all four, as Claude Code's (claude-hooks.ts).
 */
import type { SetupAgent } from '../hook-setup/agent-hooks';
import type { ProtocolDescriptor } from './descriptor';

type AgentHooksId = 'codex-hooks' | 'gemini-hooks' | 'copilot-hooks' | 'qwen-hooks';

function agentHooksProtocol<P extends AgentHooksId>(
  id: P,
  agent: { name: string; setupTarget: Exclude<SetupAgent, 'claude-code'> },
): ProtocolDescriptor<P> {
  return {
    id,
    displayName: `${agent.name} hooks (difftray hook ${agent.setupTarget})`,
    shortLabel: 'hooks',
    spokenName: `${agent.name}'s hooks`,
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
      pause: `Paused: its edits go through without review in DiffTray (${agent.name} asks as it would without DiffTray).`,
    },
    notesVia: null,
    setup: {
      agent: agent.setupTarget,
      command: `difftray setup ${agent.setupTarget}`,
      hookCommand: `difftray hook ${agent.setupTarget}`,
      codec: `shared/hooks/${agent.setupTarget}.ts`,
    },
    guide: { kind: 'none' },
  };
}

export const codexHooksProtocol = agentHooksProtocol('codex-hooks', {
  name: 'Codex CLI',
  setupTarget: 'codex',
});
export const geminiHooksProtocol = agentHooksProtocol('gemini-hooks', {
  name: 'Gemini CLI',
  setupTarget: 'gemini',
});
export const copilotHooksProtocol = agentHooksProtocol('copilot-hooks', {
  name: 'GitHub Copilot CLI',
  setupTarget: 'copilot',
});
export const qwenHooksProtocol = agentHooksProtocol('qwen-hooks', { name: 'Qwen Code', setupTarget: 'qwen' });
