/**
 * The editor-state tools, answered as an IDE with no open editor answers them: DiffTray has no text
 * editor, runs no language servers and no notebooks.
 */
import { noteField, pathField } from '../../../../shared/field-limits';
import { jsonResult, toolError } from '../../mcp-tools';
import { defineClaudeTool } from './context';

export const getDiagnostics = defineClaudeTool({
  name: 'getDiagnostics',
  description: 'Get language diagnostics (errors, warnings) from the editor',
  inputSchema: { uri: pathField().optional().describe('Optional file URI to get diagnostics for') },
  // No language servers: there are never diagnostics to report.
  handle: async (args) => jsonResult(args.uri ? [{ uri: args.uri, diagnostics: [] }] : []),
});

export const getCurrentSelection = defineClaudeTool({
  name: 'getCurrentSelection',
  description: 'Get the current text selection in the editor',
  handle: async () => jsonResult({ success: false, message: 'No active editor found' }),
});

export const getLatestSelection = defineClaudeTool({
  name: 'getLatestSelection',
  description: 'Get the most recent text selection (even if not in the active editor)',
  handle: async () => jsonResult({ success: false, message: 'No selection available' }),
});

export const getOpenEditors = defineClaudeTool({
  name: 'getOpenEditors',
  description: 'Get list of currently open files',
  handle: async () => jsonResult({ tabs: [] }),
});

export const checkDocumentDirty = defineClaudeTool({
  name: 'checkDocumentDirty',
  description: 'Check if a document has unsaved changes (is dirty)',
  inputSchema: { filePath: pathField().describe('Path to the file to check') },
  handle: async (args) => jsonResult({ success: false, message: `Document not open: ${args.filePath}` }),
});

export const saveDocument = defineClaudeTool({
  name: 'saveDocument',
  description: 'Save a document with unsaved changes',
  inputSchema: { filePath: pathField().describe('Path to the file to save') },
  handle: async (args) => jsonResult({ success: false, message: `Document not open: ${args.filePath}` }),
});

export const executeCode = defineClaudeTool({
  name: 'executeCode',
  description: 'Execute python code in the Jupyter kernel for the current notebook file',
  inputSchema: { code: noteField().describe('The code to be executed on the kernel') },
  handle: async () => toolError('No active Jupyter notebook: DiffTray does not run code'),
});
