/**
 * The two tools of the Gemini CLI companion protocol (Qwen Code uses the same), answered as the VS Code
 * companion (packages/vscode-ide-companion) answers them: one module per tool, registered from this
 * table. The CLI enables diffing only if tools/list has both. Reviews are matched by real path.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerTools, type McpTool } from '../../mcp-tools';
import { closeDiff } from './close-diff';
import type { GeminiToolContext, GeminiTools } from './context';
import { openDiff } from './open-diff';
import { OpenDiffs } from './open-diffs';

export { CLOSED_BY_CLIENT } from './close-diff';
export type { GeminiToolContext } from './context';
export { ideContext, MAX_OPEN_FILES, type IdeContext, type OpenFile } from './ide-context';
export { CONTEXT_UPDATE, DIFF_ACCEPTED, DIFF_CLOSED, DIFF_REJECTED } from './notifications';

export const GEMINI_TOOL_NAMES = ['openDiff', 'closeDiff'] as const;

export const geminiTools: readonly McpTool<GeminiTools>[] = [openDiff, closeDiff];

/** Registers the tools for one session, with the diffs it has open. */
export function registerGeminiTools(server: McpServer, session: GeminiToolContext): void {
  registerTools(server, geminiTools, { session, diffs: new OpenDiffs(session) });
}
