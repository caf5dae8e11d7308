import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DiskState } from '../../shared/app-api';
import { AppCore } from '../../src-main/core/app-core';
import { refreshFromDisk, submitWithDiskCheck } from '../../src-main/core/disk/disk-guard';
import { readProposalBase } from '../../src-main/core/review/proposal-base';
import { ReviewError, ReviewQueue } from '../../src-main/core/review/review-queue';
import { testClient } from '../support/clients';
import { messageOf } from '../../shared/error-message';

const CLIENT = testClient();
const BASE = 'a\nb\nc\n';
const PROPOSED = 'a\nB\nc\n';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-guard-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A real file holding `text`, and a review of it made from what is on disk, as the bridges do. */
async function proposeFor(
  queue: ReviewQueue,
  name: string,
  text: string | undefined,
  proposedText = PROPOSED,
) {
  const file = path.join(dir, name);
  if (text !== undefined) writeFileSync(file, text);
  const base = await readProposalBase(file, [dir]);
  const review = queue.add({ client: CLIENT, title: name, files: [{ path: file, base, proposedText }] });
  return { file, ...review };
}

describe('submitWithDiskCheck', () => {
  it('submits when the file on disk is unchanged since the proposal', async () => {
    const queue = new ReviewQueue();
    const { file, id, outcome } = await proposeFor(queue, 'a.txt', BASE);
    await submitWithDiskCheck(queue, id, [dir]);
    await expect(outcome).resolves.toEqual({
      kind: 'accepted',
      files: [
        { path: file, expectedOnDisk: expect.anything(), changed: true, baseText: BASE, finalText: PROPOSED },
      ],
    });
  });

  it('refuses, keeping the review pending, when the file changed on disk after the proposal', async () => {
    const queue = new ReviewQueue();
    const { file, id } = await proposeFor(queue, 'a.txt', BASE);
    writeFileSync(file, 'a\nb\nc\nd\n');
    const error = await submitWithDiskCheck(queue, id, [dir]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReviewError);
    expect(messageOf(error)).toMatch(/changed on disk \(modified\)/);
    expect(messageOf(error)).toContain(file);
    const summary = queue.summary(id);
    expect(summary.state).toBe('pending');
    expect(summary.files[0]!.disk.state).toBe('modified');
    expect(queue.contents(id)[0]!.diskText).toBe('a\nb\nc\nd\n');
  });

  it('refuses when the file was deleted, and goes through once it is back as it was', async () => {
    const queue = new ReviewQueue();
    const { file, id, outcome } = await proposeFor(queue, 'a.txt', BASE);
    unlinkSync(file);
    await expect(submitWithDiskCheck(queue, id, [dir])).rejects.toThrow(/changed on disk \(deleted\)/);
    writeFileSync(file, BASE);
    await submitWithDiskCheck(queue, id, [dir]);
    await expect(outcome).resolves.toMatchObject({ kind: 'accepted' });
  });

  it('refuses a new file that someone else created meanwhile', async () => {
    const queue = new ReviewQueue();
    const { file, id } = await proposeFor(queue, 'new.txt', undefined, 'mine\n');
    expect(queue.summary(id).files[0]!.isNewFile).toBe(true);
    writeFileSync(file, 'theirs\n');
    await expect(submitWithDiskCheck(queue, id, [dir])).rejects.toThrow(/changed on disk \(created\)/);
  });

  it('submits a rebased review, since the rebase adopted the disk text', async () => {
    const queue = new ReviewQueue();
    const { file, id, outcome } = await proposeFor(queue, 'a.txt', BASE);
    writeFileSync(file, 'a\nb\nc\nd\n');
    await expect(submitWithDiskCheck(queue, id, [dir])).rejects.toThrow(ReviewError);
    queue.rebase(id, 0);
    await submitWithDiskCheck(queue, id, [dir]);
    await expect(outcome).resolves.toEqual({
      kind: 'accepted',
      files: [
        {
          path: file,
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: 'a\nb\nc\nd\n',
          finalText: 'a\nB\nc\nd\n',
        },
      ],
    });
  });

  it('an unknown review is a ReviewError', async () => {
    await expect(submitWithDiskCheck(new ReviewQueue(), 'r9', [dir])).rejects.toBeInstanceOf(ReviewError);
  });
});

