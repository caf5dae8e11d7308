/**
 * The context services' walks and searches, off the main thread: a few worker threads (context-worker.ts)
 * fed from one queue. The main thread only hands a job over and gets its answer back, so the window's
 * and the agents' requests are answered while a 100,000-file folder is walked or thirty regular
 * expressions run.
 *
 * Bounds: WORKERS threads (at most two, and one core left to the main thread); each runs one job at a
 * time, its heap capped (CONTEXT_WORKER_HEAP_MB: a job past it ends that worker, and its request gets an
 * error); the queue holds CONTEXT_MAX_QUEUED_JOBS jobs and CONTEXT_MAX_QUEUED_BYTES of what they carry,
 * past which a job is refused at once (ContextBusyError). What a job answers is bounded by the answer
 * limits it applies itself (CONTEXT_MAX_TOTAL_BYTES, SEARCH_MAX_RESPONSE_BYTES). A job whose client has
 * gone by the time a worker is free is dropped unrun.
 *
 * The worker's code is one string, bundled by scripts/context-worker-source.mjs and set at build time
 * (as __CONTEXT_WORKER_SOURCE__, by the main bundles, the benches and the test configurations): like
 * regex-worker.ts, no file beside the bundle to find or to trust.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  CONTEXT_MAX_QUEUED_BYTES,
  CONTEXT_MAX_QUEUED_JOBS,
  CONTEXT_WORKER_HEAP_MB,
} from '../../../shared/limits';
import { fileReadObserver } from '../disk/disk-snapshot';
import type { ContextJob, ContextResult, ContextWorkerData, WorkerMessage } from './context-jobs';
import { SearchQueryError } from './text-search';

declare const __CONTEXT_WORKER_SOURCE__: string | undefined;

/** Refused at once: the queue is full. */
export class ContextBusyError extends Error {}

/** The worker running the job stopped (its heap cap reached, or DiffTray closing). */
export class ContextWorkerError extends Error {}

/** Two workers at most (each holds up to an answer's texts), and one core left to the main thread. */
export const CONTEXT_WORKERS = Math.max(1, Math.min(2, availableParallelism() - 1));

export interface PoolOptions {
  workers?: number;
  maxQueued?: number;
  maxQueuedBytes?: number;
}

interface Queued {
  job: ContextJob;
  bytes: number;
  /** False once the client is gone: the job is dropped unrun. */
  wanted: () => boolean;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

export class ContextPool {
  private readonly queue: Queued[] = [];
  private queuedBytes = 0;
  private readonly idle: PoolWorker[] = [];
  private readonly busy = new Set<PoolWorker>();
  private started = 0;
  private closed = false;
  private readonly workers: number;
  private readonly maxQueued: number;
  private readonly maxQueuedBytes: number;

  constructor(options: PoolOptions = {}) {
    this.workers = options.workers ?? CONTEXT_WORKERS;
    this.maxQueued = options.maxQueued ?? CONTEXT_MAX_QUEUED_JOBS;
    this.maxQueuedBytes = options.maxQueuedBytes ?? CONTEXT_MAX_QUEUED_BYTES;
  }

  /** Runs `job` in a worker; ContextBusyError at once when the queue is full. */
  run<K extends ContextJob['kind']>(
    job: Extract<ContextJob, { kind: K }>,
    wanted: () => boolean = () => true,
  ): Promise<ContextResult<K>> {
    if (this.closed) return Promise.reject(new ContextWorkerError('DiffTray is closing'));
    const bytes = Buffer.byteLength(JSON.stringify(job));
    if (this.queue.length >= this.maxQueued || this.queuedBytes + bytes > this.maxQueuedBytes) {
      return Promise.reject(
        new ContextBusyError(
          `DiffTray's context queue is full (${this.queue.length} requests waiting): ask again once an answer came back`,
        ),
      );
    }
    return new Promise<ContextResult<K>>((resolve, reject) => {
      this.queue.push({ job, bytes, wanted, resolve: resolve as (result: unknown) => void, reject });
      this.queuedBytes += bytes;
      this.dispatch();
    });
  }

