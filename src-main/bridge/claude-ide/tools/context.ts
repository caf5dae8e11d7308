/** What every Claude Code tool works with: the session of the client that called it. */
import type { AgentSession } from '../../../core/clients/agent-session';
import { toolDefiner } from '../../mcp-tools';

export type ClaudeToolContext = AgentSession;

export const defineClaudeTool = toolDefiner<ClaudeToolContext>();
