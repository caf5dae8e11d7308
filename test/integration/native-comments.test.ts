/**
 * Comments on lines travel in the native protocol's change_set_result (issue 26): a bare WebSocket
 * client against the real runtime's native endpoint, comments put through the app API as the renderer
 * puts them. Each comment names the file as the client named it, its 1-based line, and quotes the line.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

let t: TestRuntime;
let clients: RawNative[];

beforeEach(async () => {
  t = await startTestRuntime();
  clients = [];
});

afterEach(async () => {
  for (const client of clients) client.close();
  await t.close();
});

const api = (method: string, params: Record<string, unknown>) => t.runtime.handler(method, params);

async function hello(): Promise<RawNative> {
  const { native } = t.runtime;
  const client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
  clients.push(client);
  expect((await client.request('hello', { client_name: 'test-agent' })).type).toBe('response');
  return client;
}

const BASE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';
const PROPOSED = 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\n';

/** Proposes a.txt by a path relative to the workspace, as a client may name it. */
async function propose(client: RawNative): Promise<string> {
  writeFileSync(path.join(t.workspace, 'a.txt'), BASE);
  const answer = await client.request('propose_change_set', {
    title: 'two hunks',
    files: [{ path: 'a.txt', after: PROPOSED }],
  });
  expect(answer.type, JSON.stringify(answer.payload)).toBe('response');
  return answer.payload.review_id as string;
}

const comment = (reviewId: string, side: 'base' | 'proposed', line: number, text: string) =>
  api('putComment', { reviewId, fileIndex: 0, side, line, text });

describe('comments in change_set_result', () => {
  it('go with a partial accept, named as the client named the file, 1-based and quoted', async () => {
    const client = await hello();
    const id = await propose(client);
    await comment(id, 'proposed', 7, 'lower case, please');
    await comment(id, 'base', 1, 'this one stays');
    await comment(id, 'proposed', 0, 'gone again');
    await comment(id, 'proposed', 0, '');
    await api('decideHunks', { reviewId: id, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' });
    await api('submit', { reviewId: id, note: 'see comments' });
    const push = await client.nextPush();
    expect(push.command).toBe('change_set_result');
    expect(push.payload).toMatchObject({ status: 'partially_accepted', note: 'see comments' });
    expect(push.payload.comments).toEqual([
      { path: 'a.txt', side: 'base', line: 2, quote: 'two', text: 'this one stays' },
      { path: 'a.txt', side: 'proposed', line: 8, quote: 'EIGHT', text: 'lower case, please' },
    ]);
  });

  it('go with a submit that keeps nothing, and with a reject', async () => {
    const client = await hello();
    const first = await propose(client);
    await comment(first, 'proposed', 0, 'no shouting');
    await api('decideAll', { reviewId: first, decision: 'rejected' });
    await api('submit', { reviewId: first });
    const kept = await client.nextPush();
    expect(kept.payload).toMatchObject({ status: 'rejected', reason: 'every hunk rejected' });
    expect(kept.payload.comments).toEqual([
      { path: 'a.txt', side: 'proposed', line: 1, quote: 'ONE', text: 'no shouting' },
    ]);

    const second = await propose(client);
    await comment(second, 'proposed', 7, 'why?');
    await api('reject', { reviewId: second, reason: 'not now' });
    const rejected = await client.nextPush();
    expect(rejected.payload).toMatchObject({ status: 'rejected', reason: 'not now' });
    expect(rejected.payload.comments).toEqual([
      { path: 'a.txt', side: 'proposed', line: 8, quote: 'EIGHT', text: 'why?' },
    ]);
  });

  it('are left out when there are none', async () => {
    const client = await hello();
    const id = await propose(client);
    await api('submit', { reviewId: id });
    const push = await client.nextPush();
    expect(push.payload.status).toBe('accepted');
    expect(push.payload).not.toHaveProperty('comments');
  });
});
