/**
 * The one disk policy (core/disk/disk-policy.ts): what each decision does on disk, for each who-writes mode,
 * carried out by the real writer on real files in a temp workspace. Also the review-level call
 * (core/review/settle-review.ts) with the real queue: History notes what was not written.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileWriter } from '../../src-main/core/disk/file-writer';
import { revertOf, settleFile, type DiskFile, type FileDecision } from '../../src-main/core/disk/disk-policy';
import type { DiskSnapshot } from '../../src-main/core/disk/disk-snapshot';
import { ReviewQueue } from '../../src-main/core/review/review-queue';
import { settleReview } from '../../src-main/core/review/settle-review';
import { UndoJournal } from '../../src-main/core/undo/undo-journal';
import { WriteJournal } from '../../src-main/core/undo/write-journal';
import { testClient } from '../support/clients';
import { makeTempDir } from '../support/temp';

const text = (t: string): DiskSnapshot => ({ exists: true, kind: 'text', text: t });
const ABSENT: DiskSnapshot = { exists: false };

let cleanup: () => void;
let ws: string;
let files: FileWriter;
let undo: UndoJournal;

beforeEach(() => {
  const temp = makeTempDir('unit-disk-policy');
  cleanup = temp.cleanup;
  const root = realpathSync(temp.dir);
  ws = path.join(root, 'ws');
  mkdirSync(ws);
  undo = new UndoJournal(undefined);
  files = new FileWriter([ws], new WriteJournal(path.join(root, 'journal')), undo);
});

afterEach(() => {
  undo.close();
  cleanup();
});

/** A file in the workspace holding `content` (undefined: absent). */
function fileWith(name: string, content: string | undefined): string {
  const file = path.join(ws, name);
  if (content !== undefined) writeFileSync(file, content);
  return file;
}

const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

function accepted(finalText: string, expectedOnDisk: DiskSnapshot, changed = true): FileDecision {
  return { kind: 'accepted', composed: { finalText, expectedOnDisk, changed } };
}

describe('a change not yet on disk (DiffTray writes)', () => {
  it('accepted: writes the composed text and journals it for undo', async () => {
    const file = fileWith('a.txt', 'old\n');
    const disk: DiskFile = { path: file, base: text('old\n'), deletes: false };
    const settled = await settleFile(files, disk, accepted('new\n', text('old\n')), 'difftray', {
      reviewId: 'r1',
    });
    expect(settled).toEqual({ kind: 'written', target: text('new\n'), changed: true, reverted: false });
    expect(read(file)).toBe('new\n');
    expect(undo.sets().map((set) => set.reviewId)).toEqual(['r1']);
  });

  it('accepted with nothing of it kept: keeps the file as it is, and writes nothing', async () => {
    const file = fileWith('a.txt', 'old\n');
    const disk: DiskFile = { path: file, base: text('old\n'), deletes: false };
    const settled = await settleFile(files, disk, accepted('old\n', text('old\n'), false), 'difftray');
    expect(settled).toEqual({ kind: 'left', why: 'nothing accepted' });
    expect(read(file)).toBe('old\n');
  });

  it('accepted deletion composed to nothing: deletes the file', async () => {
    const file = fileWith('gone.txt', 'bye\n');
    const disk: DiskFile = { path: file, base: text('bye\n'), deletes: true };
    const settled = await settleFile(files, disk, accepted('', text('bye\n')), 'difftray');
    expect(settled).toMatchObject({ kind: 'written', target: ABSENT });
    expect(existsSync(file)).toBe(false);
  });

  it('rejected or cancelled: the file is kept as it is', async () => {
    const file = fileWith('a.txt', 'old\n');
    const disk: DiskFile = { path: file, base: text('old\n'), deletes: false };
    expect(await settleFile(files, disk, { kind: 'rejected' }, 'difftray')).toEqual({
      kind: 'left',
      why: 'rejected',
    });
    expect(await settleFile(files, disk, { kind: 'cancelled' }, 'difftray')).toEqual({
      kind: 'left',
      why: 'cancelled',
    });
    expect(read(file)).toBe('old\n');
  });

  it('a conflict when the disk changed since: nothing is written', async () => {
    const file = fileWith('a.txt', 'edited by hand\n');
    const disk: DiskFile = { path: file, base: text('old\n'), deletes: false };
    const settled = await settleFile(files, disk, accepted('new\n', text('old\n')), 'difftray');
    expect(settled).toMatchObject({ kind: 'failed', during: 'writing', status: 'conflict' });
    expect(read(file)).toBe('edited by hand\n');
  });
});

