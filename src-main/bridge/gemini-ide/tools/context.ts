/** What the Gemini tools work with: the session that called them and its diffs still open. */
import type { ClientInfo } from '../../../../shared/app-api';
import type { AppCore } from '../../../core/app-core';
import { toolDefiner } from '../../mcp-tools';
import type { OpenDiffs } from './open-diffs';

/** The session, as its tools see it. */
export interface GeminiToolContext {
  readonly core: AppCore;
  /** The connected client; read only from tool calls, which come after the session is initialized. */
  readonly client: ClientInfo;
  /** Sends a notification to this client (queued until its event stream is open). */
  notify(method: string, params: Record<string, unknown>): void;
}

export interface GeminiTools {
  readonly session: GeminiToolContext;
  readonly diffs: OpenDiffs;
}

export const defineGeminiTool = toolDefiner<GeminiTools>();
