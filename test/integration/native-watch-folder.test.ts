/**
 * `watch_folder` (what `difftray watch` sends) attacked through the runtime's own native endpoint with a
 * raw client: strangers, folders it must refuse (outside, `..`, links leading out, a FIFO, a file), bad
 * frames; and a watched folder swapped for a link afterwards, whose far side must never be reviewed or
 * written to. Every check is what a client gets back, what the app watches, and what is on disk.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewSummary } from '../../shared/app-api';
import { MAX_PATH_CHARS } from '../../shared/limits';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until, waitForReview } from '../support/wait';

let t: TestRuntime;
let clients: RawNative[];
let ws: string;
/** A folder beside the workspace, outside it. */
let outside: string;

beforeEach(async () => {
  t = await startTestRuntime({ watchQuietMs: 150 });
  clients = [];
  ws = t.workspace;
  outside = path.join(path.dirname(t.home), 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'outside the workspace\n');
});

afterEach(async () => {
  for (const client of clients) client.close();
  await t.close();
});

async function open(headers: Record<string, string> = { [NATIVE_HEADER]: t.runtime.native.token }) {
  const client = await RawNative.open(t.runtime.native.port, headers);
  clients.push(client);
  return client;
}

const watchFolder = async (folder: unknown, watch: unknown = true) =>
  (await open()).request('watch_folder', { folder, watch });
const watched = () => t.runtime.core.snapshot().watchedFolders;
const settingsFile = () => path.join(t.home, '.difftray', 'settings.json');
const remembered = () =>
  existsSync(settingsFile())
    ? (JSON.parse(readFileSync(settingsFile(), 'utf8')) as { watchFolders?: unknown }).watchFolders
    : undefined;
const isWatchReview = (review: ReviewSummary) => review.client.name === 'Changes on disk';
const watchReviews = () => t.runtime.core.queue.summaries().filter(isWatchReview);
const reviewOf = (file: string) =>
  waitForReview(t.runtime.core, (r) => isWatchReview(r) && r.files.some((f) => f.path === file));
const refused = (code: number, message: string | RegExp) => ({
  type: 'error_response',
  command: 'watch_folder',
  payload: { code, message },
});

describe('watch_folder: strangers', () => {
  it('no token or a wrong one: refused at the upgrade (1001, 1002); nothing watched or remembered', async () => {
    const token = t.runtime.native.token;
    const attempts: Array<[Record<string, string>, number]> = [
      [{}, 1001],
      [{ [NATIVE_HEADER]: 'guess' }, 1002],
      [{ [NATIVE_HEADER]: `${token}x` }, 1002],
      [{ [NATIVE_HEADER]: token.slice(1) }, 1002],
      [{ authorization: `Bearer ${token}` }, 1001],
    ];
    for (const [headers, code] of attempts) {
      const error = (await RawNative.open(t.runtime.native.port, headers).then(
        () => new Error('connected'),
        (e: unknown) => e,
      )) as Error & { body?: string };
      expect(error.message).toBe('HTTP 401');
      expect(JSON.parse(error.body!)).toMatchObject({ code });
    }
    expect(watched()).toEqual([]);
    expect(remembered()).toBeUndefined();
  });

  it('with the token, and no hello: watched, remembered, and no client appears but "Changes on disk"', async () => {
    expect(await watchFolder(ws)).toMatchObject({ type: 'response', payload: { watched_folders: [ws] } });
    expect(watched()).toEqual([ws]);
    expect(remembered()).toEqual([ws]);
    expect(t.runtime.core.snapshot().clients.map((c) => c.name)).toEqual(['Changes on disk']);
    expect((await (await open()).request('status')).payload).toMatchObject({ watched_folders: [ws] });
  });
});

