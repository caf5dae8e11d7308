/**
 * Issue 23 item 7: what DiffTray keeps after reviews end is bounded by History's byte budget
 * (HISTORY_MAX_TEXT_BYTES), whatever else held the texts. Through the real runtime and a native client:
 * change sets auto-applied as they arrive, with the client writing (each result carries `final_text`),
 * then the heap after forced full GCs. Before the fix, each ended review's resolver kept its outcome (the
 * final texts) and each session its results with `final_text`: every text ever accepted stayed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { HISTORY_MAX_TEXT_BYTES } from '../../shared/limits';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const MB = 1024 * 1024;
/** Twice History's budget of texts, each one accepted and handed to the client. */
const CHANGE_SETS = 128;
const TEXT_BYTES = MB;
/** What else the heap may grow by: code compiled, sockets, the summaries History keeps. */
const SLACK = 24 * MB;

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap and buffers in use after full collections: what is kept, not garbage not yet collected. */
function keptBytes(): number {
  for (let i = 0; i < 3; i++) gc();
  return v8.getHeapStatistics().used_heap_size + process.memoryUsage().external;
}

/** A text of its own (never shared with another), `bytes` long. */
function textOf(tag: string, bytes: number): string {
  const line = `${tag} ${'x'.repeat(99 - tag.length - 2)}\n`;
  return `${tag}\n${line.repeat(Math.floor((bytes - tag.length - 1) / line.length))}`;
}

let t: TestRuntime;
let client: RawNative | undefined;

beforeEach(async () => {
  t = await startTestRuntime({
    beforeStart: (home) => {
      mkdirSync(path.join(home, '.difftray'), { recursive: true });
      writeFileSync(path.join(home, '.difftray', 'settings.json'), JSON.stringify({ autoApply: ['agent'] }));
    },
  });
});

afterEach(async () => {
  client?.close();
  await t.close();
});

it('after twice History’s budget of accepted texts, the heap keeps no more than the budget', async () => {
  const { native } = t.runtime;
  client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
  await client.request('hello', { client_name: 'agent' });
  const propose = async (i: number) => {
    const file = path.join(t.workspace, `f${i}.txt`);
    const after = textOf(`set ${i}`, TEXT_BYTES);
    const answer = await client!.request(
      'propose_change_set',
      { title: `set ${i}`, writer: 'client', files: [{ path: file, before: null, after }] },
      60_000,
    );
    expect(answer.type, JSON.stringify(answer.payload).slice(0, 300)).toBe('response');
    const push = await client!.nextPush(60_000);
    expect(push.payload).toMatchObject({ status: 'accepted', files: [{ status: 'accepted' }] });
    expect((push.payload.files as Array<{ final_text: string }>)[0]!.final_text).toHaveLength(after.length);
  };
  // Warmed up: what the first ones compile and allocate once is not counted.
  for (let i = 0; i < 4; i++) await propose(-1 - i);
  const start = keptBytes();
  for (let i = 0; i < CHANGE_SETS; i++) await propose(i);
  const grown = keptBytes() - start;

  expect(t.runtime.core.queue.retainedTextBytes()).toBeLessThanOrEqual(HISTORY_MAX_TEXT_BYTES);
  // The results stay listed for the client, without the texts it was handed.
  const listed = await client.request('list_reviews', {}, 60_000);
  const reviews = listed.payload.reviews as Array<{ result?: { files: Array<Record<string, unknown>> } }>;
  expect(reviews.length).toBeGreaterThanOrEqual(CHANGE_SETS);
  expect(reviews.at(-1)!.result!.files[0]).toMatchObject({ status: 'accepted' });
  expect(reviews.at(-1)!.result!.files[0]!.final_text).toBeUndefined();
  expect(Math.round(grown / MB)).toBeLessThanOrEqual((HISTORY_MAX_TEXT_BYTES + SLACK) / MB);
}, 300_000);
