/**
 * What the main thread asks a context worker (context-worker.ts) to do, and what comes back: plain data
 * that crosses threads by structured clone. One job is one walk: a folder's texts, a search, the
 * ignore rules in force, or get_file_tree's list of names outside git.
 */
import type { ContextFolder } from './context-folders';
import type { FileTreeWalk } from './file-tree-walk';
import type { FilterInfo } from './filter-info';
import type { FolderTexts } from './folder-texts';
import type { SearchOutcome, SearchQuery } from './text-search';

export type ContextJob =
  | { kind: 'folder-texts'; target: ContextFolder; folders: readonly string[] }
  | { kind: 'search'; targets: readonly ContextFolder[]; folders: readonly string[]; query: SearchQuery }
  | { kind: 'filter-info'; target: ContextFolder; folders: readonly string[] }
  | { kind: 'file-tree'; folder: string; folders: readonly string[]; limit: number };

export interface ContextResults {
  'folder-texts': FolderTexts;
  search: SearchOutcome;
  'filter-info': FilterInfo;
  'file-tree': FileTreeWalk;
}

export type ContextResult<K extends ContextJob['kind']> = ContextResults[K];

/** main → worker: a job, and whether a read observer is set in the main thread (tests). */
export interface JobMessage {
  job: ContextJob;
  observeReads: boolean;
}

/** worker → main: a file about to be read (only when observeReads), or the job's end. */
export type WorkerMessage =
  { read: string } | { result: unknown } | { error: { name: 'SearchQueryError' | 'Error'; message: string } };

/** What the worker gets at start: a word it waits on while the main thread sees a read (observeReads). */
export interface ContextWorkerData {
  readGate: SharedArrayBuffer;
}
