/**
 * ReviewQueue.growReview, watch mode's one growing review per folder: files added, a file changed again
 * takes the new text against the same base with its decisions reset (and said so), and what the review
 * holds stays counted. FolderPause: held paths, bounded.
 */
import { describe, expect, it } from 'vitest';
import type { ProposedFile } from '../../src-main/core/review/review-queue';
import { ReviewError, ReviewQueue } from '../../src-main/core/review/review-queue';
import { FolderPause, MAX_HELD_PATHS } from '../../src-main/core/watch/folder-pause';
import { testClient } from '../support/clients';

const BASE = 'a\nb\nc\nd\ne\n';
const text = (value: string) => ({ exists: true as const, kind: 'text' as const, text: value });
const written = (path: string, proposedText: string): ProposedFile => ({
  path,
  base: text(BASE),
  proposedText,
  onDisk: text(proposedText),
});
const client = testClient({ id: 'w', name: 'Changes on disk' });

describe('ReviewQueue.growReview', () => {
  it('adds new files, replaces a changed one against its base, resets its decisions and says so', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add({
      client,
      title: 'Changes on disk: a',
      files: [written('/w/a', 'A\nb\nc\nd\ne\n')],
    });
    queue.decideHunks(id, 0, [0], 'rejected');
    const before = queue.fileStates(id)![0]!;
    const bytesBefore = queue.retainedTextBytes();

    const reset = queue.growReview(
      id,
      [written('/w/a', 'A\nb\nC\nd\ne\n'), written('/w/b', 'new\n')],
      'Changes on disk: a, b',
    );

    expect(reset).toEqual(['/w/a']);
    const summary = queue.summary(id);
    expect(summary.title).toBe('Changes on disk: a, b');
    expect(summary.files.map((file) => file.path)).toEqual(['/w/a', '/w/b']);
    expect(summary.files[0]!.hunks.map((hunk) => hunk.decision)).toEqual(['pending', 'pending']);
    expect(summary.notes).toEqual([
      'Changed again on disk while waiting; what was decided in it was reset: /w/a',
    ]);
    const [a] = queue.contents(id);
    expect(a).toMatchObject({ baseText: BASE, proposedText: 'A\nb\nC\nd\ne\n' });
    expect(queue.fileStates(id)![0]!.contentRevision).toBe(before.contentRevision + 1);
    expect(queue.hasPendingPath('/w/b')).toBe(true);
    expect(queue.retainedTextBytes()).toBeGreaterThan(bytesBefore);
    // The decision made on the old text cannot be undone onto the new one.
    expect(() => queue.undo(id)).toThrow(ReviewError);
  });

  it('a file changed again with nothing decided is replaced without a note', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add({ client, title: 't', files: [written('/w/a', 'A\n')] });
    expect(queue.growReview(id, [written('/w/a', 'AA\n')], 't')).toEqual([]);
    expect(queue.summary(id).notes).toBeUndefined();
  });

  it('refuses an ended review', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add({ client, title: 't', files: [written('/w/a', 'A\n')] });
    queue.reject(id);
    expect(() => queue.growReview(id, [written('/w/b', 'B\n')], 't')).toThrow(ReviewError);
  });
});

describe('FolderPause', () => {
  it('holds paths while paused and answers them on resume, the first reason kept', () => {
    const pause = new FolderPause();
    expect(pause.resume()).toBeUndefined();
    expect(pause.pause('too many files', ['/w/a'])).toBe(true);
    expect(pause.pause('another limit', ['/w/b'])).toBe(false);
    pause.hold(['/w/a', '/w/c']);
    expect(pause.state).toMatchObject({ reason: 'too many files', heldChanges: 3 });
    expect(pause.resume()).toEqual({ files: ['/w/a', '/w/b', '/w/c'] });
    expect(pause.state).toBeUndefined();
  });

  it(`past ${MAX_HELD_PATHS} paths, resuming looks at every file`, () => {
    const pause = new FolderPause();
    pause.pause(
      'limit',
      Array.from({ length: MAX_HELD_PATHS + 1 }, (_, i) => `/w/${i}`),
    );
    expect(pause.state?.heldChanges).toBe(MAX_HELD_PATHS + 1);
    expect(pause.resume()).toEqual({ all: true });
  });
});
