/** The session as Gemini's tools see it; apart, so the open diffs and the tool table both use it. */
import type { ClientInfo } from '../../../../shared/app-api';
import type { AppCore } from '../../../core/app-core';

/** The session, as its tools see it. */
export interface GeminiToolContext {
  readonly core: AppCore;
  /** The connected client; read only from tool calls, which come after the session is initialized. */
  readonly client: ClientInfo;
  /** Sends a notification to this client (queued until its event stream is open). */
  notify(method: string, params: Record<string, unknown>): void;
}