  /** Jobs waiting for a worker. */
  get waiting(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queued of this.queue.splice(0)) queued.reject(new ContextWorkerError('DiffTray is closing'));
    this.queuedBytes = 0;
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
    await Promise.all([...this.busy].map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      const worker = this.idle.pop() ?? (this.started < this.workers ? this.spawn() : undefined);
      if (!worker) return;
      const queued = this.take();
      if (!queued) {
        this.idle.push(worker);
        return;
      }
      this.busy.add(worker);
      worker.run(queued.job).then(
        (result) => {
          this.release(worker);
          queued.resolve(result);
        },
        (error: Error) => {
          this.release(worker);
          queued.reject(error);
        },
      );
    }
  }

  /** The next job whose client still waits for it. */
  private take(): Queued | undefined {
    for (let queued = this.queue.shift(); queued; queued = this.queue.shift()) {
      this.queuedBytes -= queued.bytes;
      if (queued.wanted()) return queued;
      queued.reject(new ContextWorkerError('The client is gone'));
    }
    return undefined;
  }

  private spawn(): PoolWorker {
    this.started++;
    return new PoolWorker(() => {
      // Stopped (its heap cap, or a crash): the next job gets a new one.
      this.started--;
      this.dispatch();
    });
  }

  private release(worker: PoolWorker): void {
    this.busy.delete(worker);
    if (worker.alive && !this.closed) this.idle.push(worker);
    this.dispatch();
  }
}

function workerSource(): string {
  if (typeof __CONTEXT_WORKER_SOURCE__ !== 'string') {
    throw new ContextWorkerError(
      'The context worker is not built in: bundle with scripts/context-worker-source.mjs',
    );
  }
  return __CONTEXT_WORKER_SOURCE__;
}

/** One worker thread and the job it runs. */
class PoolWorker {
  alive = true;
  private readonly worker: Worker;
  private readonly gate = new Int32Array(new SharedArrayBuffer(4));
  private current: { resolve: (result: unknown) => void; reject: (error: Error) => void } | undefined;

  constructor(onStopped: () => void) {
    const workerData: ContextWorkerData = { readGate: this.gate.buffer as SharedArrayBuffer };
    this.worker = new Worker(workerSource(), {
      eval: true,
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: CONTEXT_WORKER_HEAP_MB },
    });
    // Nothing a worker does keeps DiffTray running: the endpoint that waits for it does.
    this.worker.unref();
    this.worker.on('message', (message: WorkerMessage) => this.receive(message));
    this.worker.on('error', (error) => this.stop(error));
    this.worker.on('exit', (code) => {
      this.stop(new ContextWorkerError(`The context worker stopped (exit code ${code})`));
      onStopped();
    });
  }

  run(job: ContextJob): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.current = { resolve, reject };
      this.worker.postMessage({ job, observeReads: fileReadObserver() !== undefined });
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }

  private receive(message: WorkerMessage): void {
    if ('read' in message) {
      try {
        fileReadObserver()?.(message.read);
      } finally {
        Atomics.store(this.gate, 0, 1);
        Atomics.notify(this.gate, 0);
      }
      return;
    }
    const current = this.current;
    this.current = undefined;
    if ('result' in message) current?.resolve(message.result);
    else {
      const { name, message: text } = message.error;
      current?.reject(name === 'SearchQueryError' ? new SearchQueryError(text) : new Error(text));
    }
  }

  private stop(error: Error): void {
    this.alive = false;
    const current = this.current;
    this.current = undefined;
    const why = /heap|memory/i.test(error.message)
      ? `The context worker ran out of its ${CONTEXT_WORKER_HEAP_MB} MB of memory: ${error.message}`
      : error.message;
    current?.reject(new ContextWorkerError(why));
  }
}