describe('a change already on disk (an agent wrote it)', () => {
  it('rejected: reverts it to the base while the file holds what was written', async () => {
    const file = fileWith('a.txt', 'agent\n');
    const disk: DiskFile = { path: file, base: text('old\n'), written: text('agent\n'), deletes: false };
    const settled = await settleFile(files, disk, { kind: 'rejected' }, 'difftray', { reviewId: 'r2' });
    expect(settled).toEqual({ kind: 'reverted', target: text('old\n') });
    expect(read(file)).toBe('old\n');
  });

  it('rejected, for a file the agent created: removes it again', async () => {
    const file = fileWith('new.txt', 'created\n');
    const disk: DiskFile = { path: file, base: ABSENT, written: text('created\n'), deletes: false };
    expect(await settleFile(files, disk, { kind: 'rejected' }, 'difftray')).toEqual({
      kind: 'reverted',
      target: ABSENT,
    });
    expect(existsSync(file)).toBe(false);
  });

  it('rejected, for a file the agent deleted: puts it back', async () => {
    const file = fileWith('deleted.txt', undefined);
    const disk: DiskFile = { path: file, base: text('kept\n'), written: ABSENT, deletes: true };
    await settleFile(files, disk, { kind: 'rejected' }, 'difftray');
    expect(read(file)).toBe('kept\n');
  });

  it('rejected after the file changed again: a conflict, and the later text stays', async () => {
    const file = fileWith('a.txt', 'later\n');
    const disk: DiskFile = { path: file, base: text('old\n'), written: text('agent\n'), deletes: false };
    const settled = await settleFile(files, disk, { kind: 'rejected' }, 'difftray');
    expect(settled).toMatchObject({ kind: 'failed', during: 'reverting', status: 'conflict' });
    expect(read(file)).toBe('later\n');
  });

  it('accepted whole: only checked, nothing reverted', async () => {
    const file = fileWith('a.txt', 'agent\n');
    const disk: DiskFile = { path: file, base: text('old\n'), written: text('agent\n'), deletes: false };
    const settled = await settleFile(files, disk, accepted('agent\n', text('agent\n')), 'difftray');
    expect(settled).toEqual({ kind: 'written', target: text('agent\n'), changed: true, reverted: false });
    expect(read(file)).toBe('agent\n');
  });

  it('accepted in part: the rejected lines are put back', async () => {
    const file = fileWith('a.txt', 'A\nB\n');
    const disk: DiskFile = { path: file, base: text('a\nb\n'), written: text('A\nB\n'), deletes: false };
    const settled = await settleFile(files, disk, accepted('A\nb\n', text('A\nB\n')), 'difftray');
    expect(settled).toEqual({ kind: 'written', target: text('A\nb\n'), changed: true, reverted: true });
    expect(read(file)).toBe('A\nb\n');
  });

  it('accepted with nothing of it kept: the base is put back', async () => {
    const file = fileWith('a.txt', 'agent\n');
    const disk: DiskFile = { path: file, base: text('old\n'), written: text('agent\n'), deletes: false };
    const settled = await settleFile(files, disk, accepted('old\n', text('agent\n'), false), 'difftray');
    expect(settled).toEqual({ kind: 'written', target: text('old\n'), changed: false, reverted: true });
    expect(read(file)).toBe('old\n');
  });

  it('tells the caller what the file is about to become, before it is written', async () => {
    const file = fileWith('a.txt', 'agent\n');
    const disk: DiskFile = { path: file, base: text('old\n'), written: text('agent\n'), deletes: false };
    const seen: Array<{ target: DiskSnapshot; onDisk: string | undefined }> = [];
    await settleFile(files, disk, { kind: 'rejected' }, 'difftray', {
      beforeWrite: (target) => seen.push({ target, onDisk: read(file) }),
    });
    expect(seen).toEqual([{ target: text('old\n'), onDisk: 'agent\n' }]);
  });

  it('is written only inside `within`: a file elsewhere in the workspace is refused', async () => {
    const inner = path.join(ws, 'inner');
    mkdirSync(inner);
    const file = fileWith('a.txt', 'agent\n');
    const disk: DiskFile = {
      path: file,
      base: text('old\n'),
      written: text('agent\n'),
      deletes: false,
      within: [inner],
    };
    const settled = await settleFile(files, disk, { kind: 'rejected' }, 'difftray');
    expect(settled).toMatchObject({ kind: 'failed', status: 'refused', code: 'outside_workspace' });
    expect(read(file)).toBe('agent\n');
  });

  it('a symlink swapped in on the way is not written through', async () => {
    const inner = path.join(ws, 'inner');
    const elsewhere = path.join(ws, 'elsewhere');
    mkdirSync(inner);
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, path.join(inner, 'sub'));
    writeFileSync(path.join(elsewhere, 'a.txt'), 'agent\n');
    const disk: DiskFile = {
      path: path.join(inner, 'sub', 'a.txt'),
      base: text('old\n'),
      written: text('agent\n'),
      deletes: false,
    };
    const settled = await settleFile(files, disk, { kind: 'rejected' }, 'difftray');
    expect(settled).toMatchObject({ kind: 'failed', status: 'refused', code: 'not_regular_file' });
    expect(read(path.join(elsewhere, 'a.txt'))).toBe('agent\n');
  });
});

