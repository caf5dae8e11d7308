/** The session as Gemini's tools see it; apart, so the open diffs and the tool table both use it. */
import type { AgentSession } from '../../../core/clients/agent-session';

/** The session, as its tools see it. */
export interface GeminiToolContext {
  /** The connected client's session; read only from tool calls, which come after initialize. */
  readonly agent: AgentSession;
  /** Sends a notification to this client (queued until its event stream is open). */
  notify(method: string, params: Record<string, unknown>): void;
}
