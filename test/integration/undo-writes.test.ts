/**
 * "Undo changes on disk", end to end below the UI: a native change set written by DiffTray through the
 * real runtime, then `undoWrites` through the app API as the renderer calls it. Restores the exact bytes
 * and permission bits, removes a created file, brings back a deleted one; refuses a file edited since
 * (and puts the undo up as a merge review); survives a restart; never writes through a symlink.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { typedCall } from '../../shared/app-api';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until, waitForReview } from '../support/wait';

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

const api = typedCall((method, params) => t.runtime.handler(method, params));
const ws = (name: string) => path.join(t.workspace, name);
const modeOf = (file: string) => statSync(file).mode & 0o777;
const undoDir = () => path.join(t.home, '.difftray', 'undo');

async function hello(): Promise<RawNative> {
  const { native } = t.runtime;
  const client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
  clients.push(client);
  const answer = await client.request('hello', { client_name: 'test-agent' });
  expect(answer.type).toBe('response');
  return client;
}

/** Proposes the files, accepts the whole review in the app, and waits for DiffTray's result. */
async function acceptChangeSet(files: Array<{ path: string; before: string | null; after: string | null }>) {
  const client = await hello();
  const answer = await client.request('propose_change_set', { title: 'change set', files });
  expect(answer.type, JSON.stringify(answer.payload)).toBe('response');
  const id = answer.payload.review_id as string;
  await api('submit', { reviewId: id });
  const push = await client.nextPush();
  expect(push.payload.status, JSON.stringify(push.payload)).toBe('accepted');
  return id;
}

const undo = (id: string) => api('undoWrites', { id });
const snapshot = () => api('getSnapshot', {});

