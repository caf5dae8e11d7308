/**
 * seed 003's context services (shared/native-context.ts): the workspace's texts, the file on screen,
 * the files under review, search, trust and filter rules, and the client that receives pushes. Every
 * read goes through core's confined walk (src-main/core/context); refusals reach the client with their
 * numbered code.
 *
 * Walks and searches run in core's worker pool (context-pool.ts), answered when done, so the connection
 * goes on to its next messages meanwhile; each counts in the connection's share (context-share.ts: past
 * it, 4006 CONTEXT_BUSY at once).
 */
import { pathToFileURL } from 'node:url';
import { ErrorCode } from '../../../../shared/native-protocol';
import type { FilterInfoResponse, GenericAck, SearchResponse } from '../../../../shared/native-context';
import { SEARCH_DEFAULT_RESULTS } from '../../../../shared/limits';
import type { ContextJob, ContextResult } from '../../../core/context/context-jobs';
import {
  ContextFolderError,
  outermostFolders,
  resolveContextFolder,
  type ContextFolder,
} from '../../../core/context/context-folders';
import {
  activeFileInfo,
  codebaseAnswer,
  folderContentAnswer,
  folderNamer,
  openFiles,
  workspaceTrust,
} from '../context-answers';
import { defineCommand, RequestError, type CommandContext } from './command';
import { inContextShare, inPool } from './context-share';

export const folderContent = defineCommand('get_folder_content', (payload, context) => {
  const folders = [...context.services.port.workspaceFolders];
  const target = folderOrRefuse(payload.folderPath, folders);
  inWorker(context, { kind: 'folder-texts', target, folders }, (texts) =>
    context.respond(folderContentAnswer(target, texts, folders)),
  );
});

export const entireCodebase = defineCommand('get_entire_codebase', (payload, context) => {
  const folders = [...context.services.port.workspaceFolders];
  const target = folderOrRefuse(payload.workspaceFolderUri, folders);
  inWorker(context, { kind: 'folder-texts', target, folders }, (texts) =>
    context.respond(codebaseAnswer(target, texts)),
  );
});

export const activeFile = defineCommand('get_active_file_info', (_payload, { services, respond }) =>
  respond(activeFileInfo(services.port)),
);

export const openFilesCommand = defineCommand('get_open_files', (_payload, { services, respond }) =>
  respond(openFiles(services.port)),
);

export const searchWorkspace = defineCommand('search_workspace', (payload, context) => {
  const folders = [...context.services.port.workspaceFolders];
  const targets: ContextFolder[] =
    payload.workspaceFolderUri == null
      ? outermostFolders(folders).map((root) => ({ root, folder: root }))
      : [folderOrRefuse(payload.workspaceFolderUri, folders)];
  const query = {
    query: payload.query,
    isRegex: payload.isRegex ?? false,
    caseSensitive: payload.caseSensitive ?? true,
    maxResults: payload.maxResults ?? SEARCH_DEFAULT_RESULTS,
  };
  inWorker(context, { kind: 'search', targets, folders, query }, (outcome) =>
    context.respond(searchAnswer(payload.query, outcome, folders)),
  );
});

function searchAnswer(
  query: string,
  { matches, ...rest }: ContextResult<'search'>,
  folders: readonly string[],
): SearchResponse {
  const folderOf = folderNamer(folders);
  return {
    query,
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
}

export const workspaceTrustCommand = defineCommand(
  'check_workspace_trust',
  (payload, { services, respond }) => respond(workspaceTrust(services.port, payload.path)),
);

export const filterInfoCommand = defineCommand('get_filter_info', (payload, context) => {
  const folders = [...context.services.port.workspaceFolders];
  const target = folderOrRefuse(payload.workspaceFolderUri, folders);
  inWorker(context, { kind: 'filter-info', target, folders }, (info) => {
    const response: FilterInfoResponse = { workspaceFolderUri: pathToFileURL(target.folder).href, ...info };
    context.respond(response);
  });
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

/** Runs `job` in the pool, in the connection's share, and answers with `answer` when it is done. */
function inWorker<K extends ContextJob['kind']>(
  context: CommandContext,
  job: Extract<ContextJob, { kind: K }>,
  answer: (result: ContextResult<K>) => void,
): void {
  inContextShare(context, async () => answer(await inPool<K>(context, job)));
}
