/** `openFile`: DiffTray has no editor; it says whether the file is there, inside the workspace. */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { noteField, pathField } from '../../../../shared/field-limits';
import { joinUnresolved, resolveInsideWorkspace } from '../../../core/workspace/workspace-paths';
import { jsonResult, textResult, toolError } from '../../mcp-tools';
import { defineClaudeTool } from './context';

export const openFile = defineClaudeTool({
  name: 'openFile',
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
  async handle(args, session) {
    // Outside the workspace the answer is the same whether the path exists or not: this tool must not
    // tell a client what is on the machine.
    let filePath: string;
    try {
      const given = joinUnresolved(session.workspaceFolders[0] ?? process.cwd(), args.filePath);
      filePath = resolveInsideWorkspace(given, session.workspaceFolders);
    } catch {
      return toolError(`Not opened: ${args.filePath} is outside the workspace folders`);
    }
    if (!existsSync(filePath)) return toolError(`File not found: ${args.filePath}`);
    if (args.makeFrontmost === false) {
      return jsonResult({ success: true, filePath, languageId: 'plaintext', lineCount: 0 });
    }
    return textResult(`Opened file: ${filePath}`);
  },
});
