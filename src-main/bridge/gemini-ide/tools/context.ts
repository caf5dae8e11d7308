/** What the Gemini tools work with: the session that called them and its diffs still open. */
import type { AgentSession } from '../../../core/agent-session';
import { toolDefiner } from '../../mcp-tools';
import type { OpenDiffs } from './open-diffs';

/** The session, as its tools see it. */
export interface GeminiToolContext {
  /** The connected client's session; read only from tool calls, which come after initialize. */
  readonly agent: AgentSession;
  /** Sends a notification to this client (queued until its event stream is open). */
  notify(method: string, params: Record<string, unknown>): void;
}

export interface GeminiTools {
  readonly session: GeminiToolContext;
  readonly diffs: OpenDiffs;
}

export const defineGeminiTool = toolDefiner<GeminiTools>();