describe('the client writes', () => {
  it('client: hands back the composed text after checking the file, and writes nothing', async () => {
    const file = fileWith('a.txt', 'old\n');
    const disk: DiskFile = { path: file, base: text('old\n'), deletes: false };
    const settled = await settleFile(files, disk, accepted('new\n', text('old\n')), 'client');
    expect(settled).toEqual({ kind: 'handed', text: 'new\n' });
    expect(read(file)).toBe('old\n');
    expect(undo.sets()).toEqual([]);
  });

  it('client: a deletion is handed back as null', async () => {
    const file = fileWith('a.txt', 'old\n');
    const disk: DiskFile = { path: file, base: text('old\n'), deletes: true };
    expect(await settleFile(files, disk, accepted('', text('old\n')), 'client')).toEqual({
      kind: 'handed',
      text: null,
    });
    expect(read(file)).toBe('old\n');
  });

  it('client: a file edited since gets no text', async () => {
    const file = fileWith('a.txt', 'edited\n');
    const disk: DiskFile = { path: file, base: text('old\n'), deletes: false };
    const settled = await settleFile(files, disk, accepted('new\n', text('old\n')), 'client');
    expect(settled).toMatchObject({ kind: 'failed', during: 'checking', status: 'conflict' });
  });

  it('client: a rejected change already written is left for the client', async () => {
    const file = fileWith('a.txt', 'agent\n');
    const disk: DiskFile = { path: file, base: text('old\n'), written: text('agent\n'), deletes: false };
    expect(await settleFile(files, disk, { kind: 'rejected' }, 'client')).toEqual({
      kind: 'left',
      why: 'rejected',
    });
    expect(read(file)).toBe('agent\n');
  });

  it('remote: the local disk is not looked at, even where a local file differs', async () => {
    const file = fileWith('a.txt', 'a local file\n');
    const disk: DiskFile = { path: file, base: text('old\n'), deletes: false };
    expect(await settleFile(files, disk, accepted('new\n', text('old\n')), 'remote')).toEqual({
      kind: 'handed',
      text: 'new\n',
    });
    expect(read(file)).toBe('a local file\n');
  });
});

