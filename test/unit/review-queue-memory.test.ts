/**
 * Finding 4 (issue 7), memory: History is bounded by the bytes of its texts as well as by count, and
 * reviews nobody answered let go of their texts at once. Measured through the queue's own count of the
 * text bytes it keeps, not by RSS.
 */
import { describe, expect, it } from 'vitest';
import type { ClientInfo } from '../../shared/app-api';
import {
  HISTORY_MAX_REVIEWS,
  HISTORY_MAX_TEXT_BYTES,
  MAX_LABEL_CHARS,
  MAX_NOTE_CHARS,
  MAX_PENDING_REVIEWS_PER_CLIENT,
  MAX_PENDING_TEXT_BYTES,
  MAX_PENDING_TEXT_BYTES_PER_CLIENT,
} from '../../src-main/core/limits';
import type { ReviewRequest } from '../../src-main/core/review/review-queue';
import {
  ReviewQueue,
  ReviewTextsDroppedError,
  TooManyPendingReviewsError,
} from '../../src-main/core/review/review-queue';

const MB = 1024 * 1024;

function client(id: string): ClientInfo {
  return { id, name: `Agent ${id}`, protocol: 'clio', connectedAt: 1, connected: true };
}

/** A one-file proposal whose base and proposed texts each take `bytes` (one long line: one hunk). */
function proposal(bytes: number, extra: Partial<ReviewRequest> = {}, who = client('c1')): ReviewRequest {
  const base = `${'b'.repeat(bytes - 1)}\n`;
  return {
    client: who,
    title: 'big.txt',
    files: [
      {
        path: '/ws/big.txt',
        base: { exists: true, kind: 'text', text: base },
        proposedText: `${'p'.repeat(bytes - 1)}\n`,
      },
    ],
    ...extra,
  };
}

