/**
 * Comments on lines of a review (src-main/core/review/queue/line-comments.ts through ReviewQueue and the
 * app API's putComment): one per line of a side, bounded, refused where there is no such line, and sent
 * with the outcome, quoted from the text as it is when the review ends.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_COMMENT_CHARS,
  MAX_COMMENTS_PER_REVIEW,
  commentsBlock,
  lineCount,
  quoteLine,
} from '../../shared/review-comments';
import { AppCore } from '../../src-main/core/app-core';
import { createAppApiHandler } from '../../src-main/core/app-api-handler';
import type { ProposedFile, ReviewOutcome } from '../../src-main/core/review/review-queue';
import { ReviewError, ReviewQueue } from '../../src-main/core/review/review-queue';
import { testClient } from '../support/clients';

const BASE = 'a\nb\nc\nd\ne\n';
const TWO_HUNKS = 'A\nb\nc\nd\nE\n';

const text = (path: string, baseText = BASE, proposedText = TWO_HUNKS): ProposedFile => ({
  path,
  base: { exists: true, kind: 'text', text: baseText },
  proposedText,
});

function queueWith(files: ProposedFile[] = [text('/ws/a.txt'), text('/ws/b.txt', 'x\n', 'y\n')]) {
  const queue = new ReviewQueue();
  const { id, outcome } = queue.add({ client: testClient({ id: 'c1' }), title: 'Edit', files });
  return { queue, id, outcome };
}

describe('lineCount', () => {
  it('counts lines as an editor shows them', () => {
    expect(lineCount('')).toBe(1);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('a\n')).toBe(2);
    expect(lineCount(BASE)).toBe(6);
  });
});

describe('putComment', () => {
  it('keeps one comment per line of a side, replaces it, and removes it with an empty text', () => {
    const { queue, id } = queueWith();
    queue.putComment(id, { fileIndex: 0, side: 'proposed', line: 0, text: 'why capital?' });
    queue.putComment(id, { fileIndex: 0, side: 'base', line: 0, text: 'the old one' });
    queue.putComment(id, { fileIndex: 0, side: 'proposed', line: 0, text: '  why a capital?  ' });
    expect(queue.summary(id).comments).toEqual([
      { fileIndex: 0, side: 'proposed', line: 0, text: 'why a capital?' },
      { fileIndex: 0, side: 'base', line: 0, text: 'the old one' },
    ]);
    // The list every window gets carries them too.
    expect(queue.item(id)!.comments).toHaveLength(2);
    queue.putComment(id, { fileIndex: 0, side: 'proposed', line: 0, text: '' });
    queue.putComment(id, { fileIndex: 0, side: 'base', line: 0, text: '   ' });
    expect(queue.summary(id).comments).toBeUndefined();
    // Removing where there is none changes nothing.
    queue.putComment(id, { fileIndex: 1, side: 'proposed', line: 0, text: '' });
    expect(queue.summary(id).comments).toBeUndefined();
  });

  it('refuses a file or line the review does not have', () => {
    const { queue, id } = queueWith();
    expect(() => queue.putComment(id, { fileIndex: 2, side: 'proposed', line: 0, text: 'x' })).toThrow(
      'has no file 2',
    );
    // BASE has six lines as an editor counts them (the last is empty): 0..5.
    queue.putComment(id, { fileIndex: 0, side: 'base', line: 5, text: 'the end' });
    expect(() => queue.putComment(id, { fileIndex: 0, side: 'base', line: 6, text: 'x' })).toThrow(
      'has 6 lines on the base side: no line 7',
    );
    expect(() => queue.putComment(id, { fileIndex: 1, side: 'proposed', line: 2, text: 'x' })).toThrow(
      ReviewError,
    );
    expect(queue.summary(id).comments).toHaveLength(1);
  });

  it('refuses a review that has ended', () => {
    const { queue, id } = queueWith();
    queue.reject(id);
    expect(() => queue.putComment(id, { fileIndex: 0, side: 'proposed', line: 0, text: 'late' })).toThrow(
      'already rejected',
    );
  });

  it(`holds at most ${MAX_COMMENTS_PER_REVIEW} comments, and each at most the note limit`, () => {
    const many = Array.from({ length: MAX_COMMENTS_PER_REVIEW + 1 }, (_, i) => `line ${i}`).join('\n');
    const { queue, id } = queueWith([text('/ws/long.txt', many, `${many}!`)]);
    for (let line = 0; line < MAX_COMMENTS_PER_REVIEW; line++) {
      queue.putComment(id, { fileIndex: 0, side: 'proposed', line, text: `c${line}` });
    }
    expect(() =>
      queue.putComment(id, {
        fileIndex: 0,
        side: 'proposed',
        line: MAX_COMMENTS_PER_REVIEW,
        text: 'one more',
      }),
    ).toThrow(`at most ${MAX_COMMENTS_PER_REVIEW} comments`);
    // Replacing or removing one still works at the cap.
    queue.putComment(id, { fileIndex: 0, side: 'proposed', line: 0, text: 'again' });
    queue.putComment(id, { fileIndex: 0, side: 'proposed', line: 1, text: '' });
    queue.putComment(id, { fileIndex: 0, side: 'proposed', line: MAX_COMMENTS_PER_REVIEW, text: 'fits now' });
    expect(queue.summary(id).comments).toHaveLength(MAX_COMMENTS_PER_REVIEW);
  });

  it('is an app API call whose schema bounds the text, and whose refusals reach the window', async () => {
    const core = new AppCore(['/ws']);
    const { id } = core.queue.add({
      client: testClient({ id: 'c1' }),
      title: 'Edit',
      files: [text('/ws/a.txt')],
    });
    const handler = createAppApiHandler(core);
    await handler('putComment', {
      reviewId: id,
      fileIndex: 0,
      side: 'proposed',
      line: 4,
      text: 'capital E?',
    });
    expect(core.queue.summary(id).comments).toEqual([
      { fileIndex: 0, side: 'proposed', line: 4, text: 'capital E?' },
    ]);
    const long = 'x'.repeat(MAX_COMMENT_CHARS + 1);
    await expect(
      handler('putComment', { reviewId: id, fileIndex: 0, side: 'proposed', line: 0, text: long }),
    ).rejects.toThrow('Invalid parameters for putComment');
    await expect(
      handler('putComment', { reviewId: id, fileIndex: 0, side: 'middle', line: 0, text: 'x' }),
    ).rejects.toThrow('Invalid parameters for putComment');
    await expect(
      handler('putComment', { reviewId: id, fileIndex: 0, side: 'proposed', line: 99, text: 'x' }),
    ).rejects.toThrow('no line 100');
  });
});

describe('the outcome', () => {
  it('carries the comments with path, 1-based line and the line quoted as it is at submit', async () => {
    const { queue, id, outcome } = queueWith();
    queue.putComment(id, { fileIndex: 1, side: 'proposed', line: 0, text: 'why y?' });
    queue.putComment(id, { fileIndex: 0, side: 'proposed', line: 4, text: 'keep it small' });
    queue.putComment(id, { fileIndex: 0, side: 'base', line: 1, text: 'was fine' });
    // The person edits the line after commenting: the quote is the text that is submitted.
    queue.editProposal(id, 0, 'A\nb\nc\nd\nE (big)\n');
    queue.submit(id, 'thanks');
    const ended = await outcome;
    expect(ended).toMatchObject({ kind: 'accepted', note: 'thanks' });
    expect(ended.kind === 'accepted' && ended.comments).toEqual([
      { path: '/ws/a.txt', side: 'base', line: 2, quote: 'b', text: 'was fine' },
      { path: '/ws/a.txt', side: 'proposed', line: 5, quote: 'E (big)', text: 'keep it small' },
      { path: '/ws/b.txt', side: 'proposed', line: 1, quote: 'y', text: 'why y?' },
    ]);
    // History keeps them.
    expect(queue.summary(id).comments).toHaveLength(3);
  });

  it('carries them when a submit rejects every hunk, and when the review is rejected', async () => {
    const all = queueWith();
    all.queue.putComment(all.id, { fileIndex: 0, side: 'base', line: 0, text: 'keep lower case' });
    all.queue.decideAll(all.id, 'rejected');
    all.queue.submit(all.id);
    const rejectedBySubmit: ReviewOutcome = await all.outcome;
    expect(rejectedBySubmit).toEqual({
      kind: 'rejected',
      reason: 'every hunk rejected',
      comments: [{ path: '/ws/a.txt', side: 'base', line: 1, quote: 'a', text: 'keep lower case' }],
    });

    const rejected = queueWith();
    rejected.queue.putComment(rejected.id, { fileIndex: 1, side: 'proposed', line: 0, text: 'no' });
    rejected.queue.reject(rejected.id, 'split it');
    expect(await rejected.outcome).toEqual({
      kind: 'rejected',
      reason: 'split it',
      comments: [{ path: '/ws/b.txt', side: 'proposed', line: 1, quote: 'y', text: 'no' }],
    });
  });

  it('has no comments field when there are none', async () => {
    const { queue, id, outcome } = queueWith();
    queue.submit(id);
    expect(await outcome).not.toHaveProperty('comments');
  });
});

describe('how comments read for the model', () => {
  it('quotes the line trimmed, and names the file and line', () => {
    expect(quoteLine('  one\n\ttwo  \n', 1)).toBe('two');
    expect(quoteLine('one', 3)).toBe('');
    expect(
      commentsBlock([
        { path: 'src/a.ts', side: 'proposed', line: 12, quote: 'const x = 1;', text: 'name it' },
      ]),
    ).toBe('Comments from the reviewer:\n- src/a.ts:12 ("const x = 1;"): name it');
  });
});
