/**
 * The context services of the native protocol (seed 003 §3.1), as DiffTray speaks them: requests in the
 * native envelope, with seed 003's field names. Where the seed answers `{success, data, error}`, DiffTray
 * answers a `response` whose payload is the seed's `data` (plus what was left out and why), and a
 * refusal is an `error_response` with a numbered code, as every other native command.
 *
 * Every read is confined to DiffTray's workspace folders with the same rules as every other read (the
 * seed relies on VS Code's workspace trust; DiffTray trusts its workspace folders and nothing else).
 */
import { z } from 'zod';
import { labelField, pathField } from './field-limits';
import { SEARCH_MAX_QUERY_CHARS, SEARCH_MAX_RESULTS } from './limits';

/** A workspace folder as a `file://` URL (the seed's URIs) or an absolute path; null: the first one. */
const workspaceFolderUri = pathField().min(1).nullable().optional();

export const contextRequestSchemas = {
  /** The text files of one folder inside the workspace, recursively, bounded (CONTEXT_MAX_*). */
  get_folder_content: z.object({ folderPath: pathField().min(1) }),
  /** Every text file of one workspace folder, bounded (the seed requires the folder; null: the first). */
  get_entire_codebase: z.object({ workspaceFolderUri }),
  /** The file of the review on screen in DiffTray; null when none is. */
  get_active_file_info: z.object({}),
  /** The files of the pending reviews (DiffTray's "open" files). */
  get_open_files: z.object({}),
  /**
   * Text search (the seed searches file names; issue 12 asks for text with line numbers). Honours
   * .gitignore; `isRegex`: a JavaScript regular expression, bounded in time (SEARCH_REGEX_MAX_MS).
   */
  search_workspace: z.object({
    query: z.string().min(1).max(SEARCH_MAX_QUERY_CHARS),
    workspaceFolderUri,
    isRegex: z.boolean().optional(),
    /** Default true, as grep. */
    caseSensitive: z.boolean().optional(),
    maxResults: z.number().int().positive().max(SEARCH_MAX_RESULTS).optional(),
  }),
  /** The workspace folders are trusted; with `path`, whether that path is (inside them, links resolved). */
  check_workspace_trust: z.object({ path: pathField().min(1).optional() }),
  /** The ignore rules in force for a workspace folder. */
  get_filter_info: z.object({ workspaceFolderUri }),
  /**
   * This connection receives the session's pushes (`push_snippet`, `status_update`). `session_id`: the
   * session of another connection (a browser extension beside an agent CLI); without it, this
   * connection's own (after hello). `tabId` comes back as `targetTabId` in each push_snippet.
   */
  register_active_target: z.object({
    tabId: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
    llmHost: labelField().optional(),
    session_id: z.string().min(1).max(200).optional(),
  }),
} as const;

export type FilterType = 'gitignore' | 'default';

/** seed 003 §4 ContextBlockMetadata. */
export interface ContextBlockMetadata {
  unique_block_id: string;
  content_source_id: string;
  type: 'folder_content' | 'codebase_content';
  label: string;
  workspaceFolderUri: string | null;
  workspaceFolderName: string | null;
}

/** Why a file was left out of an answer. */
export type SkipReason =
  | 'binary'
  | 'not_utf8'
  | 'too_large'
  | 'symlink'
  | 'special_file'
  | 'unreadable'
  | 'outside_workspace'
  | 'total_bytes'
  | 'file_count'
  | 'walk_limit';

export interface SkippedFile {
  /** Absolute path. */
  path: string;
  reason: SkipReason;
  /** What a person reads: "binary", "1.5 MB, over the 1 MB limit", "symbolic link (not followed)". */
  note: string;
}

/** What an answer left out: the first CONTEXT_MAX_LISTED_SKIPS one by one, all of them counted by reason. */
export interface LeftOut {
  skipped: SkippedFile[];
  skippedCounts: Partial<Record<SkipReason, number>>;
  /** True when the walk stopped early (entries, time, total bytes or file count). */
  truncated: boolean;
}