describe('revertOf: what History is told became of a written change', () => {
  const written = (file: string): DiskFile => ({
    path: file,
    base: text('a\nb\n'),
    written: text('A\nB\n'),
    deletes: false,
  });

  it('reverted when the writer put back all of it or its rejected lines', async () => {
    const file = fileWith('a.txt', 'A\nB\n');
    const rejected: FileDecision = { kind: 'rejected' };
    expect(
      revertOf(written(file), rejected, await settleFile(files, written(file), rejected, 'difftray')),
    ).toBe('reverted');
    writeFileSync(file, 'A\nB\n');
    const inPart = accepted('A\nb\n', text('A\nB\n'));
    expect(revertOf(written(file), inPart, await settleFile(files, written(file), inPart, 'difftray'))).toBe(
      'reverted',
    );
  });

  it('a conflict when the file changed since, whether rejected whole or in part: the later text stays', async () => {
    const file = fileWith('a.txt', 'typed since\n');
    for (const decision of [{ kind: 'rejected' } as const, accepted('A\nb\n', text('A\nB\n'))]) {
      const settled = await settleFile(files, written(file), decision, 'difftray');
      expect(revertOf(written(file), decision, settled)).toBe('conflict');
    }
    expect(read(file)).toBe('typed since\n');
  });

  it('nothing to say when nothing was to be put back: accepted whole, not written, or the client writes', async () => {
    const file = fileWith('a.txt', 'typed since\n');
    const whole = accepted('A\nB\n', text('A\nB\n'));
    // Accepted whole and refused: nothing of it was to be reverted (the note says it was not written).
    const refused = await settleFile(files, written(file), whole, 'difftray');
    expect(refused).toMatchObject({ kind: 'failed', status: 'conflict' });
    expect(revertOf(written(file), whole, refused)).toBeUndefined();
    const notWritten: DiskFile = { path: file, base: text('typed since\n'), deletes: false };
    const rejected: FileDecision = { kind: 'rejected' };
    expect(revertOf(notWritten, rejected, await settleFile(files, notWritten, rejected, 'difftray'))).toBe(
      undefined,
    );
    // The client's check of a file edited since is no revert of DiffTray's.
    const inPart = accepted('A\nb\n', text('A\nB\n'));
    const checked = await settleFile(files, written(file), inPart, 'client');
    expect(checked).toMatchObject({ kind: 'failed', during: 'checking' });
    expect(revertOf(written(file), inPart, checked)).toBeUndefined();
  });
});

describe('settleReview', () => {
  it('settles every file in order and notes in History what was not written', async () => {
    const queue = new ReviewQueue();
    const good = fileWith('good.txt', 'one\n');
    const moved = fileWith('moved.txt', 'two\n');
    const { id, outcome } = queue.add({
      client: testClient(),
      title: 'two files',
      files: [
        { path: good, base: text('one\n'), proposedText: 'ONE\n' },
        { path: moved, base: text('two\n'), proposedText: 'TWO\n' },
      ],
    });
    writeFileSync(moved, 'edited meanwhile\n');
    queue.submit(id);
    const decided = await outcome;
    const disk = [
      { path: good, base: text('one\n'), deletes: false, name: 'good.txt' },
      { path: moved, base: text('two\n'), deletes: false, name: 'moved.txt' },
    ];
    const settled = await settleReview({ queue, writer: files }, id, decided, disk, 'difftray');
    expect(settled.files.map((file) => file.kind)).toEqual(['written', 'failed']);
    expect(settled.summary?.files.map((file) => file.hunks.length)).toEqual([1, 1]);
    expect(read(good)).toBe('ONE\n');
    expect(read(moved)).toBe('edited meanwhile\n');
    expect(queue.find(id)?.notes).toEqual(['moved.txt: changed on disk since it was reviewed; not written']);
  });
});