describe('history by bytes', () => {
  it('after 21,000 proposals cancelled or superseded, with nothing pending, keeps no texts and at most the history count', () => {
    const queue = new ReviewQueue();
    for (let i = 0; i < 7_000; i++) {
      // A proposal closed by its client, and one replaced by a newer proposal under the same tab.
      queue.add(proposal(8 * 1024));
      queue.cancelWhere(() => true, 'closed by the client');
      queue.add(proposal(8 * 1024, { tabName: 'same' }));
      queue.add(proposal(8 * 1024, { tabName: 'same' }));
      queue.cancelWhere(() => true, 'client disconnected');
    }
    expect(queue.pendingCount()).toBe(0);
    expect(queue.retainedTextBytes()).toBe(0);
    const history = queue.summaries();
    expect(history).toHaveLength(HISTORY_MAX_REVIEWS);
    // Each keeps its summary: title, client, outcome, per-file and per-hunk decisions.
    expect(history.at(-1)).toMatchObject({
      title: 'big.txt',
      client: { id: 'c1' },
      state: 'cancelled',
      reason: 'client disconnected',
      textsDropped: true,
      files: [{ path: '/ws/big.txt', hunks: [{ decision: 'pending' }] }],
    });
    expect(history.some((review) => review.state === 'superseded')).toBe(true);
  });

  it('answered reviews that leave History by count take the bytes of their texts with them', () => {
    const queue = new ReviewQueue();
    const ids: string[] = [];
    for (let i = 0; i < HISTORY_MAX_REVIEWS + 30; i++) {
      const { id } = queue.add(proposal(1024, { title: `review ${i}` }));
      queue.submit(id);
      ids.push(id);
    }
    // Every review kept holds its two texts of 1 KB; the 30 gone hold nothing, and are gone whole.
    expect(queue.retainedTextBytes()).toBe(HISTORY_MAX_REVIEWS * 2 * 1024);
    expect(queue.find(ids[29]!)).toBeUndefined();
    expect(queue.find(ids[30]!)).toMatchObject({ title: 'review 30', state: 'accepted' });
    expect(queue.items()).toHaveLength(HISTORY_MAX_REVIEWS);
  });

  it('keeps the texts of answered reviews up to the byte budget; older ones keep their summaries only', async () => {
    const queue = new ReviewQueue();
    const perReview = 2 * MB; // base and proposal, 1 MB each
    const count = Math.ceil(HISTORY_MAX_TEXT_BYTES / perReview) + 8;
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const { id } = queue.add(proposal(MB, { title: `review ${i}` }));
      if (i % 2 === 0) {
        queue.decideAll(id, 'accepted');
        queue.submit(id);
      } else queue.reject(id, 'not this one');
      ids.push(id);
    }
    expect(queue.retainedTextBytes()).toBeLessThanOrEqual(HISTORY_MAX_TEXT_BYTES);
    expect(queue.retainedTextBytes()).toBeGreaterThan(HISTORY_MAX_TEXT_BYTES - 2 * perReview);

    const oldest = queue.summary(ids[0]!);
    expect(oldest).toMatchObject({
      title: 'review 0',
      state: 'accepted',
      textsDropped: true,
      files: [{ path: '/ws/big.txt', fileDecision: 'accepted', hunks: [{ decision: 'accepted' }] }],
    });
    expect(queue.summary(ids[1]!)).toMatchObject({
      state: 'rejected',
      reason: 'not this one',
      textsDropped: true,
    });
    expect(() => queue.contents(ids[0]!)).toThrow(ReviewTextsDroppedError);
    expect(() => queue.contents(ids[0]!)).toThrow(/no longer kept/);
    expect(queue.paths(ids[0]!)).toEqual(['/ws/big.txt']);

    const newest = ids.at(-1)!;
    expect(queue.summary(newest).textsDropped).toBeUndefined();
    expect(queue.contents(newest)[0]!.proposedText).toHaveLength(MB);
  });

  it('a pending review keeps its texts however much history there is', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(proposal(MB, {}, client('waiting')));
    for (let i = 0; i < 40; i++) queue.reject(queue.add(proposal(MB)).id);
    expect(queue.summary(id).textsDropped).toBeUndefined();
    expect(queue.contents(id)[0]!.baseText).toHaveLength(MB);
  });

  it('cancelled and superseded reviews let go of their texts at once; rejected ones keep them', () => {
    const queue = new ReviewQueue();
    const rejected = queue.add(proposal(1024)).id;
    queue.reject(rejected, 'no');
    const superseded = queue.add(proposal(1024, { tabName: 't' })).id;
    const cancelled = queue.add(proposal(1024, { tabName: 't' })).id;
    queue.cancelWhere(() => true, 'closed by the client');
    expect(queue.summary(superseded)).toMatchObject({ state: 'superseded', textsDropped: true });
    expect(queue.summary(cancelled)).toMatchObject({ state: 'cancelled', textsDropped: true });
    expect(() => queue.contents(cancelled)).toThrow(ReviewTextsDroppedError);
    expect(queue.contents(rejected)).toHaveLength(1);
    expect(queue.retainedTextBytes()).toBe(2 * 1024);
  });
});

describe('the bytes an ended review is counted for', () => {
  it('are its proposal’s texts when left as proposed, and the edited text too once edited', () => {
    const queue = new ReviewQueue();
    queue.submit(queue.add(proposal(1024)).id);
    expect(queue.retainedTextBytes()).toBe(2 * 1024);
    const edited = queue.add(proposal(1024)).id;
    queue.editProposal(edited, 0, `${'e'.repeat(511)}\n`);
    queue.submit(edited);
    expect(queue.retainedTextBytes()).toBe(2 * 1024 + 3 * 1024 - 512);
  });

  it('count the disk text a review saw, once it was seen changed', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(proposal(1024));
    queue.noteDisk('/ws/big.txt', { exists: true, kind: 'text', text: `${'d'.repeat(255)}\n` });
    queue.reject(id);
    expect(queue.retainedTextBytes()).toBe(2 * 1024 + 256);
  });
});