describe('undoWrites after a native change set DiffTray wrote', () => {
  it('restores the exact previous bytes and mode, removes a created file, brings back a deleted one', async () => {
    const script = ws('run.sh');
    const oldScript = '#!/bin/sh\r\necho café\r\n';
    writeFileSync(script, oldScript);
    chmodSync(script, 0o755);
    const gone = ws('gone.txt');
    writeFileSync(gone, 'keep me\n');
    chmodSync(gone, 0o640);

    const id = await acceptChangeSet([
      { path: script, before: oldScript, after: '#!/bin/sh\necho new\n' },
      { path: ws('new.txt'), before: null, after: 'created\n' },
      { path: gone, before: 'keep me\n', after: null },
    ]);
    expect(readFileSync(script, 'utf8')).toBe('#!/bin/sh\necho new\n');
    expect(existsSync(gone)).toBe(false);

    const listed = (await snapshot()).undoableWrites?.find((set) => set.id === id);
    expect(listed).toMatchObject({ reviewId: id, thisRun: true });
    expect([...listed!.files].sort()).toEqual([gone, ws('new.txt'), script].sort());

    const result = await undo(id);
    expect([...result.restored].sort()).toEqual([gone, ws('new.txt'), script].sort());
    expect(result.changedSince).toEqual([]);
    expect(readFileSync(script)).toEqual(Buffer.from(oldScript, 'utf8'));
    expect(modeOf(script)).toBe(0o755);
    expect(existsSync(ws('new.txt'))).toBe(false);
    expect(readFileSync(gone, 'utf8')).toBe('keep me\n');
    expect(modeOf(gone)).toBe(0o640);

    // Spent: a second undo says so, and the list shows it.
    await expect(undo(id)).rejects.toThrow(/already undone/);
    const after = (await snapshot()).undoableWrites?.find((set) => set.id === id);
    expect(after?.spent).toBe(true);
  });

  it('refuses a file edited since, leaves it alone, and puts the undo up as a merge review', async () => {
    const file = ws('a.txt');
    const before = 'one\ntwo\nthree\nfour\nfive\nsix\n';
    writeFileSync(file, before);
    const untouched = ws('b.txt');
    writeFileSync(untouched, 'b old\n');
    const id = await acceptChangeSet([
      { path: file, before, after: 'ONE\ntwo\nthree\nfour\nfive\nsix\n' },
      { path: untouched, before: 'b old\n', after: 'b new\n' },
    ]);
    // Someone edits the far end of the file after DiffTray wrote it.
    const edited = 'ONE\ntwo\nthree\nfour\nfive\nSIX by hand\n';
    writeFileSync(file, edited);

    const result = await undo(id);
    expect(result.changedSince).toEqual([file]);
    expect(result.restored).toEqual([untouched]);
    expect(readFileSync(file, 'utf8')).toBe(edited);
    expect(readFileSync(untouched, 'utf8')).toBe('b old\n');
    expect(result.mergeReviewId).toBeDefined();

    // The merge: DiffTray's change taken back, the later edit kept; reviewed like any change.
    const merge = t.runtime.core.queue.find(result.mergeReviewId!);
    expect(merge).toMatchObject({ state: 'pending', client: { name: 'DiffTray', protocol: 'difftray' } });
    const [content] = await api('getReviewContent', { reviewId: result.mergeReviewId! });
    expect(content).toMatchObject({
      baseText: edited,
      proposedText: 'one\ntwo\nthree\nfour\nfive\nSIX by hand\n',
    });
    await api('submit', { reviewId: result.mergeReviewId! });
    const merged = 'one\ntwo\nthree\nfour\nfive\nSIX by hand\n';
    await until(() => readFileSync(file, 'utf8') === merged || undefined, 'the merge written');
    // Spent once the merge is written (a moment after the file is).
    await until(
      async () => ((await snapshot()).undoableWrites?.find((set) => set.id === id)?.spent ? true : undefined),
      'the undo spent',
    );
    await expect(undo(id)).rejects.toThrow(/already undone/);
  });

  it('survives a restart: the journal is read back and the undo still works', async () => {
    const file = ws('kept.txt');
    writeFileSync(file, 'before restart\n');
    chmodSync(file, 0o600);
    const id = await acceptChangeSet([{ path: file, before: 'before restart\n', after: 'after\n' }]);
    for (const name of readdirSync(undoDir())) expect(modeOf(path.join(undoDir(), name))).toBe(0o600);
    expect(modeOf(undoDir())).toBe(0o700);

    for (const client of clients) client.close();
    clients = [];
    await t.restart();

    const listed = (await snapshot()).undoableWrites ?? [];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ reviewId: id, thisRun: false, files: [file] });
    // Not the review id: a review of this run may be called that too.
    expect(listed[0]!.id).not.toBe(id);

    const result = await undo(listed[0]!.id);
    expect(result.restored).toEqual([file]);
    expect(readFileSync(file, 'utf8')).toBe('before restart\n');
    expect(modeOf(file)).toBe(0o600);
  });

  it('does not write through a symlink swapped in for the file before undo', async () => {
    const file = ws('target.txt');
    writeFileSync(file, 'original\n');
    const id = await acceptChangeSet([{ path: file, before: 'original\n', after: 'written\n' }]);
    const { dir: outside, cleanup } = await import('../support/temp').then((m) =>
      m.makeTempDir('undo-outside'),
    );
    try {
      const victim = path.join(outside, 'victim.txt');
      writeFileSync(victim, 'written\n');
      rmSync(file);
      symlinkSync(victim, file);

      const result = await undo(id);
      expect(result.restored).toEqual([]);
      expect(readFileSync(victim, 'utf8')).toBe('written\n');
      expect(lstatSync(file).isSymbolicLink()).toBe(true);
      expect([...result.failed.map((f) => f.path), ...result.changedSince]).toContain(file);
    } finally {
      cleanup();
    }
  });
  it('two undos of the same review at once: one puts the files back, the other is refused', async () => {
    const file = ws('twice.txt');
    writeFileSync(file, 'first\n');
    const id = await acceptChangeSet([{ path: file, before: 'first\n', after: 'second\n' }]);
    const [a, b] = await Promise.allSettled([undo(id), undo(id)]);
    const done = [a, b].filter((r) => r.status === 'fulfilled');
    const refused = [a, b].flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
    expect(done).toHaveLength(1);
    expect(refused[0]).toMatch(/being undone already|already undone/);
    expect(readFileSync(file, 'utf8')).toBe('first\n');
    // No merge review was put up for DiffTray's own undo.
    expect(t.runtime.core.queue.summaries().filter((r) => r.state === 'pending')).toEqual([]);
  });

  it('says when a review has nothing to undo', async () => {
    await expect(undo('r999')).rejects.toThrow(/no changes on disk of this review/);
    await expect(api('undoWrites', { id: '' })).rejects.toThrow(/Invalid parameters for undoWrites/);
    await expect(api('undoWrites', { id: 'r'.repeat(500) })).rejects.toThrow(/Invalid parameters/);
  });
});

