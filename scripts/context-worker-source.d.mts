/** The context worker bundled to one string, as a `define` entry (context-worker-source.mjs). */
export function contextWorkerDefine(): Promise<{ __CONTEXT_WORKER_SOURCE__: string }>;