describe('what every snapshot carries', () => {
  it('holds titles, descriptions and notes to their limits, whatever an adapter composed', () => {
    const queue = new ReviewQueue();
    const request = proposal(16, {
      title: 't'.repeat(MAX_LABEL_CHARS + 10),
      description: 'd'.repeat(10 * MB),
    });
    const { id } = queue.add(request);
    queue.addNote(id, 'n'.repeat(MAX_NOTE_CHARS * 2));
    const summary = queue.summary(id);
    expect(summary.title).toHaveLength(MAX_LABEL_CHARS);
    expect(summary.description).toHaveLength(MAX_NOTE_CHARS);
    expect(summary.description).toMatch(/… \(cut: too long\)$/);
    expect(summary.notes![0]).toHaveLength(MAX_NOTE_CHARS);
    // Adapters find their reviews again by the request they gave.
    expect(queue.cancelWhere((r) => r === request, 'closed')).toBe(1);
  });
});

describe('pending reviews per client', () => {
  it('refuses one more than the cap with TooManyPendingReviewsError, and only for that client', async () => {
    const queue = new ReviewQueue();
    const first = queue.add(proposal(16, { tabName: 'tab 0' }));
    for (let i = 1; i < MAX_PENDING_REVIEWS_PER_CLIENT; i++) queue.add(proposal(16, { tabName: `tab ${i}` }));
    expect(() => queue.add(proposal(16, { tabName: 'one more' }))).toThrow(TooManyPendingReviewsError);
    expect(() => queue.add(proposal(16))).toThrow(/Too many pending reviews: Agent c1 already has 100/);
    expect(queue.pendingCount()).toBe(MAX_PENDING_REVIEWS_PER_CLIENT);

    // Another client is not held back; a newer proposal for a tab already waiting replaces it.
    queue.add(proposal(16, {}, client('c2')));
    const replaced = queue.add(proposal(16, { tabName: 'tab 0' }));
    await expect(first.outcome).resolves.toEqual({ kind: 'superseded' });
    expect(queue.pendingCount()).toBe(MAX_PENDING_REVIEWS_PER_CLIENT + 1);

    // Once the person decides one, the client may propose again.
    queue.reject(replaced.id);
    expect(() => queue.add(proposal(16, { tabName: 'now fine' }))).not.toThrow();
  });
});

describe('pending reviews by bytes', () => {
  it('refuses a proposal that would make one client hold more than its share of text, then all clients', () => {
    const queue = new ReviewQueue();
    const perReview = 20 * MB; // a 10 MB base and a 10 MB proposal
    const fit = Math.floor(MAX_PENDING_TEXT_BYTES_PER_CLIENT / perReview);
    for (let i = 0; i < fit; i++) queue.add(proposal(10 * MB, { tabName: `t${i}` }));
    expect(() => queue.add(proposal(10 * MB, { tabName: 'more' }))).toThrow(
      /Agent c1's proposals waiting for a decision would hold more than 256 MB of text/,
    );
    // A superseding proposal of the same size takes the old one's room.
    expect(() => queue.add(proposal(10 * MB, { tabName: 't0' }))).not.toThrow();
    // Other clients fill the rest of the app's budget, and then are refused too.
    let refused: unknown;
    for (let c = 2; c < 10 && !refused; c++) {
      for (let i = 0; i < fit && !refused; i++) {
        try {
          queue.add(proposal(10 * MB, { tabName: `t${i}` }, client(`c${c}`)));
        } catch (error) {
          refused = error;
        }
      }
    }
    expect(refused).toBeInstanceOf(TooManyPendingReviewsError);
    expect(String(refused)).toMatch(/more than 512 MB of text in all/);
    expect(queue.retainedTextBytes()).toBeLessThanOrEqual(MAX_PENDING_TEXT_BYTES);
  });
});
