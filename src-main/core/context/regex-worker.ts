/**
 * Regular expression matching bounded in time. JavaScript's regular expressions backtrack: a pattern
 * like `(a+)+$` against a line of 30 a's and a b takes exponential time, and a running exec() cannot be
 * interrupted. So matching runs in a worker thread, and the worker is terminated once the search's
 * budget (SEARCH_REGEX_MAX_MS) is spent: the search then says the pattern took too long.
 *
 * The worker's code is a string (eval), so the bundles need no extra entry point. It gets batches of
 * texts and answers, per matching line, [text index, 1-based line, line start, line end, match index].
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ source, flags, texts, maxMatches }) => {
  const re = new RegExp(source, flags);
  const out = [];
  outer: for (let t = 0; t < texts.length; t++) {
    const text = texts[t];
    let line = 1;
    let start = 0;
    for (;;) {
      let end = text.indexOf('\\n', start);
      if (end === -1) end = text.length;
      const lineEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      re.lastIndex = 0;
      const match = re.exec(text.slice(start, lineEnd));
      if (match) {
        // The line's end before its \\n: the answer drops one \\r itself, as for a literal search.
        out.push([t, line, start, end, start + match.index]);
        if (out.length >= maxMatches) break outer;
      }
      if (end >= text.length) break;
      line++;
      start = end + 1;
    }
  }
  parentPort.postMessage(out);
});
`;

/** [text index, 1-based line, line start, line end (before the \n, a \r kept), match index]. */
export type RegexMatch = [number, number, number, number, number];

export class RegexTimeoutError extends Error {}

export class RegexMatcher {
  private readonly worker = new Worker(WORKER_SOURCE, { eval: true });
  private spentMs = 0;
  private failed: Error | undefined;

  /** `source` and `flags` must compile (checked by the caller with `new RegExp`). */
  constructor(
    private readonly source: string,
    private readonly flags: string,
    private readonly budgetMs: number,
  ) {
    this.worker.on('error', (error) => (this.failed = error));
    this.worker.unref();
  }

  /** The matching lines of `texts`, at most `maxMatches`; RegexTimeoutError once the budget is spent. */
  match(texts: string[], maxMatches: number): Promise<RegexMatch[]> {
    if (this.failed) return Promise.reject(this.failed);
    const started = performance.now();
    return new Promise<RegexMatch[]>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          cleanup();
          void this.worker.terminate();
          reject(new RegexTimeoutError(`The regular expression took longer than ${this.budgetMs} ms`));
        },
        Math.max(0, this.budgetMs - this.spentMs),
      );
      const onMessage = (matches: RegexMatch[]) => {
        cleanup();
        this.spentMs += performance.now() - started;
        resolve(matches);
      };
      const onError = (error: Error) => {
        cleanup();
        reject(error);
      };
      const cleanup = () => {
        clearTimeout(timer);
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.postMessage({ source: this.source, flags: this.flags, texts, maxMatches });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
