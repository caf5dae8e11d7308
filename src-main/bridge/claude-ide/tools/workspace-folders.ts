/** `getWorkspaceFolders`: the folders DiffTray serves, as an IDE lists its open folders. */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { jsonResult } from '../../mcp-tools';
import { defineClaudeTool } from './context';

export const getWorkspaceFolders = defineClaudeTool({
  name: 'getWorkspaceFolders',
  description: 'Get all workspace folders currently open in the IDE',
  async handle(_args, session) {
    return jsonResult({
      success: true,
      folders: session.workspaceFolders.map((folder) => ({
        name: path.basename(folder),
        uri: pathToFileURL(folder).href,
        path: folder,
      })),
      rootPath: session.workspaceFolders[0] ?? null,
    });
  },
});