describe('undoWrites after a watch-mode revert', () => {
  it('puts back what the agent had written, which the rejected review reverted', async () => {
    await t.close();
    t = await startTestRuntime({
      watchQuietMs: 150,
      beforeStart: (home) => {
        // The test runtime's workspace is beside its home; the file's text at start is its baseline.
        writeFileSync(path.join(path.dirname(home), 'workspace', 'watched.txt'), 'base\n');
        mkdirSync(path.join(home, '.difftray'), { recursive: true });
        writeFileSync(path.join(home, '.difftray', 'settings.json'), JSON.stringify({ watchFolders: ['.'] }));
      },
    });
    const file = ws('watched.txt');
    // Written as an agent that writes directly would: reviewed after the fact, rejected, reverted.
    writeFileSync(file, 'agent wrote this\n');
    const review = await waitForReview(
      t.runtime.core,
      (r) => r.client.protocol === 'watch' && r.state === 'pending',
    );
    await api('reject', { reviewId: review.id });
    await until(() => (readFileSync(file, 'utf8') === 'base\n' ? true : undefined), 'the revert');
    await until(
      () => t.runtime.core.undoJournal.sets().find((set) => set.reviewId === review.id),
      'the revert journaled',
    );

    const result = await undo(review.id);
    expect(result.restored).toEqual([file]);
    expect(readFileSync(file, 'utf8')).toBe('agent wrote this\n');
    // DiffTray's own write is not reviewed again: a canary written after it is the only change seen.
    writeFileSync(ws('canary.txt'), 'canary\n');
    const next = await waitForReview(
      t.runtime.core,
      (r) => r.client.protocol === 'watch' && r.state === 'pending' && r.id !== review.id,
    );
    expect(next.files.map((f) => path.basename(f.path))).toEqual(['canary.txt']);
  });
});

