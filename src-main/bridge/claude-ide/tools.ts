/**
 * The twelve tools of Claude Code's IDE protocol, answered as the real IDE integrations answer them
 * (VS Code extension, claudecode.nvim). DiffTray has no text editor, so editor-state tools report an
 * empty editor; openDiff is the one that matters and blocks until the person decides.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { ClientInfo } from '../../../shared/app-api';
import { fileTextField, labelField, noteField, pathField } from '../../../shared/field-limits';
import type { AppCore } from '../../core/app-core';
import type { DiskSnapshot } from '../../core/disk-snapshot';
import { readProposalBase } from '../../core/proposal-base';
import { joinUnresolved, resolveInsideWorkspace } from '../../core/workspace-paths';
import { displayPath } from '../display-path';

export const FILE_SAVED = 'FILE_SAVED';
export const DIFF_REJECTED = 'DIFF_REJECTED';

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

function text(...parts: string[]): CallToolResult {
  return { content: parts.map((part) => ({ type: 'text' as const, text: part })) };
}

function json(value: unknown): CallToolResult {
  return text(JSON.stringify(value));
}

function toolError(message: string): CallToolResult {
  return { ...text(message), isError: true };
}

export function registerClaudeTools(server: McpServer, core: AppCore, client: ClientInfo): void {
  const { queue } = core;

  server.registerTool(
    'openDiff',
    {
      description: 'Open a diff view comparing old file content with new file content',
      inputSchema: {
        old_file_path: pathField().describe('Path to the old file to compare'),
        new_file_path: pathField().describe('Path to the new file to compare'),
        new_file_contents: fileTextField().describe('Contents for the new file version'),
        tab_name: labelField().describe('Name for the diff tab/view'),
      },
    },
    async (args) => {
      let filePath: string;
      let base: DiskSnapshot;
      try {
        // The base is read from the path that was checked, never from the one given: the kernel would
        // climb a `..` from a symlink's target (`<ws>/link-to-home/../.ssh/id_rsa`), the check did not.
        const oldPath = resolveInsideWorkspace(args.old_file_path, core.workspaceFolders);
        filePath = resolveInsideWorkspace(args.new_file_path, core.workspaceFolders);
        base = await readProposalBase(oldPath, core.workspaceFolders);
      } catch (error) {
        return toolError((error as Error).message);
      }
      const { outcome } = queue.add({
        client,
        title: displayPath(filePath, core.workspaceFolders),
        description: args.tab_name,
        tabName: args.tab_name,
        files: [{ path: filePath, base, proposedText: args.new_file_contents }],
      });
      const result = await outcome;
      // The CLI writes the file itself, with exactly the text we return; unchanged text means "rejected".
      if (result.kind === 'accepted') {
        const file = result.files[0];
        if (file?.changed) return text(FILE_SAVED, file.finalText);
      }
      return text(DIFF_REJECTED, args.tab_name);
    },
  );

  server.registerTool(
    'close_tab',
    {
      description: 'Close a tab by name',
      inputSchema: { tab_name: labelField().describe('Name of the tab to close') },
    },
    async (args) => {
      queue.cancelWhere(
        (request) => request.client.id === client.id && request.tabName === args.tab_name,
        'closed by the client',
      );
      return text('TAB_CLOSED');
    },
  );

  server.registerTool('closeAllDiffTabs', { description: 'Close all diff tabs in the editor' }, async () => {
    const closed = core.cancelReviewsOf(client.id, 'closed by the client');
    return text(`CLOSED_${closed}_DIFF_TABS`);
  });

  server.registerTool(
    'openFile',
    {
      description: 'Open a file in the editor and optionally select a range of text',
      inputSchema: {
        filePath: pathField().describe('Path to the file to open'),
        preview: z.boolean().optional().describe('Whether to open the file in preview mode'),
        startLine: z.number().int().optional().describe('Optional: Line number to start selection'),
        endLine: z.number().int().optional().describe('Optional: Line number to end selection'),
        startText: noteField().optional().describe('Text pattern to find the start of the selection range'),
        endText: noteField().optional().describe('Text pattern to find the end of the selection range'),
        selectToEndOfLine: z.boolean().optional().describe('Extend the selection to the end of the line'),
        makeFrontmost: z.boolean().optional().describe('Whether to make the file the active editor tab'),
      },
    },
    async (args) => {
      // Outside the workspace the answer is the same whether the path exists or not: this tool must not
      // tell a client what is on the machine.
      let filePath: string;
      try {
        const given = joinUnresolved(core.workspaceFolders[0] ?? process.cwd(), args.filePath);
        filePath = resolveInsideWorkspace(given, core.workspaceFolders);
      } catch {
        return toolError(`Not opened: ${args.filePath} is outside the workspace folders`);
      }
      if (!existsSync(filePath)) return toolError(`File not found: ${args.filePath}`);
      if (args.makeFrontmost === false) {
        return json({ success: true, filePath, languageId: 'plaintext', lineCount: 0 });
      }
      return text(`Opened file: ${filePath}`);
    },
  );

  server.registerTool(
    'getDiagnostics',
    {
      description: 'Get language diagnostics (errors, warnings) from the editor',
      inputSchema: { uri: pathField().optional().describe('Optional file URI to get diagnostics for') },
    },
    // DiffTray runs no language servers: there are never diagnostics to report.
    async (args) => json(args.uri ? [{ uri: args.uri, diagnostics: [] }] : []),
  );

  server.registerTool(
    'getCurrentSelection',
    { description: 'Get the current text selection in the editor' },
    async () => json({ success: false, message: 'No active editor found' }),
  );

  server.registerTool(
    'getLatestSelection',
    { description: 'Get the most recent text selection (even if not in the active editor)' },
    async () => json({ success: false, message: 'No selection available' }),
  );

  server.registerTool('getOpenEditors', { description: 'Get list of currently open files' }, async () =>
    json({ tabs: [] }),
  );

  server.registerTool(
    'getWorkspaceFolders',
    { description: 'Get all workspace folders currently open in the IDE' },
    async () =>
      json({
        success: true,
        folders: core.workspaceFolders.map((folder) => ({
          name: path.basename(folder),
          uri: pathToFileURL(folder).href,
          path: folder,
        })),
        rootPath: core.workspaceFolders[0] ?? null,
      }),
  );

  server.registerTool(
    'checkDocumentDirty',
    {
      description: 'Check if a document has unsaved changes (is dirty)',
      inputSchema: { filePath: pathField().describe('Path to the file to check') },
    },
    async (args) => json({ success: false, message: `Document not open: ${args.filePath}` }),
  );

  server.registerTool(
    'saveDocument',
    {
      description: 'Save a document with unsaved changes',
      inputSchema: { filePath: pathField().describe('Path to the file to save') },
    },
    async (args) => json({ success: false, message: `Document not open: ${args.filePath}` }),
  );

  server.registerTool(
    'executeCode',
    {
      description: 'Execute python code in the Jupyter kernel for the current notebook file',
      inputSchema: { code: noteField().describe('The code to be executed on the kernel') },
    },
    async () => toolError('No active Jupyter notebook: DiffTray does not run code'),
  );
}