export interface IncludedFile {
  /** Absolute path. */
  path: string;
  bytes: number;
}

/**
 * get_folder_content. `content` concatenates each file as `File: <path relative to folderPath>`, a
 * fenced block of its text, and a blank line.
 */
export interface FolderContentResponse extends LeftOut {
  folderPath: string;
  filterType: FilterType;
  content: string;
  files: IncludedFile[];
  totalBytes: number;
  metadata: ContextBlockMetadata;
}

/** get_entire_codebase: `fileTree` lists the included files' relative paths, one per line. */
export interface EntireCodebaseResponse extends LeftOut {
  workspaceFolderUri: string;
  workspaceFolderName: string;
  filterType: FilterType;
  fileTree: string;
  concatenatedContent: string;
  files: IncludedFile[];
  totalBytes: number;
  metadata: ContextBlockMetadata;
}

/** get_active_file_info's payload, or null when no review with a file is on screen. */
export interface ActiveFileInfo {
  activeFilePath: string;
  activeFileLabel: string;
  workspaceFolderUri: string | null;
  workspaceFolderName: string | null;
  review_id: string;
  /** Index of the file in the review; the first when DiffTray was not told which one is shown. */
  file_index: number;
}

export interface OpenFilesResponse {
  openFiles: Array<{
    path: string;
    name: string;
    workspaceFolderUri: string | null;
    workspaceFolderName: string | null;
    /** The pending reviews that hold this file. */
    review_ids: string[];
  }>;
  truncated: boolean;
}

export interface SearchResult {
  path: string;
  name: string;
  type: 'file';
  content_source_id: string;
  workspaceFolderUri: string | null;
  workspaceFolderName: string | null;
  /** 1-based, as editors and grep number lines. */
  line: number;
  /** The matching line, without its line break, cut to SEARCH_MAX_LINE_CHARS around the match. */
  lineText: string;
  lineTruncated?: true;
}

export interface SearchResponse extends LeftOut {
  query: string;
  results: SearchResult[];
  /**
   * Why results stopped early, when they did: `maxResults` reached, SEARCH_MAX_RESPONSE_BYTES reached,
   * or the regular expression's time (SEARCH_REGEX_MAX_MS) spent (a pattern that backtracks badly).
   */
  stoppedBy?: 'max_results' | 'response_bytes' | 'regex_time';
  filesSearched: number;
}

export interface WorkspaceTrustResponse {
  isTrusted: boolean;
  workspaceFolders: Array<{ uri: string; name: string; isTrusted: true }>;
  /** When a path was asked about. */
  path?: { path: string; isTrusted: boolean; realPath?: string; reason?: string };
}

export interface FilterInfoResponse {
  filterType: FilterType;
  workspaceFolderUri: string;
  /** .gitignore files found in the folder (absolute), at most CONTEXT_MAX_LISTED_RULE_FILES. */
  gitignoreFiles: string[];
  gitignoreFilesTruncated: boolean;
  /** The git work tree's top, when the folder is in one. */
  gitTopLevel: string | null;
  /** `.git/info/exclude` of that work tree, when it has rules. */
  infoExclude: string | null;
  /** git's global excludes file (core.excludesFile or its default), when it has rules. */
  globalExcludes: string | null;
  /** Names skipped wherever they are. */
  alwaysSkipped: string[];
}

/** seed 003 §3.2.1, the answer to register_active_target. */
export interface GenericAck {
  success: true;
  message: string;
}

/**
 * seed 003 §3.3.2, pushed to registered targets: 'workspace_status' when the watched folders change,
 * 'info' when the file on screen changes (details.activeFilePath, null for none), 'connection_status'
 * when DiffTray closes.
 */
export interface StatusUpdate {
  message: string;
  statusType: 'info' | 'warning' | 'error' | 'connection_status' | 'workspace_status';
  details?: Record<string, unknown>;
}