describe('a failed undo is not spent: the saved text stays until the file is put back', () => {
  /** The undo as the app lists it, with what is kept on disk for it. */
  const listed = async (id: string) => (await snapshot()).undoableWrites?.find((set) => set.id === id);

  it('a symlink swapped in: refused, said why, still undoable; once the file is back, undone', async () => {
    const file = ws('linked.txt');
    writeFileSync(file, 'saved before\n');
    const id = await acceptChangeSet([{ path: file, before: 'saved before\n', after: 'written\n' }]);
    const { dir: outside, cleanup } = await import('../support/temp').then((m) => m.makeTempDir('undo-out'));
    try {
      const victim = path.join(outside, 'victim.txt');
      writeFileSync(victim, 'written\n');
      rmSync(file);
      symlinkSync(victim, file);

      const failed = await undo(id);
      expect(failed.restored).toEqual([]);
      expect(failed.failed.map((f) => f.path)).toEqual([file]);
      expect(failed.failed[0]!.reason).not.toBe('');
      expect(readFileSync(victim, 'utf8')).toBe('written\n');
      // Not spent: still listed as undoable, its saved text still on disk.
      expect(await listed(id)).toMatchObject({ files: [file] });
      expect((await listed(id))?.spent).toBeUndefined();
      expect(
        readdirSync(undoDir())
          .map((n) => readFileSync(path.join(undoDir(), n), 'utf8'))
          .join(),
      ).toContain(Buffer.from('saved before\n').toString('base64'));

      // The link taken away and DiffTray's text back: the same undo now works.
      rmSync(file);
      writeFileSync(file, 'written\n');
      const retried = await undo(id);
      expect(retried.restored).toEqual([file]);
      expect(readFileSync(file, 'utf8')).toBe('saved before\n');
      await expect(undo(id)).rejects.toThrow(/already undone/);
    } finally {
      cleanup();
    }
  });

  it('a folder swapped for a link to outside: nothing written there, the undo kept', async () => {
    mkdirSync(ws('sub'));
    const file = ws('sub/f.txt');
    writeFileSync(file, 'f before\n');
    const other = ws('other.txt');
    writeFileSync(other, 'o before\n');
    const id = await acceptChangeSet([
      { path: file, before: 'f before\n', after: 'f written\n' },
      { path: other, before: 'o before\n', after: 'o written\n' },
    ]);
    const { dir: outside, cleanup } = await import('../support/temp').then((m) => m.makeTempDir('undo-out'));
    try {
      writeFileSync(path.join(outside, 'f.txt'), 'f written\n');
      renameSync(ws('sub'), ws('sub-moved'));
      symlinkSync(outside, ws('sub'));

      const first = await undo(id);
      // The file that could be put back is; the other is refused and stays to be undone.
      expect(first.restored).toEqual([other]);
      expect(first.failed.map((f) => f.path)).toEqual([file]);
      expect(readFileSync(path.join(outside, 'f.txt'), 'utf8')).toBe('f written\n');
      expect(await listed(id)).toMatchObject({ files: [file] });

      rmSync(ws('sub'));
      renameSync(ws('sub-moved'), ws('sub'));
      const second = await undo(id);
      expect(second.restored).toEqual([file]);
      expect(readFileSync(file, 'utf8')).toBe('f before\n');
      expect((await listed(id))?.spent).toBe(true);
    } finally {
      cleanup();
    }
  });

  it.skipIf(process.getuid?.() === 0)('a folder made read-only: said why, the undo kept', async () => {
    mkdirSync(ws('ro'));
    const file = ws('ro/g.txt');
    const id = await acceptChangeSet([{ path: file, before: null, after: 'created\n' }]);
    chmodSync(ws('ro'), 0o555);
    try {
      const result = await undo(id);
      expect(result.restored).toEqual([]);
      expect(result.failed.map((f) => f.path)).toEqual([file]);
      expect(await listed(id)).toMatchObject({ files: [file] });
    } finally {
      chmodSync(ws('ro'), 0o755);
    }
    expect((await undo(id)).restored).toEqual([file]);
    expect(existsSync(file)).toBe(false);
  });

  it('changed since: the undo waits as a merge review; rejected, the undo stays available', async () => {
    const file = ws('m.txt');
    writeFileSync(file, 'one\ntwo\nthree\nfour\n');
    const id = await acceptChangeSet([
      { path: file, before: 'one\ntwo\nthree\nfour\n', after: 'ONE\ntwo\nthree\nfour\n' },
    ]);
    writeFileSync(file, 'ONE\ntwo\nthree\nFOUR\n');
    const first = await undo(id);
    expect(first.changedSince).toEqual([file]);
    // While the merge waits, a second undo would put up a second merge: refused, and said why.
    await expect(undo(id)).rejects.toThrow(new RegExp(`waits as review ${first.mergeReviewId}`));
    await api('reject', { reviewId: first.mergeReviewId! });
    expect(readFileSync(file, 'utf8')).toBe('ONE\ntwo\nthree\nFOUR\n');
    await until(async () => ((await listed(id))?.spent === undefined ? true : undefined), 'listed');

    const again = await undo(id);
    expect(again.changedSince).toEqual([file]);
    await api('submit', { reviewId: again.mergeReviewId! });
    await until(
      () => (readFileSync(file, 'utf8') === 'one\ntwo\nthree\nFOUR\n' ? true : undefined),
      'merged',
    );
    await until(async () => ((await listed(id))?.spent ? true : undefined), 'spent once written');
  });
});
