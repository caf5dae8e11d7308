/**
 * The disk watch and the submit check, at one read per proposal: real files in temp folders, real
 * folder watches, the real queue. Reads are counted by the one hook disk-snapshot.ts has for it; looks (a
 * signature compared, with or without a read) by the queue's noteDisk, which every look ends in.
 */
import {
  mkdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DiskState } from '../../shared/app-api';
import { AppCore } from '../../src-main/core/app-core';
import { submitWithDiskCheck } from '../../src-main/core/disk/disk-guard';
import {
  isRacilyClean,
  observeFileReads,
  RACY_WINDOW_NS,
  signatureOf,
} from '../../src-main/core/disk/disk-snapshot';
import { FolderWatch } from '../../src-main/core/disk/folder-watch';
import { PendingPaths } from '../../src-main/core/review/pending-paths';
import { readProposalBase } from '../../src-main/core/review/proposal-base';
import { ReviewError, ReviewQueue } from '../../src-main/core/review/review-queue';
import { makeTempDir } from '../support/temp';
import { until } from '../support/wait';
import { testClient } from '../support/clients';
import { messageOf } from '../../shared/error-message';

const CLIENT = testClient();
const BASE = 'a\nb\nc\n';
const SAME_SIZE = 'a\nX\nc\n';
const PROPOSED = 'a\nB\nc\n';
/** A round mtime, so that setting it back restores it to the nanosecond. */
const OLD_MTIME = 1_700_000_000;

/** Files whose timestamps are older than the racy window: what a file an agent proposes to edit usually is. */
let aged: { dir: string; cleanup: () => void };
const AGED_FILES = ['once.txt', 'race.txt', 'rewrite.txt', 'link.txt', 'sub/in-folder.txt', 'gone/f.txt'];
const agedFile = (name: string) => path.join(aged.dir, name);

beforeAll(async () => {
  aged = makeTempDir('watch-aged');
  aged.dir = realpathSync(aged.dir);
  for (const name of AGED_FILES) {
    mkdirSync(path.dirname(agedFile(name)), { recursive: true });
    writeFileSync(agedFile(name), BASE);
    utimesSync(agedFile(name), OLD_MTIME, OLD_MTIME);
  }
  // ctime cannot be set: it ages by waiting.
  const newest = Math.max(...AGED_FILES.map((name) => statSync(agedFile(name)).ctimeMs));
  const windowMs = Number(RACY_WINDOW_NS / 1_000_000n);
  await new Promise((resolve) => setTimeout(resolve, newest + windowMs + 50 - Date.now()));
}, 20_000);

afterAll(() => aged.cleanup());

let reads: string[];
beforeEach(() => {
  reads = [];
  observeFileReads((file) => reads.push(file));
});
afterEach(() => observeFileReads(undefined));

const readsOf = (file: string) => reads.filter((read) => read === file).length;

/** A review of `file` made from what is on disk, as the bridges make them. */
async function propose(queue: ReviewQueue, file: string, folders: readonly string[], client = CLIENT) {
  const base = await readProposalBase(file, folders);
  return queue.add({
    client,
    title: path.basename(file),
    files: [{ path: file, base, proposedText: PROPOSED }],
  });
}

/** Counts the looks the queue is told of, per path: every look at the disk ends in noteDisk. */
function countLooks(queue: ReviewQueue): (file: string) => number {
  const spy = vi.spyOn(queue, 'noteDisk');
  return (file) => spy.mock.calls.filter(([noted]) => noted === file).length;
}

function diskState(queue: ReviewQueue, id: string): DiskState | undefined {
  return queue.summary(id).files[0]?.disk.state;
}

