/**
 * The context worker's entry point: runs one job at a time (context-jobs.ts) off the main thread, so a
 * walk of a 100,000-file folder or thirty regular expression searches never hold the event loop that
 * answers the window and the agents. The code is the same as on the main thread; only where it runs
 * differs. Bundled to one string (scripts/context-worker-source.mjs) that context-pool.ts evaluates.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { fileReadObserver, observeFileReads } from '../disk/disk-snapshot';
import type { ContextJob, ContextWorkerData, JobMessage, WorkerMessage } from './context-jobs';
import { walkFileTree } from './file-tree-walk';
import { filterInfo } from './filter-info';
import { readFolderTexts } from './folder-texts';
import { SearchQueryError, searchTexts } from './text-search';

const port = parentPort;
if (!port) throw new Error('context-worker.ts runs in a worker thread only');
const gate = new Int32Array((workerData as ContextWorkerData).readGate);

function post(message: WorkerMessage): void {
  port!.postMessage(message);
}

/**
 * A test's read observer lives in the main thread: each read waits here until the main thread has told
 * it (it may swap files in at that moment, as it would on the main thread).
 */
function forwardRead(path: string): void {
  Atomics.store(gate, 0, 0);
  post({ read: path });
  Atomics.wait(gate, 0, 0);
}

function run(job: ContextJob): Promise<unknown> {
  switch (job.kind) {
    case 'folder-texts':
      return readFolderTexts(job.target, job.folders);
    case 'search':
      return searchTexts(job.targets, job.folders, job.query);
    case 'filter-info':
      return filterInfo(job.target, job.folders);
    case 'file-tree':
      return walkFileTree(job.folder, job.folders, job.limit);
  }
}

port.on('message', ({ job, observeReads }: JobMessage) => {
  if (observeReads !== (fileReadObserver() !== undefined)) {
    observeFileReads(observeReads ? forwardRead : undefined);
  }
  run(job).then(
    (result) => post({ result }),
    (error: unknown) =>
      post({
        error: {
          name: error instanceof SearchQueryError ? 'SearchQueryError' : 'Error',
          message: error instanceof Error ? error.message : String(error),
        },
      }),
  );
});
