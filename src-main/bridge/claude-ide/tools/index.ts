/**
 * The twelve tools of Claude Code's IDE protocol, answered as the real IDE integrations answer them
 * (VS Code extension, claudecode.nvim): one module per tool or group, registered from this table.
 * DiffTray has no text editor, so editor-state tools report an empty editor; openDiff is the one that
 * matters and blocks until the person decides.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerTools, type McpTool } from '../../mcp-tools';
import type { ClaudeToolContext } from './context';
import {
  checkDocumentDirty,
  executeCode,
  getCurrentSelection,
  getDiagnostics,
  getLatestSelection,
  getOpenEditors,
  saveDocument,
} from './no-editor';
import { openDiff } from './open-diff';
import { openFile } from './open-file';
import { closeAllDiffTabs, closeTab } from './tabs';
import { getWorkspaceFolders } from './workspace-folders';

export { DIFF_REJECTED, FILE_SAVED } from './open-diff';

/** The tool names the protocol expects (the wire contract the tests hold the table to). */
export const CLAUDE_TOOL_NAMES = [
  'openDiff',
  'close_tab',
  'closeAllDiffTabs',
  'openFile',
  'getDiagnostics',
  'getCurrentSelection',
  'getLatestSelection',
  'getOpenEditors',
  'getWorkspaceFolders',
  'checkDocumentDirty',
  'saveDocument',
  'executeCode',
] as const;

export const claudeTools: readonly McpTool<ClaudeToolContext>[] = [
  openDiff,
  closeTab,
  closeAllDiffTabs,
  openFile,
  getDiagnostics,
  getCurrentSelection,
  getLatestSelection,
  getOpenEditors,
  getWorkspaceFolders,
  checkDocumentDirty,
  saveDocument,
  executeCode,
];

export function registerClaudeTools(server: McpServer, context: ClaudeToolContext): void {
  registerTools(server, claudeTools, context);
}
