/**
 * seed 003's context services (shared/native-context.ts): the workspace's texts, the file on screen,
 * the files under review, search, trust and filter rules, and the client that receives pushes. Every
 * read goes through core's confined walk (src-main/core/context); refusals reach the client with their
 * numbered code.
 */
import { pathToFileURL } from 'node:url';
import { ErrorCode } from '../../../../shared/native-protocol';
import type { FilterInfoResponse, GenericAck, SearchResponse } from '../../../../shared/native-context';
import { SEARCH_DEFAULT_RESULTS } from '../../../../shared/limits';
import {
  ContextFolderError,
  outermostFolders,
  resolveContextFolder,
  type ContextFolder,
} from '../../../core/context/context-folders';
import { filterInfo } from '../../../core/context/filter-info';
import { readFolderTexts } from '../../../core/context/folder-texts';
import { SearchQueryError, searchTexts } from '../../../core/context/text-search';
import {
  activeFileInfo,
  codebaseAnswer,
  folderContentAnswer,
  folderNamer,
  openFiles,
  workspaceTrust,
} from '../context-answers';
import { defineCommand, RequestError } from './command';

export const folderContent = defineCommand('get_folder_content', async (payload, { services, respond }) => {
  const folders = services.core.workspaceFolders;
  const target = folderOrRefuse(payload.folderPath, folders);
  respond(folderContentAnswer(target, await readFolderTexts(target, folders), folders));
});

export const entireCodebase = defineCommand('get_entire_codebase', async (payload, { services, respond }) => {
  const folders = services.core.workspaceFolders;
  const target = folderOrRefuse(payload.workspaceFolderUri, folders);
  respond(codebaseAnswer(target, await readFolderTexts(target, folders)));
});

export const activeFile = defineCommand('get_active_file_info', (_payload, { services, respond }) =>
  respond(activeFileInfo(services.core)),
);

export const openFilesCommand = defineCommand('get_open_files', (_payload, { services, respond }) =>
  respond(openFiles(services.core)),
);

export const searchWorkspace = defineCommand('search_workspace', async (payload, { services, respond }) => {
  const folders = services.core.workspaceFolders;
  const targets: ContextFolder[] =
    payload.workspaceFolderUri == null
      ? outermostFolders(folders).map((root) => ({ root, folder: root }))
      : [folderOrRefuse(payload.workspaceFolderUri, folders)];
  let outcome;
  try {
    outcome = await searchTexts(targets, folders, {
      query: payload.query,
      isRegex: payload.isRegex ?? false,
      caseSensitive: payload.caseSensitive ?? true,
      maxResults: payload.maxResults ?? SEARCH_DEFAULT_RESULTS,
    });
  } catch (error) {
    if (error instanceof SearchQueryError) throw new RequestError(ErrorCode.INVALID_PAYLOAD, error.message);
    throw error;
  }
  const { matches, ...rest } = outcome;
  const folderOf = folderNamer(folders);
  const response: SearchResponse = {
    query: payload.query,
    results: matches.map((match) => {
      const url = pathToFileURL(match.path).href;
      return {
        path: match.path,
        name: match.path.slice(match.path.lastIndexOf('/') + 1),
        type: 'file' as const,
        content_source_id: url,
        ...folderOf(match.path),
        line: match.line,
        lineText: match.lineText,
        ...(match.lineTruncated && { lineTruncated: true as const }),
      };
    }),
    ...rest,
  };
  respond(response);
});

export const workspaceTrustCommand = defineCommand(
  'check_workspace_trust',
  (payload, { services, respond }) => respond(workspaceTrust(services.core, payload.path)),
);

export const filterInfoCommand = defineCommand('get_filter_info', async (payload, { services, respond }) => {
  const folders = services.core.workspaceFolders;
  const target = folderOrRefuse(payload.workspaceFolderUri, folders);
  const response: FilterInfoResponse = {
    workspaceFolderUri: pathToFileURL(target.folder).href,
    ...(await filterInfo(target, folders)),
  };
  respond(response);
});

export const registerActiveTarget = defineCommand(
  'register_active_target',
  (payload, { services, connection, respond }) => {
    const session =
      payload.session_id === undefined ? connection.session : services.sessions.get(payload.session_id);
    if (!session) {
      const why =
        payload.session_id === undefined
          ? 'No session: send "hello" first, or name a session with session_id'
          : `Unknown session ${payload.session_id}`;
      throw new RequestError(ErrorCode.SESSION_UNKNOWN, why);
    }
    services.sessions.registerTarget(session, {
      connection,
      tabId: payload.tabId,
      llmHost: payload.llmHost,
    });
    respond({ success: true, message: `Target registered for ${session.name}` } satisfies GenericAck);
  },
);

function folderOrRefuse(given: string | null | undefined, folders: readonly string[]): ContextFolder {
  try {
    return resolveContextFolder(given, folders);
  } catch (error) {
    if (error instanceof ContextFolderError) throw new RequestError(CODES[error.problem], error.message);
    throw error;
  }
}

const CODES: Record<ContextFolderError['problem'], ErrorCode> = {
  outside: ErrorCode.OUTSIDE_WORKSPACE,
  'not-found': ErrorCode.NOT_FOUND,
  invalid: ErrorCode.INVALID_PAYLOAD,
};
