/**
 * The context services' answers in seed 003's shapes (shared/native-context.ts), built from what core
 * reads: file URLs, workspace folder names, ContextBlockMetadata, the concatenated texts.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  ActiveFileInfo,
  ContextBlockMetadata,
  EntireCodebaseResponse,
  FolderContentResponse,
  OpenFilesResponse,
  WorkspaceTrustResponse,
} from '../../../shared/native-context';
import { CONTEXT_MAX_OPEN_FILES } from '../../../shared/limits';
import type { ClientPort } from '../../core/clients/agent-session';
import type { ContextFolder } from '../../core/context/context-folders';
import { pathOfUri } from '../../core/context/context-folders';
import type { FolderTexts } from '../../core/context/folder-texts';
import {
  isInside,
  isInsideWorkspace,
  PathOutsideWorkspaceError,
  resolveInsideWorkspace,
  resolveRealPath,
} from '../../core/workspace/workspace-paths';
import { messageOf } from '../../../shared/error-message';

export interface FolderOf {
  workspaceFolderUri: string | null;
  workspaceFolderName: string | null;
}

/** The innermost workspace folder `file` is in, as seed 003 names it. */
export function folderOf(file: string, workspaceFolders: readonly string[]): FolderOf {
  return folderNamer(workspaceFolders)(file);
}

/**
 * `folderOf` for the many files of one answer: the workspace folders' real paths are resolved once,
 * not once per file.
 */
export function folderNamer(workspaceFolders: readonly string[]): (file: string) => FolderOf {
  const roots = workspaceFolders.map((root) => ({ root, real: resolveRealPath(root) }));
  return (file) => {
    const folder = roots
      .filter(({ root, real }) => isInside(root, file) || isInside(real, file))
      .map(({ root }) => root)
      .sort((a, b) => b.length - a.length)[0];
    return folder === undefined
      ? { workspaceFolderUri: null, workspaceFolderName: null }
      : { workspaceFolderUri: pathToFileURL(folder).href, workspaceFolderName: path.basename(folder) };
  };
}

/** Each file as `File: <relative path>`, its text fenced, a blank line. */
function concatenate(texts: FolderTexts): string {
  return texts.files.map((file) => `File: ${file.relative}\n\`\`\`\n${file.text}\n\`\`\`\n`).join('\n');
}

function metadata(
  type: ContextBlockMetadata['type'],
  sourceId: string,
  label: string,
  folder: FolderOf,
): ContextBlockMetadata {
  return { unique_block_id: randomUUID(), content_source_id: sourceId, type, label, ...folder };
}

function leftOutOf(texts: FolderTexts) {
  const { skipped, skippedCounts, truncated } = texts;
  return { skipped, skippedCounts, truncated };
}

export function folderContentAnswer(
  target: ContextFolder,
  texts: FolderTexts,
  workspaceFolders: readonly string[],
): FolderContentResponse {
  const url = pathToFileURL(target.folder).href;
  return {
    folderPath: target.folder,
    filterType: texts.filterType,
    content: concatenate(texts),
    files: texts.files.map((file) => ({ path: file.path, bytes: file.bytes })),
    totalBytes: texts.totalBytes,
    metadata: metadata(
      'folder_content',
      url.endsWith('/') ? url : `${url}/`,
      `${path.basename(target.folder)}/`,
      folderOf(target.folder, workspaceFolders),
    ),
    ...leftOutOf(texts),
  };
}

export function codebaseAnswer(target: ContextFolder, texts: FolderTexts): EntireCodebaseResponse {
  const uri = pathToFileURL(target.folder).href;
  const name = path.basename(target.folder);
  return {
    workspaceFolderUri: uri,
    workspaceFolderName: name,
    filterType: texts.filterType,
    fileTree: texts.files.map((file) => file.relative).join('\n'),
    concatenatedContent: concatenate(texts),
    files: texts.files.map((file) => ({ path: file.path, bytes: file.bytes })),
    totalBytes: texts.totalBytes,
    metadata: metadata('codebase_content', `${uri}::codebase`, `Entire Codebase - ${name}`, {
      workspaceFolderUri: uri,
      workspaceFolderName: name,
    }),
    ...leftOutOf(texts),
  };
}

/**
 * The file of the review on screen: the file the window named, else the review's first. Null when no
 * review is on screen, it has no files (an approval card), its file is outside the workspace, or it is a
 * paired host's review: its paths are that host's, never a file here (nor looked up on this disk).
 */
export function activeFileInfo(port: ClientPort): ActiveFileInfo | null {
  const shown = port.reviewShown();
  if (!shown || shown.review.remote) return null;
  const { review, fileIndex } = shown;
  const index = fileIndex !== undefined && fileIndex < review.files.length ? fileIndex : 0;
  const file = review.files[index];
  if (!file || !isInsideWorkspace(resolveRealPath(file.path), port.workspaceFolders)) return null;
  return {
    activeFilePath: file.path,
    activeFileLabel: path.basename(file.path),
    ...folderOf(file.path, port.workspaceFolders),
    review_id: review.id,
    file_index: index,
  };
}

/** The files of the pending reviews, each once, with the reviews that hold it; a paired host's are not here. */
export function openFiles(port: ClientPort): OpenFilesResponse {
  const byPath = new Map<string, string[]>();
  let truncated = false;
  for (const review of port.pendingReviews()) {
    if (review.remote) continue;
    for (const file of review.files) {
      const ids = byPath.get(file.path);
      if (ids) ids.push(review.id);
      else if (byPath.size < CONTEXT_MAX_OPEN_FILES) byPath.set(file.path, [review.id]);
      else truncated = true;
    }
  }
  const folderOfFile = folderNamer(port.workspaceFolders);
  const openFiles = [...byPath].map(([file, ids]) => ({
    path: file,
    name: path.basename(file),
    ...folderOfFile(file),
    review_ids: ids,
  }));
  return { openFiles, truncated };
}

/** The workspace folders are trusted; a path is when it is inside them, links resolved now. */
export function workspaceTrust(port: ClientPort, asked: string | undefined): WorkspaceTrustResponse {
  const workspaceFolders = port.workspaceFolders.map((folder) => ({
    uri: pathToFileURL(folder).href,
    name: path.basename(folder),
    isTrusted: true as const,
  }));
  if (asked === undefined) return { isTrusted: workspaceFolders.length > 0, workspaceFolders };
  let answer: NonNullable<WorkspaceTrustResponse['path']>;
  try {
    const realPath = resolveInsideWorkspace(pathOfUri(asked), port.workspaceFolders);
    answer = { path: asked, isTrusted: true, realPath };
  } catch (error) {
    const outside = error instanceof PathOutsideWorkspaceError;
    const reason = outside ? "outside DiffTray's workspace folders" : messageOf(error);
    answer = { path: asked, isTrusted: false, reason };
  }
  return { isTrusted: answer.isTrusted, workspaceFolders, path: answer };
}
