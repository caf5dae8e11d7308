/**
 * The agents `difftray hook <agent>` speaks for: how each one is introduced to DiffTray, so Connections
 * lists it as that program (with what it can hear) and a pause is remembered for it.
 */
import type { HookAgentName } from '../../../shared/hooks/hook-tables';
import type { Integration } from '../../../shared/native-protocol';
import type { ClientProtocol } from '../../../shared/protocols/descriptor';

export type { HookAgentName };

export interface HookAgentIdentity {
  /** Shown in Connections and in the agent's verbose view ("Codex CLI asks as usual"). */
  clientName: string;
  integration: Integration;
  /** What Connections lists it as, and a pause is remembered by (with the name). */
  protocol: ClientProtocol;
}

export const HOOK_AGENT_IDENTITIES = {
  'claude-code': { clientName: 'Claude Code', integration: 'claude-code-hooks', protocol: 'claude-hooks' },
  codex: { clientName: 'Codex CLI', integration: 'codex-hooks', protocol: 'codex-hooks' },
  gemini: { clientName: 'Gemini CLI', integration: 'gemini-hooks', protocol: 'gemini-hooks' },
  copilot: { clientName: 'GitHub Copilot CLI', integration: 'copilot-hooks', protocol: 'copilot-hooks' },
  qwen: { clientName: 'Qwen Code', integration: 'qwen-hooks', protocol: 'qwen-hooks' },
} as const satisfies Record<HookAgentName, HookAgentIdentity>;
