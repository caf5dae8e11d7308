/** `get_file_tree` and `get_file_content`: reading the workspace, confined to its folders. */
import { ContextError, getFileContent, getFileTree } from '../context';
import { defineCommand, RequestError } from './command';

export const fileTree = defineCommand('get_file_tree', async (payload, { services, respond }) => {
  respond(await refusingAsRequest(() => getFileTree(payload, services.core.workspaceFolders)));
});

export const fileContent = defineCommand('get_file_content', async (payload, { services, respond }) => {
  respond(await refusingAsRequest(() => getFileContent(payload.path, services.core.workspaceFolders)));
});

/** A read the workspace refused (outside it, too large, binary…) reaches the client with its code. */
async function refusingAsRequest<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ContextError) throw new RequestError(error.code, error.message);
    throw error;
  }
}
