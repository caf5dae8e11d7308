/**
 * What History is told about a change already on disk, once its review ended (ReviewFileInfo.revert):
 * through the real runtime, real files in a temp workspace and raw native clients, the field says
 * 'reverted' only when the writer put the file back, 'conflict' when it refused because the file changed
 * on disk meanwhile (the person's text stays), and 'client' when the client writes its own files
 * (native `writer: 'client'`): DiffTray reverts nothing of those, from the start to the end.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReviewFileInfo } from '../../shared/app-api';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { useNativeRuntime } from '../support/native-runtime';
import { ask, openTurnHook } from '../support/turn-hook-client';
import { waitForReview } from '../support/wait';

const run = useNativeRuntime({ watchQuietMs: 150 });
const { api, ws } = run;
const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

/** Each file of review `id` as History lists it: its name, whether it was written, its revert. */
function historyFiles(id: string): Array<[string, ReviewFileInfo['written'], ReviewFileInfo['revert']]> {
  const item = run.t.runtime.core.queue.item(id);
  if (!item) throw new Error(`review ${id} is gone`);
  return item.files.map((file) => [path.basename(file.path), file.written, file.revert]);
}

const BEFORE = 'one\ntwo\nthree\n';
const WRITTEN = 'ONE\ntwo\nthree\n';

/** A turn that rewrote a.txt and created b.txt without being asked; answers the turn review's id. */
async function turnReview(): Promise<{ client: RawNative; id: string }> {
  const client = run.keep(await openTurnHook(run.t));
  writeFileSync(ws('a.txt'), BEFORE);
  await ask(client, 'turn_begin', { prompt: 'shout' });
  await ask(client, 'turn_touch', { paths: [ws('a.txt'), ws('b.txt')], permission_mode: 'acceptEdits' });
  writeFileSync(ws('a.txt'), WRITTEN);
  writeFileSync(ws('b.txt'), 'new\n');
  const ended = await ask(client, 'turn_end', {});
  return { client, id: ended.review_id as string };
}

describe('a turn review (reviewed after the fact)', () => {
  it('rejected: every file is put back, and History is told each was reverted', async () => {
    const { client, id } = await turnReview();
    // Before the decision nothing is claimed: the files are written, nothing reverted yet.
    expect(historyFiles(id)).toEqual([
      ['a.txt', true, undefined],
      ['b.txt', true, undefined],
    ]);
    await api('reject', { reviewId: id, reason: 'not now' });
    await client.nextPush();
    expect(read(ws('a.txt'))).toBe(BEFORE);
    expect(read(ws('b.txt'))).toBeUndefined();
    expect(historyFiles(id)).toEqual([
      ['a.txt', true, 'reverted'],
      ['b.txt', true, 'reverted'],
    ]);
  });

  it('rejected after the person edited a file: that revert is refused, said as a conflict, their text kept', async () => {
    const { client, id } = await turnReview();
    writeFileSync(ws('a.txt'), 'the person typed this\n');
    await api('reject', { reviewId: id });
    await client.nextPush();
    expect(read(ws('a.txt'))).toBe('the person typed this\n');
    expect(read(ws('b.txt'))).toBeUndefined();
    expect(historyFiles(id)).toEqual([
      ['a.txt', true, 'conflict'],
      ['b.txt', true, 'reverted'],
    ]);
    expect(run.t.runtime.core.queue.item(id)?.notes).toEqual([
      'a.txt: rejected; not reverted: changed on disk since it was reviewed; not written',
    ]);
  });

  it('accepted in part: the rejected hunk is put back and said as reverted; a file kept whole is not', async () => {
    const { client, id } = await turnReview();
    await api('decideFile', { reviewId: id, fileIndex: 0, decision: 'rejected' });
    await api('submit', { reviewId: id });
    await client.nextPush();
    expect(read(ws('a.txt'))).toBe(BEFORE);
    expect(read(ws('b.txt'))).toBe('new\n');
    expect(historyFiles(id)).toEqual([
      ['a.txt', true, 'reverted'],
      ['b.txt', true, undefined],
    ]);
  });
});

describe('a native client that writes its own files (writer "client")', () => {
  it('a change it already wrote is marked as its own from the start, and a reject leaves it on disk', async () => {
    const { native } = run.t.runtime;
    const client = run.keep(await RawNative.open(native.port, { [NATIVE_HEADER]: native.token }));
    await ask(client, 'hello', { client_name: 'editor-plugin' });
    writeFileSync(ws('c.txt'), WRITTEN);
    const proposed = await ask(client, 'propose_change_set', {
      title: 'Already written by the plugin',
      files: [{ path: ws('c.txt'), before: BEFORE, after: WRITTEN }],
      writer: 'client',
    });
    const id = proposed.review_id as string;
    expect(historyFiles(id)).toEqual([['c.txt', true, 'client']]);
    expect(run.t.runtime.core.queue.item(id)?.description).toContain(
      'Already written by the agent (the agent is told what was rejected): ',
    );
    await api('reject', { reviewId: id });
    const result = (await client.nextPush()).payload as { files: Array<Record<string, unknown>> };
    expect(result.files[0]).toMatchObject({ status: 'rejected' });
    expect(result.files[0]!.reverted).toBeUndefined();
    expect(read(ws('c.txt'))).toBe(WRITTEN);
    expect(historyFiles(id)).toEqual([['c.txt', true, 'client']]);
  });
});

describe('watch mode ("Changes on disk")', () => {
  it('rejected: the write is put back and History is told it was reverted', async () => {
    writeFileSync(ws('w.txt'), BEFORE);
    const { native } = run.t.runtime;
    const client = run.keep(await RawNative.open(native.port, { [NATIVE_HEADER]: native.token }));
    await ask(client, 'watch_folder', { folder: run.t.workspace, watch: true });
    writeFileSync(ws('w.txt'), WRITTEN);
    const review = await waitForReview(
      run.t.runtime.core,
      (r) => r.client.name === 'Changes on disk' && r.files.some((f) => f.path === ws('w.txt')),
    );
    await api('reject', { reviewId: review.id });
    await waitForReview(run.t.runtime.core, (r) => r.id === review.id && r.files[0]?.revert !== undefined);
    expect(read(ws('w.txt'))).toBe(BEFORE);
    expect(historyFiles(review.id)).toEqual([['w.txt', true, 'reverted']]);
  });
});