describe('refreshFromDisk', () => {
  it('notes each path and skips what cannot be read', async () => {
    const queue = new ReviewQueue();
    const { file, id } = await proposeFor(queue, 'a.txt', BASE);
    const folder = path.join(dir, 'folder');
    mkdirSync(folder);
    writeFileSync(file, 'other\n');
    await expect(refreshFromDisk(queue, [folder, file], [dir])).resolves.toBeUndefined();
    expect(queue.summary(id).files[0]!.disk.state).toBe('modified');
  });
});

describe('AppCore.watchFiles', () => {
  let core: AppCore;

  beforeEach(() => {
    core = new AppCore([dir]);
    core.watchFiles();
  });

  afterEach(async () => {
    await core.close();
  });

  /** Polls the snapshot every 50 ms, up to 5 s, until the file's disk state is `wanted`. */
  async function diskStateBecomes(reviewId: string, wanted: DiskState): Promise<DiskState | undefined> {
    let seen: DiskState | undefined;
    for (let waited = 0; waited <= 5000; waited += 50) {
      seen = core.snapshot().reviews.find((r) => r.id === reviewId)?.files[0]?.disk.state;
      if (seen === wanted) return seen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return seen;
  }

  it('flags a file modified on disk, and clears the flag when the text is restored', async () => {
    const { file, id } = await proposeFor(core.queue, 'a.txt', BASE);
    expect(core.snapshot().reviews[0]!.files[0]!.disk.state).toBe('unchanged');
    // Let the watcher's first look at the file pass, so that only watch events can report the change.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(core.snapshot().reviews[0]!.files[0]!.disk.state).toBe('unchanged');
    // The watch is set up asynchronously: writing until the flag shows does not depend on how long that takes.
    let state: DiskState | undefined;
    for (let i = 0; i < 3 && state !== 'modified'; i++) {
      writeFileSync(file, `changed ${i}\n`);
      state = await diskStateBecomes(id, 'modified');
    }
    expect(state).toBe('modified');
    expect(core.queue.contents(id)[0]!.diskText).toMatch(/^changed \d\n$/);

    writeFileSync(file, BASE);
    expect(await diskStateBecomes(id, 'unchanged')).toBe('unchanged');
    expect(core.snapshot().reviews[0]!.files[0]!.disk).toStrictEqual({ state: 'unchanged' });
  });

  it('flags a file deleted on disk, and clears the flag when it comes back as it was', async () => {
    const { file, id } = await proposeFor(core.queue, 'a.txt', BASE);
    await new Promise((resolve) => setTimeout(resolve, 200));
    unlinkSync(file);
    expect(await diskStateBecomes(id, 'deleted')).toBe('deleted');
    writeFileSync(file, BASE);
    expect(await diskStateBecomes(id, 'unchanged')).toBe('unchanged');
  });

  it('sees a file replaced by rename, as editors save atomically', async () => {
    const { file, id } = await proposeFor(core.queue, 'a.txt', BASE);
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(path.join(dir, 'a.txt.tmp'), 'saved by an editor\n');
    renameSync(path.join(dir, 'a.txt.tmp'), file);
    expect(await diskStateBecomes(id, 'modified')).toBe('modified');
    writeFileSync(path.join(dir, 'a.txt.tmp'), BASE);
    renameSync(path.join(dir, 'a.txt.tmp'), file);
    expect(await diskStateBecomes(id, 'unchanged')).toBe('unchanged');
  });

  it('close() can be called twice', async () => {
    await core.close();
    await core.close();
  });
});
