/** `get_file_tree` and `get_file_content`: reading the workspace, confined to its folders. */
import { ContextError, fileTreeFolder, getFileContent, getFileTree } from '../context';
import { defineCommand, RequestError } from './command';
import { inContextShare, inPool } from './context-share';

/**
 * Counts in the connection's share of context work (4006 past it), answered when done: `git ls-files`
 * runs as a child process, and the walk outside git in a context worker.
 */
export const fileTree = defineCommand('get_file_tree', (payload, context) => {
  const folders = [...context.services.port.workspaceFolders];
  const folder = refusingAsRequestNow(() => fileTreeFolder(payload.folder, folders));
  inContextShare(context, async () => {
    const walk = (limit: number) => inPool(context, { kind: 'file-tree', folder, folders, limit });
    context.respond(await getFileTree(folder, payload.max_entries, walk));
  });
});

export const fileContent = defineCommand('get_file_content', async (payload, { services, respond }) => {
  respond(await refusingAsRequest(() => getFileContent(payload.path, services.port.workspaceFolders)));
});

/** A read the workspace refused (outside it, too large, binary…) reaches the client with its code. */
async function refusingAsRequest<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw asRequest(error);
  }
}

function refusingAsRequestNow<T>(look: () => T): T {
  try {
    return look();
  } catch (error) {
    throw asRequest(error);
  }
}

function asRequest(error: unknown): unknown {
  return error instanceof ContextError ? new RequestError(error.code, error.message) : error;
}
