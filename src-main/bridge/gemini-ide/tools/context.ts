/** What the Gemini tools work with: the session that called them and its diffs still open. */
import { toolDefiner } from '../../mcp-tools';
import type { OpenDiffs } from './open-diffs';
import type { GeminiToolContext } from './session-context';

export type { GeminiToolContext };

export interface GeminiTools {
  readonly session: GeminiToolContext;
  readonly diffs: OpenDiffs;
}

export const defineGeminiTool = toolDefiner<GeminiTools>();