describe('watch_folder: folders it refuses', () => {
  it('outside the workspace, however it is spelled: 3001 naming the real path', async () => {
    const escapes = [
      outside,
      `${ws}/../outside`,
      `${ws}/sub/../../outside`,
      `${ws}/./../outside/.`,
      path.parse(ws).root,
      t.home,
    ];
    mkdirSync(path.join(ws, 'sub'));
    for (const folder of escapes) {
      expect(await watchFolder(folder)).toMatchObject(
        refused(3001, expect.stringMatching(/ is outside the workspace folders$/)),
      );
    }
    expect(await watchFolder(`${ws}/../outside`)).toMatchObject(
      refused(3001, `${outside} is outside the workspace folders`),
    );
    expect(watched()).toEqual([]);
    expect(remembered()).toBeUndefined();
  });

  it('a link inside the workspace that leads out is judged by where it leads (3001); one that stays in is watched as its target', async () => {
    symlinkSync(outside, path.join(ws, 'link-out'));
    symlinkSync('../outside', path.join(ws, 'relative-out'));
    mkdirSync(path.join(ws, 'real'));
    symlinkSync(path.join(ws, 'real'), path.join(ws, 'link-in'));
    expect(await watchFolder(path.join(ws, 'link-out'))).toMatchObject(
      refused(3001, `${outside} is outside the workspace folders`),
    );
    expect(await watchFolder(path.join(ws, 'relative-out'))).toMatchObject(
      refused(3001, `${outside} is outside the workspace folders`),
    );
    // Through the link and `..`: the kernel climbs from the link's target.
    expect(await watchFolder(`${ws}/link-out/../outside`)).toMatchObject(
      refused(3001, `${outside} is outside the workspace folders`),
    );
    expect(watched()).toEqual([]);
    expect(await watchFolder(path.join(ws, 'link-in'))).toMatchObject({
      payload: { watched_folders: [path.join(ws, 'real')] },
    });
  });

  it('a FIFO, a regular file, a missing folder: 3003, answered at once, and the socket serves the next request', async () => {
    const fifo = path.join(ws, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    writeFileSync(path.join(ws, 'file.txt'), 'x\n');
    symlinkSync(fifo, path.join(ws, 'link-to-pipe'));
    const client = await open();
    for (const name of ['pipe', 'file.txt', 'missing', 'link-to-pipe']) {
      const answer = await client.request('watch_folder', { folder: path.join(ws, name), watch: true });
      expect(answer).toMatchObject(refused(3003, expect.stringMatching(/ is not a folder$/)));
    }
    // Turning off something never watched is no error: nothing is watched either way.
    expect(await client.request('watch_folder', { folder: fifo, watch: false })).toMatchObject({
      type: 'response',
      payload: { watched_folders: [] },
    });
    expect(await client.request('watch_folder', { folder: ws, watch: true })).toMatchObject({
      type: 'response',
      payload: { watched_folders: [ws] },
    });
  });

  it('bad payloads and frames: numbered errors, nothing watched, and the socket serves the next request', async () => {
    const client = await open();
    const invalid = (message: string | RegExp) => refused(2004, message);
    const ask = (payload: unknown) => client.request('watch_folder', payload);
    expect(await ask({ folder: `/${'a'.repeat(MAX_PATH_CHARS)}`, watch: true })).toMatchObject(
      invalid(`Invalid payload for watch_folder: folder: a path may be at most ${MAX_PATH_CHARS} characters`),
    );
    expect(await ask({ folder: 42, watch: true })).toMatchObject(
      invalid(/^Invalid payload for watch_folder: folder: /),
    );
    expect(await ask({ folder: [ws], watch: true })).toMatchObject(invalid(/folder/));
    expect(await ask({ folder: { toString: ws }, watch: true })).toMatchObject(invalid(/folder/));
    expect(await ask({ watch: true })).toMatchObject(invalid(/folder/));
    expect(await ask({ folder: ws })).toMatchObject(invalid(/watch/));
    expect(await ask({ folder: ws, watch: 'yes' })).toMatchObject(invalid(/watch/));
    expect(await ask({ folder: '', watch: true })).toMatchObject(invalid(/folder/));
    expect(await ask(null)).toMatchObject(invalid(/folder/));
    // Relative paths and NUL: a client says which folder it means, as a path a system call takes.
    for (const folder of ['.', 'sub', '~/code', `${ws}\0/../outside`]) {
      expect(await ask({ folder, watch: true })).toMatchObject(
        invalid('Invalid payload for watch_folder: folder: an absolute path'),
      );
    }
    const badJson = await client.sendRaw(
      '{"protocol_version":"1.0","message_id":"x","type":"request","command":"watch_folder","payload":{"folder":',
    );
    expect(badJson).toMatchObject({ type: 'error_response', payload: { code: 2001 } });
    const noEnvelope = await client.sendRaw(
      { command: 'watch_folder', message_id: 'y', payload: { folder: ws, watch: true } },
      'y',
    );
    expect(noEnvelope).toMatchObject({ type: 'error_response', payload: { code: 2002 } });
    expect(watched()).toEqual([]);
    expect(await ask({ folder: ws, watch: true })).toMatchObject({
      type: 'response',
      payload: { watched_folders: [ws] },
    });
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('turning off a folder watched as part of another: 2004, and both stay as they were', async () => {
    mkdirSync(path.join(ws, 'sub'));
    await watchFolder(ws);
    expect(await watchFolder(path.join(ws, 'sub'), false)).toMatchObject(
      refused(2004, `${path.join(ws, 'sub')} is watched as part of ${ws}: turn that folder off instead`),
    );
    expect(watched()).toEqual([ws]);
  });
});

const BASE = 'one\ntwo\nthree\n';
const EDITED = 'one\nTWO\nthree\n';

describe('a watched folder swapped for a link afterwards', () => {
  it('a subfolder replaced by a link out of the workspace: its far side is never reviewed, a pending review there never written through', async () => {
    const sub = path.join(ws, 'sub');
    mkdirSync(sub);
    writeFileSync(path.join(sub, 'a.txt'), BASE);
    await watchFolder(ws);
    writeFileSync(path.join(sub, 'a.txt'), EDITED);
    const pending = await reviewOf(path.join(sub, 'a.txt'));

    // The folder goes; a link to outside takes its name, whose a.txt holds exactly what was reviewed.
    writeFileSync(path.join(outside, 'a.txt'), EDITED);
    renameSync(sub, path.join(ws, 'sub-moved-away'));
    symlinkSync(outside, sub);
    writeFileSync(path.join(outside, 'secret.txt'), 'changed outside\n');
    writeFileSync(path.join(outside, 'new.txt'), 'made outside\n');

    await t.runtime.handler('reject', { reviewId: pending.id });
    await until(() => t.runtime.core.queue.summary(pending.id).notes, 'the note on the rejected review');
    expect(t.runtime.core.queue.summary(pending.id).notes?.join('\n')).toMatch(/sub\/a\.txt: not written/);
    expect(readFileSync(path.join(outside, 'a.txt'), 'utf8')).toBe(EDITED);

    // Later writes beyond the link are not reviewed; a write in the workspace still is.
    writeFileSync(path.join(outside, 'secret.txt'), 'changed again\n');
    writeFileSync(path.join(ws, 'canary.txt'), 'in the workspace\n');
    await reviewOf(path.join(ws, 'canary.txt'));
    await t.runtime.watch.settled();
    const reviewed = watchReviews().flatMap((r) => r.files.map((f) => f.path));
    expect(reviewed.filter((file) => file.startsWith(`${sub}/`) || file.startsWith(`${outside}/`))).toEqual([
      path.join(sub, 'a.txt'),
    ]);
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('changed again\n');
  });

  it('the watched folder itself replaced by a link to elsewhere in the workspace: a reject never writes there', async () => {
    const sub = path.join(ws, 'sub');
    const other = path.join(ws, 'other');
    mkdirSync(sub);
    mkdirSync(other);
    writeFileSync(path.join(sub, 'a.txt'), BASE);
    await watchFolder(sub);
    expect(watched()).toEqual([sub]);
    writeFileSync(path.join(sub, 'a.txt'), EDITED);
    const pending = await reviewOf(path.join(sub, 'a.txt'));

    // A file outside the watched folder that holds the reviewed text, and the watched folder now leads there.
    writeFileSync(path.join(other, 'a.txt'), EDITED);
    renameSync(sub, path.join(ws, 'sub-moved-away'));
    symlinkSync(other, sub);

    await t.runtime.handler('reject', { reviewId: pending.id });
    await until(() => t.runtime.core.queue.summary(pending.id).notes, 'the note on the rejected review');
    expect(t.runtime.core.queue.summary(pending.id).notes?.join('\n')).toMatch(/a\.txt: not written/);
    expect(readFileSync(path.join(other, 'a.txt'), 'utf8')).toBe(EDITED);
    expect(readFileSync(path.join(ws, 'sub-moved-away', 'a.txt'), 'utf8')).toBe(EDITED);

    // Turned off by the name it was turned on with, though that name now leads elsewhere.
    expect(await watchFolder(sub, false)).toMatchObject({ payload: { watched_folders: [] } });
    rmSync(sub);
  });

  it('a folder inside the watched one replaced by a link to elsewhere in the workspace: a reject never writes beyond the watched folder', async () => {
    const sub = path.join(ws, 'sub');
    const inner = path.join(sub, 'inner');
    const other = path.join(ws, 'other');
    mkdirSync(path.join(inner, 'deep'), { recursive: true });
    mkdirSync(path.join(other, 'deep'), { recursive: true });
    const file = path.join(inner, 'deep', 'a.txt');
    writeFileSync(file, BASE);
    await watchFolder(sub);
    writeFileSync(file, EDITED);
    const pending = await reviewOf(file);

    // The same file name beyond the link, holding exactly what was reviewed.
    writeFileSync(path.join(other, 'deep', 'a.txt'), EDITED);
    renameSync(inner, path.join(ws, 'inner-moved-away'));
    symlinkSync(other, inner);

    await t.runtime.handler('reject', { reviewId: pending.id });
    await until(() => t.runtime.core.queue.summary(pending.id).notes, 'the note on the rejected review');
    expect(t.runtime.core.queue.summary(pending.id).notes?.join('\n')).toMatch(
      /inner\/deep\/a\.txt: not written/,
    );
    expect(readFileSync(path.join(other, 'deep', 'a.txt'), 'utf8')).toBe(EDITED);
  });

  it('the watched folder moved away and a link out of the workspace put in its place: what lies beyond is never read into a review', async () => {
    const sub = path.join(ws, 'sub');
    const canaryFolder = path.join(ws, 'canary');
    mkdirSync(path.join(sub, 'deep'), { recursive: true });
    mkdirSync(canaryFolder);
    writeFileSync(path.join(sub, 'deep', 'x.txt'), BASE);
    // Beyond the link: a folder named like the watched one, and a file where the watched one was.
    mkdirSync(path.join(outside, 'sub'));
    mkdirSync(path.join(outside, 'deep'));
    writeFileSync(path.join(outside, 'deep', 'x.txt'), 'SECRET outside the workspace\n');
    await watchFolder(sub);
    await watchFolder(canaryFolder);

    renameSync(sub, path.join(ws, 'sub-moved'));
    symlinkSync(outside, sub);
    // Written in the moved folder, whose watches still hold it under its old name.
    writeFileSync(path.join(ws, 'sub-moved', 'deep', 'x.txt'), EDITED);
    writeFileSync(path.join(canaryFolder, 'canary.txt'), 'later\n');
    await reviewOf(path.join(canaryFolder, 'canary.txt'));
    await t.runtime.watch.settled();
    const reviewed = watchReviews().flatMap((r) => r.files.map((f) => f.path));
    expect(reviewed).toEqual([path.join(canaryFolder, 'canary.txt')]);
  });
});
