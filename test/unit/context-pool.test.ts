/**
 * The context pool's bounds (context-pool.ts), with real worker threads searching real files: the queue
 * is capped by count and by bytes (one more job is refused at once, clearly), and a job whose client
 * left while it waited is dropped unrun.
 */
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContextBusyError, ContextPool, ContextWorkerError } from '../../src-main/core/context/context-pool';
import type { SearchQuery } from '../../src-main/core/context/text-search';
import { makeTempDir } from '../support/temp';

let temp: { dir: string; cleanup: () => void };
let root: string;
let pool: ContextPool | undefined;

beforeEach(() => {
  temp = makeTempDir('context-pool');
  root = realpathSync(temp.dir);
  for (let i = 0; i < 20; i++) writeFileSync(path.join(root, `f${i}.txt`), `one\nneedle <${i}>\n`);
});

afterEach(async () => {
  await pool?.close();
  temp.cleanup();
});

const query = (text: string): SearchQuery => ({
  query: text,
  isRegex: false,
  caseSensitive: true,
  maxResults: 100,
});

const search = (text: string) =>
  ({ kind: 'search', targets: [{ root, folder: root }], folders: [root], query: query(text) }) as const;

describe('context pool', () => {
  it('runs one job per worker, queues the next ones, and refuses one past the queue at once', async () => {
    pool = new ContextPool({ workers: 1, maxQueued: 2 });
    // The first goes to the worker; two wait; the fourth finds the queue full.
    const jobs = [0, 1, 2, 3].map((i) => pool!.run(search(`needle <${i}>`)));
    await expect(jobs[3]).rejects.toThrow(ContextBusyError);
    await expect(jobs[3]).rejects.toThrow("DiffTray's context queue is full (2 requests waiting)");
    const answers = await Promise.all(jobs.slice(0, 3));
    answers.forEach((answer, i) =>
      expect(answer.matches).toEqual([
        { path: path.join(root, `f${i}.txt`), line: 2, lineText: `needle <${i}>`, lineTruncated: false },
      ]),
    );
    // Drained: there is room again.
    expect((await pool.run(search('needle <19>'))).matches).toHaveLength(1);
  });

  it('caps the queue by the bytes its jobs carry', async () => {
    pool = new ContextPool({ workers: 1, maxQueuedBytes: 4000 });
    const first = pool.run(search('needle <1>'));
    await expect(pool.run(search('x'.repeat(5000)))).rejects.toThrow(ContextBusyError);
    expect((await first).matches).toHaveLength(1);
  });

  it('drops a waiting job whose client left, and runs the rest', async () => {
    pool = new ContextPool({ workers: 1 });
    const running = pool.run(search('needle <1>'));
    let here = true;
    const left = pool.run(search('needle <2>'), () => here);
    const next = pool.run(search('needle <3>'));
    here = false;
    await expect(left).rejects.toThrow(ContextWorkerError);
    expect((await running).matches).toHaveLength(1);
    expect((await next).matches).toHaveLength(1);
  });

  it('a bad regular expression comes back as the same error it is on the main thread', async () => {
    pool = new ContextPool({ workers: 1 });
    const bad = pool.run({ ...search('('), query: { ...query('('), isRegex: true } });
    await expect(bad).rejects.toThrow('Not a regular expression');
  });
});
