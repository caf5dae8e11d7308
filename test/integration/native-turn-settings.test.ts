/**
 * The turn review's settings per agent (issue 26), below the UI: `review: 'always'` asks the whole turn
 * against its start even when each edit was decided, and `timeoutMinutes` ends an undecided turn review
 * as if everything were kept. A bare native client speaks for the agent's hooks; the person decides
 * through the app API.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeSetResult } from '../../shared/native-protocol';
import { turnBlock } from '../../shared/hooks/turn-answer';
import type { AgentTurnSettings } from '../../shared/turn-settings';
import { turnKey } from '../../src-main/core/turns/agent-turns';
import type { RawNative } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { ask, openTurnHook } from '../support/turn-hook-client';
import { until } from '../support/wait';

let t: TestRuntime;
let clients: RawNative[] = [];

afterEach(async () => {
  for (const client of clients) client.close();
  clients = [];
  await t.close();
});

const api = (method: string, params: Record<string, unknown>) => t.runtime.handler(method, params);
const ws = (name: string) => path.join(t.workspace, name);

async function start(claude: Partial<AgentTurnSettings>, turnMinuteMs?: number): Promise<RawNative> {
  t = await startTestRuntime(turnMinuteMs === undefined ? {} : { turnMinuteMs });
  await api('updateSettings', { turnReview: { 'claude-code': claude } });
  const client = await openTurnHook(t);
  clients.push(client);
  return client;
}

const BEFORE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';
const WRITTEN = 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\n';

/** The turn settled its review: what the person decided is what they last saw. */
const settled = () =>
  until(
    () => t.runtime.core.turns.find(turnKey('Claude Code', 'session-1'))?.reviewing === false || undefined,
    'the turn review settled',
  );

/** One edit of a.txt, asked before the write (Claude Code's default mode) and accepted whole. */
async function editDecidedOneByOne(client: RawNative): Promise<void> {
  writeFileSync(ws('a.txt'), BEFORE);
  await ask(client, 'turn_begin', { prompt: 'Make the ends loud' });
  expect(await ask(client, 'turn_touch', { paths: [ws('a.txt')], permission_mode: 'default' })).toEqual({
    each_edit: true,
  });
  const proposed = await ask(client, 'propose_change_set', {
    title: 'Edit a.txt',
    files: [{ path: ws('a.txt'), before: BEFORE, after: WRITTEN }],
    writer: 'client',
  });
  await api('submit', { reviewId: proposed.review_id });
  await client.nextPush();
  writeFileSync(ws('a.txt'), WRITTEN); // The agent writes what the person accepted.
}

describe("review: 'always'", () => {
  it('asks the whole turn against its start, even edits decided one by one; once, unless more is written', async () => {
    const client = await start({ review: 'always' });
    await editDecidedOneByOne(client);
    const ended = await ask(client, 'turn_end', {});
    expect(ended).toMatchObject({ files: 1 });
    const review = t.runtime.core.queue.find(ended.review_id as string)!;
    expect(review.files[0]!.hunks).toHaveLength(2);
    expect(review.description).toMatch(/^Everything Claude Code wrote during its turn/);
    await api('submit', { reviewId: ended.review_id });
    await client.nextPush();
    await settled();
    expect(await ask(client, 'turn_end', { stop_hook_active: true })).toEqual({ review_id: null, files: 0 });
    writeFileSync(ws('a.txt'), `${WRITTEN}nine\n`);
    const again = await ask(client, 'turn_end', { stop_hook_active: true });
    expect(again).toMatchObject({ files: 1 });
    // Still against the turn's start; what the person accepted is there to compare with.
    const [content] = t.runtime.core.queue.contents(again.review_id as string);
    expect(content).toMatchObject({
      baseText: BEFORE,
      proposedText: `${WRITTEN}nine\n`,
      otherBaseText: WRITTEN,
    });
    expect(t.runtime.core.queue.find(again.review_id as string)!.files[0]!.otherBase).toBe('yourReview');
  });

  it("'unreviewed' does not ask again what was decided one by one", async () => {
    const client = await start({ review: 'unreviewed' });
    await editDecidedOneByOne(client);
    expect(await ask(client, 'turn_end', {})).toEqual({ review_id: null, files: 0 });
  });

  it('a turn that wrote nothing is not reviewed', async () => {
    const client = await start({ review: 'always', edits: 'turn' });
    writeFileSync(ws('a.txt'), BEFORE);
    await ask(client, 'turn_touch', { paths: [ws('a.txt')], permission_mode: 'default' });
    expect(await ask(client, 'turn_end', {})).toEqual({ review_id: null, files: 0 });
  });
});

