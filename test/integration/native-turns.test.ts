/**
 * The turn review below the UI (issue 26): a bare WebSocket client speaks for an agent's hooks against the
 * real runtime's native endpoint — turn_begin, turn_touch before each write (the client then writes the
 * file itself, as an agent does), turn_end — and the person decides through the app API.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { makeTempDir } from '../support/temp';
import { ask, openTurnHook } from '../support/turn-hook-client';
import { until } from '../support/wait';
import { turnKey } from '../../src-main/core/turns/agent-turns';

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
const ws = (name: string) => path.join(t.workspace, name);

/** A hook's connection: as Claude Code's hooks, in session `session`, in the workspace. */
async function hook(session = 'session-1', integration = 'claude-code-hooks'): Promise<RawNative> {
  const client = await openTurnHook(t, session, integration);
  clients.push(client);
  return client;
}

const BEFORE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';
const WRITTEN = 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\n';

/** A turn that edits a.txt (two hunks) and adds b.txt unasked, then ends; answers turn_end's payload. */
async function unaskedTurn(client: RawNative) {
  writeFileSync(ws('a.txt'), BEFORE);
  await ask(client, 'turn_begin', { prompt: 'Make the ends loud\nand nothing else' });
  const touched = await ask(client, 'turn_touch', {
    paths: [ws('a.txt')],
    permission_mode: 'acceptEdits',
  });
  expect(touched).toEqual({ each_edit: false });
  writeFileSync(ws('a.txt'), WRITTEN);
  await ask(client, 'turn_touch', { paths: ['b.txt'], permission_mode: 'acceptEdits' });
  writeFileSync(ws('b.txt'), 'new\n');
  return ask(client, 'turn_end', {});
}