describe('one read per proposal', () => {
  let core: AppCore;
  beforeEach(() => {
    core = new AppCore([aged.dir]);
    core.watchFiles();
  });
  afterEach(() => core.close());

  it('a file left alone is read once: the watcher and the submit only compare its signature', async () => {
    const file = agedFile('once.txt');
    const looks = countLooks(core.queue);
    const { id, outcome } = await propose(core.queue, file, [aged.dir]);
    await until(() => looks(file) || undefined, 'the watcher to look at the file');
    await submitWithDiskCheck(core.queue, id, [aged.dir]);
    await expect(outcome).resolves.toMatchObject({ kind: 'accepted' });
    expect(looks(file)).toBe(2);
    expect(readsOf(file)).toBe(1);
  });

  it('a review decided in the burst it arrived in costs no watch and no look: only the submit looks', async () => {
    const file = agedFile('once.txt');
    const looks = countLooks(core.queue);
    const watches = vi.spyOn(FolderWatch.prototype, 'watch');
    try {
      const base = await readProposalBase(file, [aged.dir]);
      const { id, outcome } = core.queue.add({
        client: CLIENT,
        title: 'decided at once',
        files: [{ path: file, base, proposedText: PROPOSED }],
      });
      await submitWithDiskCheck(core.queue, id, [aged.dir]);
      await expect(outcome).resolves.toMatchObject({ kind: 'accepted' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(watches).not.toHaveBeenCalled();
      expect(looks(file)).toBe(1);
      expect(watcherCounts(core)).toEqual({ paths: 0, folders: 0 });
    } finally {
      watches.mockRestore();
    }
  });

  it('an edit between the proposal’s read and the watch being in place is flagged (same size, same mtime)', async () => {
    const file = agedFile('race.txt');
    const base = await readProposalBase(file, [aged.dir]);
    // Before the review is queued, so before anything watches the file: only its signature can tell.
    writeFileSync(file, SAME_SIZE);
    utimesSync(file, OLD_MTIME, OLD_MTIME);
    const { id } = core.queue.add({
      client: CLIENT,
      title: 'race',
      files: [{ path: file, base, proposedText: PROPOSED }],
    });
    await until(
      () => (diskState(core.queue, id) === 'modified' ? true : undefined),
      'the edit to be flagged',
    );
    expect(core.queue.contents(id)[0]!.diskText).toBe(SAME_SIZE);
    expect(readsOf(file)).toBe(2);
  });
});

describe('submit', () => {
  it('sees a same-size rewrite whose mtime was set back: the ctime moved', async () => {
    const file = agedFile('rewrite.txt');
    const queue = new ReviewQueue();
    const { id } = await propose(queue, file, [aged.dir]);
    expect(isRacilyClean(signatureOf(queue.knownDisk(file)!)!)).toBe(false);
    writeFileSync(file, SAME_SIZE);
    utimesSync(file, OLD_MTIME, OLD_MTIME);
    expect(statSync(file).size).toBe(BASE.length);
    await expect(submitWithDiskCheck(queue, id, [aged.dir])).rejects.toThrow(/changed on disk \(modified\)/);
    expect(readsOf(file)).toBe(2);
  });

  it('reads a file changed just before its proposal again: its timestamps cannot vouch for the read', async () => {
    const { dir, cleanup } = makeTempDir('watch-racy');
    try {
      const real = realpathSync(dir);
      const file = path.join(real, 'fresh.txt');
      writeFileSync(file, BASE);
      const queue = new ReviewQueue();
      const { id, outcome } = await propose(queue, file, [real]);
      expect(isRacilyClean(signatureOf(queue.knownDisk(file)!)!)).toBe(true);
      await submitWithDiskCheck(queue, id, [real]);
      await expect(outcome).resolves.toMatchObject({ kind: 'accepted' });
      expect(readsOf(file)).toBe(2);
    } finally {
      cleanup();
    }
  });

  it('refuses a file swapped for a symlink after the proposal, even to the same text; the review stays pending', async () => {
    const file = agedFile('link.txt');
    const outside = makeTempDir('watch-outside');
    try {
      const queue = new ReviewQueue();
      const { id } = await propose(queue, file, [aged.dir]);
      writeFileSync(path.join(outside.dir, 'same.txt'), BASE);
      renameSync(file, `${file}.moved`);
      symlinkSync(path.join(outside.dir, 'same.txt'), file);
      const error = await submitWithDiskCheck(queue, id, [aged.dir]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ReviewError);
      expect(messageOf(error)).toMatch(/symbolic link/);
      expect(queue.summary(id).state).toBe('pending');
    } finally {
      outside.cleanup();
    }
  });

  it('refuses a file whose folder became a symlink to an outside folder holding the same text', async () => {
    const file = agedFile('sub/in-folder.txt');
    const outside = makeTempDir('watch-outside');
    try {
      const queue = new ReviewQueue();
      const { id } = await propose(queue, file, [aged.dir]);
      writeFileSync(path.join(outside.dir, 'in-folder.txt'), BASE);
      renameSync(path.dirname(file), `${path.dirname(file)}.moved`);
      symlinkSync(outside.dir, path.dirname(file));
      await expect(submitWithDiskCheck(queue, id, [aged.dir])).rejects.toThrow(/not submitted/i);
      expect(queue.summary(id).state).toBe('pending');
    } finally {
      outside.cleanup();
    }
  });
});

describe('missing folders', () => {
  let temp: { dir: string; cleanup: () => void };
  let core: AppCore;
  beforeEach(() => {
    temp = makeTempDir('watch-missing');
    temp.dir = realpathSync(temp.dir);
    core = new AppCore([temp.dir]);
    core.watchFiles();
  });
  afterEach(async () => {
    await core.close();
    temp.cleanup();
  });

  it('notices a new file created in folders that did not exist when it was proposed', async () => {
    const file = path.join(temp.dir, 'new', 'deeper', 'f.txt');
    const looks = countLooks(core.queue);
    const { id } = await propose(core.queue, file, [temp.dir]);
    await until(() => looks(file) || undefined, 'the watcher to look at the file');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'someone else\n');
    await until(
      () => (diskState(core.queue, id) === 'created' ? true : undefined),
      'the new file to be noticed',
    );
    // Gone again with its folders, then back: seen both times.
    rmSync(path.join(temp.dir, 'new'), { recursive: true });
    await until(() => (diskState(core.queue, id) === 'unchanged' ? true : undefined), 'the removal');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'once more\n');
    await until(() => (diskState(core.queue, id) === 'created' ? true : undefined), 'the file to be back');
    expect(core.queue.contents(id)[0]!.diskText).toBe('once more\n');
  });

  it('follows a file whose folder is deleted and made again', async () => {
    const file = path.join(temp.dir, 'gone', 'f.txt');
    mkdirSync(path.dirname(file));
    writeFileSync(file, BASE);
    const { id } = await propose(core.queue, file, [temp.dir]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    rmSync(path.dirname(file), { recursive: true });
    await until(() => (diskState(core.queue, id) === 'deleted' ? true : undefined), 'the deletion');
    mkdirSync(path.dirname(file));
    writeFileSync(file, 'rewritten\n');
    await until(() => (diskState(core.queue, id) === 'modified' ? true : undefined), 'the file to be back');
  });
});

describe('editor saves', () => {
  it('sees the last of two rename-over saves made back to back, forty times running', async () => {
    // How editors save: a temporary file renamed over the file, a new inode each time. A watch on the
    // file follows the old inode; chokidar, on the file or on its folder, lost 19–39 of these 40.
    const temp = makeTempDir('watch-saves');
    const dir = realpathSync(temp.dir);
    const core = new AppCore([dir]);
    try {
      core.watchFiles();
      const file = path.join(dir, 'saved.txt');
      writeFileSync(file, BASE);
      const looks = countLooks(core.queue);
      const { id } = await propose(core.queue, file, [dir]);
      await until(() => looks(file) || undefined, 'the watcher to look at the file');
      const save = (text: string) => {
        writeFileSync(`${file}.tmp`, text);
        renameSync(`${file}.tmp`, file);
      };
      for (let i = 0; i < 40; i++) {
        save(`first ${i}\n`);
        save(`second ${i}\n`);
        await until(
          () => (core.queue.contents(id)[0]!.diskText === `second ${i}\n` ? true : undefined),
          `save ${i} to be seen`,
        );
      }
      save(BASE);
      await until(
        () => (diskState(core.queue, id) === 'unchanged' ? true : undefined),
        'the file back as proposed',
      );
    } finally {
      await core.close();
      temp.cleanup();
    }
  }, 30_000);
});

describe('scale', () => {
  it('with 1,000 pending reviews the watcher holds no timer, and lets every path go when they end', async () => {
    const { dir, cleanup } = makeTempDir('watch-scale');
    const real = realpathSync(dir);
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    const core = new AppCore([real]);
    try {
      core.watchFiles();
      const noted = vi.spyOn(core.queue, 'noteDisk');
      const files = Array.from({ length: 1000 }, (_, i) => path.join(real, `f${i}.txt`));
      for (const file of files) writeFileSync(file, BASE);
      // From 20 clients: each may have 100 reviews waiting.
      for (const [i, file] of files.entries()) {
        await propose(core.queue, file, [real], { ...CLIENT, id: `c${i % 20}`, name: `Client ${i % 20}` });
      }
      const looked = () => new Set(noted.mock.calls.map(([file]) => file));
      await until(
        () => (looked().size === files.length ? true : undefined),
        'every file to be looked at',
        30_000,
      );
      expect(core.queue.pendingCount()).toBe(1000);
      expect(watcherCounts(core)).toEqual({ paths: 1000, folders: 1 });
      await until(() => (timers() <= before ? true : undefined), 'no timer beyond those there before');
      core.queue.cancelWhere(() => true, 'done');
      expect(core.queue.pendingPaths().size).toBe(0);
      expect(watcherCounts(core)).toEqual({ paths: 0, folders: 0 });
    } finally {
      await core.close();
      cleanup();
    }
  }, 60_000);
});

describe('PendingPaths and the queue', () => {
  it('tells only the first pending review of a path and the end of its last one', () => {
    const queue = new ReviewQueue();
    const events: Array<[string, boolean]> = [];
    queue.onPendingPath((file, pending) => events.push([file, pending]));
    const base = { exists: false } as const;
    const one = queue.add({
      client: CLIENT,
      title: '1',
      files: [{ path: '/ws/a', base, proposedText: 'x' }],
    });
    const two = queue.add({
      client: CLIENT,
      title: '2',
      files: [
        { path: '/ws/a', base, proposedText: 'y' },
        { path: '/ws/b', base, proposedText: 'y' },
      ],
    });
    queue.reject(one.id);
    expect(events).toEqual([
      ['/ws/a', true],
      ['/ws/b', true],
    ]);
    queue.cancelWhere(() => true, 'gone');
    expect(events.slice(2)).toEqual([
      ['/ws/a', false],
      ['/ws/b', false],
    ]);
    expect(queue.pendingPaths()).toEqual(new Set());
    expect(two.id).toBe('r2');
  });

  it('keeps each path with its holders, the newest last', () => {
    const paths = new PendingPaths<string>();
    const events: string[] = [];
    paths.onChange((file, pending) => events.push(`${pending ? '+' : '-'}${file}`));
    paths.hold('/a', 'r1');
    paths.hold('/a', 'r2');
    expect([...paths.holders('/a')]).toEqual(['r1', 'r2']);
    expect(paths.release('/a', 'r1')).toBe(false);
    expect(paths.release('/a', 'r2')).toBe(true);
    expect(paths.release('/a', 'r2')).toBe(false);
    expect(events).toEqual(['+/a', '-/a']);
  });
});

function watcherCounts(core: AppCore): { paths: number; folders: number } {
  // The watcher is private to AppCore; its counts are what this test is about.
  return (core as unknown as { watcher: { counts: { paths: number; folders: number } } }).watcher.counts;
}