describe('changes since your last review', () => {
  it('a file reviewed earlier in the turn can be compared with the turn’s start as well', async () => {
    const client = await start({ edits: 'turn' });
    writeFileSync(ws('a.txt'), BEFORE);
    writeFileSync(ws('b.txt'), 'b\n');
    await ask(client, 'turn_touch', { paths: [ws('a.txt'), ws('b.txt')], permission_mode: 'default' });
    writeFileSync(ws('a.txt'), WRITTEN);
    const first = await ask(client, 'turn_end', {});
    // The first turn review: nothing was reviewed before it, so there is one starting point.
    expect(t.runtime.core.queue.find(first.review_id as string)!.files[0]!.otherBase).toBeUndefined();
    await api('submit', { reviewId: first.review_id });
    await client.nextPush();
    await settled();
    writeFileSync(ws('a.txt'), `${WRITTEN}nine\n`);
    writeFileSync(ws('b.txt'), 'b changed\n');
    const again = await ask(client, 'turn_end', { stop_hook_active: true });
    const review = t.runtime.core.queue.find(again.review_id as string)!;
    expect(review.files.map((file) => [path.basename(file.path), file.otherBase])).toEqual([
      ['a.txt', 'turnStart'],
      ['b.txt', undefined],
    ]);
    const [a, b] = (await api('getReviewContent', { reviewId: again.review_id })) as Array<
      Record<string, unknown>
    >;
    expect(a).toMatchObject({ baseText: WRITTEN, otherBaseText: BEFORE });
    expect(b).not.toHaveProperty('otherBaseText');
  });
});

describe('timeoutMinutes', () => {
  it('an undecided turn review ends as if all were kept: History says why, nothing reverted, the hook prints nothing', async () => {
    // A "minute" of 30 ms: the test waits for the push, not for a time.
    const client = await start({ edits: 'turn', timeoutMinutes: 2 }, 30);
    writeFileSync(ws('a.txt'), BEFORE);
    await ask(client, 'turn_touch', { paths: [ws('a.txt')], permission_mode: 'default' });
    writeFileSync(ws('a.txt'), WRITTEN);
    const ended = await ask(client, 'turn_end', {});
    expect(ended).toMatchObject({ files: 1 });
    const push = await client.nextPush();
    expect(push.command).toBe('change_set_result');
    const result = push.payload as unknown as ChangeSetResult;
    expect(result.status).toBe('cancelled');
    expect(turnBlock(result)).toBeUndefined();
    const review = t.runtime.core.queue.find(ended.review_id as string)!;
    expect(review.state).toBe('cancelled');
    expect(review.reason).toBe("no decision within 2 minutes: the turn's writes were kept");
    expect(readFileSync(ws('a.txt'), 'utf8')).toBe(WRITTEN);
    await settled();
    expect(await ask(client, 'turn_end', { stop_hook_active: true })).toEqual({ review_id: null, files: 0 });
  });

  it('without a limit the turn review waits for the person', async () => {
    const client = await start({ edits: 'turn' }, 1);
    writeFileSync(ws('a.txt'), BEFORE);
    await ask(client, 'turn_touch', { paths: [ws('a.txt')], permission_mode: 'default' });
    writeFileSync(ws('a.txt'), WRITTEN);
    const ended = await ask(client, 'turn_end', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.runtime.core.queue.find(ended.review_id as string)!.state).toBe('pending');
  });
});