describe('a turn written unasked', () => {
  it('is one review at its end, titled with the agent, folder and prompt; a reject reverts on disk', async () => {
    const client = await hook();
    const ended = await unaskedTurn(client);
    expect(ended).toMatchObject({ files: 2 });
    const reviewId = ended.review_id as string;
    const review = t.runtime.core.queue.find(reviewId)!;
    expect(review.title).toBe(`Claude Code · ${path.basename(t.workspace)}: Make the ends loud`);
    expect(review.files.map((file) => [path.basename(file.path), file.hunks.length])).toEqual([
      ['a.txt', 2],
      ['b.txt', 1],
    ]);
    await api('decideHunks', { reviewId, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' });
    await api('submit', { reviewId, note: 'keep eight quiet' });
    const push = await client.nextPush();
    expect(push.command).toBe('change_set_result');
    expect(push.payload).toMatchObject({ status: 'partially_accepted', note: 'keep eight quiet' });
    const files = push.payload.files as Array<Record<string, unknown>>;
    expect(files.map((file) => [file.path, file.status, file.reverted])).toEqual([
      ['a.txt', 'applied', true],
      ['b.txt', 'applied', undefined],
    ]);
    expect(readFileSync(ws('a.txt'), 'utf8')).toBe('ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n');
    expect(readFileSync(ws('b.txt'), 'utf8')).toBe('new\n');
  });

  it('a second end with nothing new written ends silently; a new write is reviewed against what was decided', async () => {
    const client = await hook();
    const reviewId = (await unaskedTurn(client)).review_id as string;
    await api('submit', { reviewId });
    await client.nextPush();
    await until(
      () => t.runtime.core.turns.find(turnKey('Claude Code', 'session-1'))?.reviewing === false || undefined,
      'the turn review settled',
    );
    expect(await ask(client, 'turn_end', { stop_hook_active: true })).toEqual({ review_id: null, files: 0 });
    writeFileSync(ws('a.txt'), `${WRITTEN}nine\n`);
    const again = await ask(client, 'turn_end', { stop_hook_active: true });
    expect(again).toMatchObject({ files: 1 });
    const review = t.runtime.core.queue.find(again.review_id as string)!;
    expect(review.files[0]!.hunks).toHaveLength(1);
  });

  it('a file the person changed during the review is a conflict: nothing is overwritten', async () => {
    const client = await hook();
    const reviewId = (await unaskedTurn(client)).review_id as string;
    writeFileSync(ws('a.txt'), 'the person typed this\n');
    await api('decideAll', { reviewId, decision: 'rejected' });
    await expect(api('submit', { reviewId })).rejects.toThrow(/changed on disk/);
    expect(readFileSync(ws('a.txt'), 'utf8')).toBe('the person typed this\n');
  });

  it('a hook killed while its turn review waits (one_shot): the review is cancelled, nothing reverted', async () => {
    const client = await hook();
    const reviewId = (await unaskedTurn(client)).review_id as string;
    client.close();
    await until(
      () => (t.runtime.core.queue.find(reviewId)?.state === 'cancelled' ? true : undefined),
      'the turn review cancelled',
    );
    expect(readFileSync(ws('a.txt'), 'utf8')).toBe(WRITTEN);
    expect(readFileSync(ws('b.txt'), 'utf8')).toBe('new\n');
    // The next end of turn asks about the same writes again: they were never seen.
    const again = await hook();
    expect(await ask(again, 'turn_end', {})).toMatchObject({ files: 2 });
  });

  it('a new prompt begins a new turn: what the last one followed is let go', async () => {
    const client = await hook();
    writeFileSync(ws('a.txt'), BEFORE);
    await ask(client, 'turn_touch', { paths: [ws('a.txt')], permission_mode: 'acceptEdits' });
    writeFileSync(ws('a.txt'), WRITTEN);
    await ask(client, 'turn_begin', { prompt: 'next' });
    expect(await ask(client, 'turn_end', {})).toEqual({ review_id: null, files: 0 });
  });
});

describe('edits reviewed one by one during the turn', () => {
  it('in the default mode each edit is asked, and what the person accepted is not asked again', async () => {
    const client = await hook();
    writeFileSync(ws('a.txt'), BEFORE);
    await ask(client, 'turn_begin', { prompt: 'go' });
    expect(await ask(client, 'turn_touch', { paths: [ws('a.txt')], permission_mode: 'default' })).toEqual({
      each_edit: true,
    });
    const proposed = await ask(client, 'propose_change_set', {
      title: 'Edit a.txt',
      files: [{ path: ws('a.txt'), before: BEFORE, after: WRITTEN }],
      writer: 'client',
    });
    await api('decideHunks', {
      reviewId: proposed.review_id,
      fileIndex: 0,
      hunkIndexes: [1],
      decision: 'rejected',
    });
    await api('submit', { reviewId: proposed.review_id });
    const result = await client.nextPush();
    const finalText = (result.payload.files as Array<{ final_text: string }>)[0]!.final_text;
    writeFileSync(ws('a.txt'), finalText); // The agent writes what the hook answered.
    expect(await ask(client, 'turn_end', {})).toEqual({ review_id: null, files: 0 });
  });

  it('other agents are asked each edit whatever their mode', async () => {
    const client = await hook('s', 'codex-hooks');
    writeFileSync(ws('a.txt'), BEFORE);
    expect(
      await ask(client, 'turn_touch', { paths: [ws('a.txt')], permission_mode: 'bypassPermissions' }),
    ).toEqual({ each_edit: true });
  });
});

describe('attacks', () => {
  it('a path outside the workspace, or through a link leading out, is asked now and never followed', async () => {
    const { dir: outside, cleanup } = makeTempDir('difftray-outside-');
    writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
    symlinkSync(outside, ws('link'));
    const client = await hook();
    for (const target of [path.join(outside, 'secret.txt'), '../secret.txt', 'link/secret.txt']) {
      expect(await ask(client, 'turn_touch', { paths: [target], permission_mode: 'acceptEdits' })).toEqual({
        each_edit: true,
      });
    }
    writeFileSync(path.join(outside, 'secret.txt'), 'changed\n');
    expect(await ask(client, 'turn_end', {})).toEqual({ review_id: null, files: 0 });
    cleanup();
  });

  it('a folder swapped for a link out during the turn is not read through, nor written', async () => {
    const { dir: outside, cleanup } = makeTempDir('difftray-outside-');
    writeFileSync(path.join(outside, 'c.txt'), 'outside\n');
    mkdirSync(ws('sub'));
    writeFileSync(ws('sub/c.txt'), 'inside\n');
    const client = await hook();
    await ask(client, 'turn_touch', { paths: [ws('sub/c.txt')], permission_mode: 'acceptEdits' });
    rmSync(ws('sub'), { recursive: true });
    symlinkSync(outside, ws('sub'));
    const ended = await ask(client, 'turn_end', {});
    expect(ended).toEqual({ review_id: null, files: 0 });
    expect(readFileSync(path.join(outside, 'c.txt'), 'utf8')).toBe('outside\n');
    cleanup();
  });

  it('turn commands need the agent’s session id', async () => {
    const { native } = t.runtime;
    const client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
    clients.push(client);
    await client.request('hello', { client_name: 'script' });
    const answer = await client.request('turn_end', {});
    expect(answer.type).toBe('error_response');
    expect(JSON.stringify(answer.payload)).toMatch(/agent_session_id/);
  });

  it('malformed turn payloads are refused and the socket lives on', async () => {
    const client = await hook();
    for (const payload of [{ paths: [] }, { paths: 'a.txt' }, { paths: Array(101).fill('a') }, {}]) {
      const answer = await client.request('turn_touch', payload);
      expect(answer.type).toBe('error_response');
    }
    expect(await ask(client, 'turn_end', {})).toEqual({ review_id: null, files: 0 });
  });
});

describe('what a shell command wrote during the turn (watch mode on)', () => {
  it('joins the turn review against watch mode’s baseline, and is not a review of its own', async () => {
    writeFileSync(ws('c.txt'), 'old\n');
    const client = await hook();
    const watched = await client.request('watch_folder', { folder: t.workspace, watch: true });
    expect(watched.type, JSON.stringify(watched.payload)).toBe('response');
    await ask(client, 'turn_begin', { prompt: 'run the generator' });
    // What `sed -i` and a generator would do, with no edit tool named to DiffTray.
    writeFileSync(ws('c.txt'), 'new\n');
    writeFileSync(ws('d.txt'), 'generated\n');
    const ended = await ask(client, 'turn_end', {});
    expect(ended).toMatchObject({ files: 2 });
    const contents = t.runtime.core.queue.contents(ended.review_id as string);
    expect(contents.map((file) => [path.basename(file.path), file.baseText, file.proposedText])).toEqual([
      ['c.txt', 'old\n', 'new\n'],
      ['d.txt', '', 'generated\n'],
    ]);
    await t.runtime.watch.settled();
    expect(t.runtime.core.queue.pendingItems().map((item) => item.client.name)).toEqual(['Claude Code']);
    await api('decideAll', { reviewId: ended.review_id, decision: 'rejected' });
    await api('submit', { reviewId: ended.review_id });
    await client.nextPush();
    expect(readFileSync(ws('c.txt'), 'utf8')).toBe('old\n');
    expect(() => readFileSync(ws('d.txt'), 'utf8')).toThrow(/ENOENT/);
    // DiffTray's reverts are not reviewed again by watch mode.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await t.runtime.watch.settled();
    expect(t.runtime.core.queue.pendingItems()).toEqual([]);
  });
});

describe('turns.json, for the hooks’ first step', () => {
  const following = () =>
    (
      JSON.parse(readFileSync(path.join(t.home, '.difftray', 'turns.json'), 'utf8')) as {
        following: string[];
      }
    ).following;

  it('lists a session once its turn follows a file, or is open in a watched folder; a new prompt clears it', async () => {
    const client = await hook();
    await ask(client, 'turn_begin', { prompt: 'one' });
    expect(following()).toEqual([]);
    await ask(client, 'turn_touch', { paths: [ws('a.txt')], permission_mode: 'acceptEdits' });
    expect(following()).toEqual(['Claude Code\u0000session-1']);
    await ask(client, 'turn_begin', { prompt: 'two' });
    expect(following()).toEqual([]);
    await client.request('watch_folder', { folder: t.workspace, watch: true });
    expect(following()).toEqual(['Claude Code\u0000session-1']);
    // The turn ended with nothing to review: no longer open.
    expect(await ask(client, 'turn_end', {})).toEqual({ review_id: null, files: 0 });
    await ask(client, 'turn_begin', { prompt: 'three' });
    expect(following()).toEqual(['Claude Code\u0000session-1']);
  });
});
