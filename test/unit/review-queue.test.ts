import { describe, it, expect, vi } from 'vitest';
import type { ClientInfo } from '../../shared/app-api';
import { computeHunks } from '../../shared/hunks';
import type { ProposedFile, ReviewOutcome, ReviewRequest } from '../../src-main/core/review/review-queue';
import { ReviewError, ReviewQueue, ReviewTextsDroppedError } from '../../src-main/core/review/review-queue';
import { testClient } from '../support/clients';

// ---------------------------------------------------------------------------------------------
// Fixtures

const client = (id: string, name = `Client ${id}`): ClientInfo => testClient({ id, name });

/** Five lines; TWO_HUNKS changes the first and the last, so there are exactly two hunks. */
const BASE = 'a\nb\nc\nd\ne\n';
const TWO_HUNKS = 'A\nb\nc\nd\nE\n';

function file(path: string, baseText = BASE, proposedText = TWO_HUNKS, isNewFile = false): ProposedFile {
  return {
    path,
    base: isNewFile ? { exists: false } : { exists: true, kind: 'text', text: baseText },
    proposedText,
  };
}

function request(overrides: Partial<ReviewRequest> = {}): ReviewRequest {
  return { client: client('c1'), title: 'Edit', files: [file('/ws/a.txt')], ...overrides };
}

/** A clock that advances by one on every read, so createdAt/decidedAt are distinct and predictable. */
function ticking(start = 1000): () => number {
  let t = start;
  return () => t++;
}

/** Whether a promise has settled yet (after letting pending microtasks run). */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  return settled;
}

function decisionsOf(queue: ReviewQueue, id: string, fileIndex = 0): string[] {
  return queue.summary(id).files[fileIndex]!.hunks.map((h) => h.decision);
}

// ---------------------------------------------------------------------------------------------

describe('ReviewQueue.add', () => {
  it('keeps reviews in arrival order with distinct ids', () => {
    const queue = new ReviewQueue(ticking());
    const a = queue.add(request({ title: 'first' }));
    const b = queue.add(request({ title: 'second', client: client('c2') }));
    const c = queue.add(request({ title: 'third', client: client('c3') }));
    const summaries = queue.summaries();
    expect(summaries.map((s) => s.title)).toEqual(['first', 'second', 'third']);
    expect(summaries.map((s) => s.id)).toEqual([a.id, b.id, c.id]);
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    expect(summaries.map((s) => s.createdAt)).toEqual([1000, 1001, 1002]);
  });

  it('computes the hunks of every file, all pending, at content revision 1', () => {
    const queue = new ReviewQueue(() => 5);
    const { id } = queue.add(
      request({ files: [file('/ws/a.txt'), file('/ws/new.txt', '', 'x\ny\n', true)] }),
    );
    const [first, second] = queue.summary(id).files;
    expect(first).toEqual({
      path: '/ws/a.txt',
      isNewFile: false,
      binary: false,
      fileDecision: 'pending',
      contentRevision: 1,
      hunkCount: 2,
      disk: { state: 'unchanged' },
      conflicts: 0,
      hunks: [
        { index: 0, baseStart: 0, baseEnd: 1, proposedStart: 0, proposedEnd: 1, decision: 'pending' },
        { index: 1, baseStart: 4, baseEnd: 5, proposedStart: 4, proposedEnd: 5, decision: 'pending' },
      ],
    });
    expect(second).toEqual({
      path: '/ws/new.txt',
      isNewFile: true,
      binary: false,
      fileDecision: 'pending',
      contentRevision: 1,
      hunkCount: 1,
      disk: { state: 'unchanged' },
      conflicts: 0,
      hunks: [{ index: 0, baseStart: 0, baseEnd: 0, proposedStart: 0, proposedEnd: 2, decision: 'pending' }],
    });
    // Same as the shared hunk model says.
    expect(first!.hunks.map(({ decision: _d, ...h }) => h)).toEqual(computeHunks(BASE, TWO_HUNKS));
  });

  it('returns an outcome promise that stays pending until the review ends', async () => {
    const queue = new ReviewQueue();
    const { outcome } = queue.add(request());
    expect(await isSettled(outcome)).toBe(false);
    expect(queue.pendingCount()).toBe(1);
  });

  it('does not let later mutation of the request files change the review', () => {
    const queue = new ReviewQueue();
    const files = [file('/ws/a.txt')];
    const { id } = queue.add(request({ files }));
    files[0]!.proposedText = 'zzz\n';
    expect(queue.contents(id)[0]!.proposedText).toBe(TWO_HUNKS);
  });
});

describe('ReviewQueue decisions', () => {
  it('decideHunks sets only the listed hunks', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request());
    queue.decideHunks(id, 0, [1], 'rejected');
    expect(decisionsOf(queue, id)).toEqual(['pending', 'rejected']);
    queue.decideHunks(id, 0, [0, 1], 'accepted');
    expect(decisionsOf(queue, id)).toEqual(['accepted', 'accepted']);
    queue.decideHunks(id, 0, [0], 'pending');
    expect(decisionsOf(queue, id)).toEqual(['pending', 'accepted']);
    // An empty list is refused rather than recorded as an undo step that does nothing.
    expect(() => queue.decideHunks(id, 0, [], 'rejected')).toThrow(ReviewError);
    expect(decisionsOf(queue, id)).toEqual(['pending', 'accepted']);
  });

  it('decideHunks addresses the right file of a multi-file review', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request({ files: [file('/ws/a.txt'), file('/ws/b.txt')] }));
    queue.decideHunks(id, 1, [0], 'rejected');
    expect(decisionsOf(queue, id, 0)).toEqual(['pending', 'pending']);
    expect(decisionsOf(queue, id, 1)).toEqual(['rejected', 'pending']);
  });

  it('decideAll sets every hunk of every file', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request({ files: [file('/ws/a.txt'), file('/ws/b.txt', '', 'new\n', true)] }));
    queue.decideHunks(id, 0, [0], 'accepted');
    queue.decideAll(id, 'rejected');
    expect(decisionsOf(queue, id, 0)).toEqual(['rejected', 'rejected']);
    expect(decisionsOf(queue, id, 1)).toEqual(['rejected']);
    queue.decideAll(id, 'pending');
    expect(decisionsOf(queue, id, 0)).toEqual(['pending', 'pending']);
    expect(decisionsOf(queue, id, 1)).toEqual(['pending']);
  });

  it('decideHunks validates every index before changing anything', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request());
    expect(() => queue.decideHunks(id, 0, [0, 2], 'rejected')).toThrow(ReviewError);
    expect(decisionsOf(queue, id)).toEqual(['pending', 'pending']);
  });
});

describe('ReviewQueue.submit', () => {
  it('composes final texts: pending counts as accepted, rejected hunks keep base lines', async () => {
    const queue = new ReviewQueue(ticking());
    const { id, outcome } = queue.add(
      request({
        files: [file('/ws/a.txt'), file('/ws/b.txt', 'one\ntwo\n', 'ONE\ntwo\nthree\n')],
      }),
    );
    queue.decideHunks(id, 0, [1], 'rejected'); // hunk 0 of a.txt stays pending
    queue.decideHunks(id, 1, [0, 1], 'accepted');
    const returned = queue.submit(id);
    const expected: ReviewOutcome = {
      kind: 'accepted',
      files: [
        {
          path: '/ws/a.txt',
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: BASE,
          finalText: 'A\nb\nc\nd\ne\n',
        },
        {
          path: '/ws/b.txt',
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: 'one\ntwo\n',
          finalText: 'ONE\ntwo\nthree\n',
        },
      ],
    };
    expect(returned).toEqual(expected);
    await expect(outcome).resolves.toEqual(expected);
    const summary = queue.summary(id);
    expect(summary.state).toBe('accepted');
    expect(summary).not.toHaveProperty('reason');
    expect(typeof summary.decidedAt).toBe('number');
    expect(summary.decidedAt).toBeGreaterThan(summary.createdAt);
    expect(queue.pendingCount()).toBe(0);
  });

  it('with every hunk pending gives the proposed text', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = queue.add(request());
    queue.submit(id);
    await expect(outcome).resolves.toEqual({
      kind: 'accepted',
      files: [
        {
          path: '/ws/a.txt',
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: BASE,
          finalText: TWO_HUNKS,
        },
      ],
    });
  });

  it('keeps CRLF, BOM and a missing final newline byte for byte', async () => {
    const base = '\uFEFFline1\r\nline2\r\nline3';
    const proposed = '\uFEFFline1\r\nLINE2\r\nline3';
    const queue = new ReviewQueue();
    const { id, outcome } = queue.add(request({ files: [file('/ws/w.txt', base, proposed)] }));
    queue.submit(id);
    const result = await outcome;
    expect(result.kind === 'accepted' && result.files[0]!.finalText).toBe(proposed);
  });

  it('a file whose hunks are all rejected keeps its base text while others are accepted', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = queue.add(request({ files: [file('/ws/a.txt'), file('/ws/b.txt')] }));
    queue.decideHunks(id, 0, [0, 1], 'rejected');
    queue.submit(id);
    await expect(outcome).resolves.toEqual({
      kind: 'accepted',
      files: [
        {
          path: '/ws/a.txt',
          expectedOnDisk: expect.anything(),
          changed: false,
          baseText: BASE,
          finalText: BASE,
        },
        {
          path: '/ws/b.txt',
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: BASE,
          finalText: TWO_HUNKS,
        },
      ],
    });
  });

  it('with every hunk rejected resolves as rejected and records state rejected', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = queue.add(request({ files: [file('/ws/a.txt'), file('/ws/b.txt')] }));
    queue.decideAll(id, 'rejected');
    const returned = queue.submit(id);
    expect(returned.kind).toBe('rejected');
    const resolved = await outcome;
    expect(resolved).toEqual(returned);
    expect(resolved.kind).toBe('rejected');
    const summary = queue.summary(id);
    expect(summary.state).toBe('rejected');
    expect(summary.decidedAt).toBeTypeOf('number');
    if (resolved.kind === 'rejected' && resolved.reason !== undefined) {
      expect(summary.reason).toBe(resolved.reason);
    }
  });
});

describe('ReviewQueue.reject', () => {
  it('records a trimmed reason on the outcome and the summary', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = queue.add(request());
    queue.reject(id, '  too broad \n');
    await expect(outcome).resolves.toEqual({ kind: 'rejected', reason: 'too broad' });
    expect(queue.summary(id).state).toBe('rejected');
    expect(queue.summary(id).reason).toBe('too broad');
  });

  it.each([
    ['a blank reason', '   \t\n'],
    ['an empty reason', ''],
    ['no reason', undefined],
  ])('with %s gives no reason at all', async (_label, reason) => {
    const queue = new ReviewQueue();
    const { id, outcome } = queue.add(request());
    queue.reject(id, reason);
    const result = await outcome;
    expect(result).toEqual({ kind: 'rejected' });
    expect(result).not.toHaveProperty('reason');
    const summary = queue.summary(id);
    expect(summary.state).toBe('rejected');
    expect(summary).not.toHaveProperty('reason');
    expect(summary.decidedAt).toBeTypeOf('number');
  });
});

describe('ReviewQueue supersede by tab name', () => {
  it('a new review with the same client and tab name supersedes the pending one', async () => {
    const queue = new ReviewQueue();
    const old = queue.add(request({ tabName: 'tab-1', title: 'old' }));
    const fresh = queue.add(request({ tabName: 'tab-1', title: 'new' }));
    await expect(old.outcome).resolves.toEqual({ kind: 'superseded' });
    expect(queue.summary(old.id).state).toBe('superseded');
    expect(queue.summary(old.id).reason).toEqual(expect.any(String));
    expect(queue.summary(fresh.id).state).toBe('pending');
    expect(await isSettled(fresh.outcome)).toBe(false);
    // Still listed, as history, before the new one.
    expect(queue.summaries().map((s) => s.id)).toEqual([old.id, fresh.id]);
    expect(queue.pendingCount()).toBe(1);
  });

  it('a different client with the same tab name does not supersede', async () => {
    const queue = new ReviewQueue();
    const first = queue.add(request({ tabName: 'tab-1', client: client('c1') }));
    const second = queue.add(request({ tabName: 'tab-1', client: client('c2') }));
    // Same display name, different connection id: still a different client.
    const third = queue.add(request({ tabName: 'tab-1', client: client('c3', 'Client c1') }));
    expect(await isSettled(first.outcome)).toBe(false);
    expect(await isSettled(second.outcome)).toBe(false);
    expect(await isSettled(third.outcome)).toBe(false);
    expect(queue.summaries().map((s) => [s.id, s.state])).toEqual([
      [first.id, 'pending'],
      [second.id, 'pending'],
      [third.id, 'pending'],
    ]);
  });

  it('a different tab name, or no tab name, does not supersede', async () => {
    const queue = new ReviewQueue();
    const tabbed = queue.add(request({ tabName: 'tab-1' }));
    queue.add(request({ tabName: 'tab-2' }));
    const untitled = queue.add(request());
    queue.add(request());
    expect(await isSettled(tabbed.outcome)).toBe(false);
    expect(await isSettled(untitled.outcome)).toBe(false);
    expect(queue.pendingCount()).toBe(4);
  });

  it('an ended review with the same tab name is left as it was', async () => {
    const queue = new ReviewQueue();
    const old = queue.add(request({ tabName: 'tab-1' }));
    queue.submit(old.id);
    queue.add(request({ tabName: 'tab-1' }));
    expect(queue.summary(old.id).state).toBe('accepted');
    await expect(old.outcome).resolves.toMatchObject({ kind: 'accepted' });
  });
});

describe('ReviewQueue.cancelWhere', () => {
  it('cancels matching pending reviews, keeps them visible with the reason, and counts them', async () => {
    const queue = new ReviewQueue();
    const a1 = queue.add(request({ client: client('A') }));
    const b1 = queue.add(request({ client: client('B') }));
    const a2 = queue.add(request({ client: client('A') }));
    const a3 = queue.add(request({ client: client('A') }));
    queue.reject(a3.id, 'no');

    const count = queue.cancelWhere((r) => r.client.id === 'A', 'client disconnected');
    expect(count).toBe(2);
    await expect(a1.outcome).resolves.toEqual({ kind: 'cancelled', reason: 'client disconnected' });
    await expect(a2.outcome).resolves.toEqual({ kind: 'cancelled', reason: 'client disconnected' });
    await expect(a3.outcome).resolves.toEqual({ kind: 'rejected', reason: 'no' });
    expect(await isSettled(b1.outcome)).toBe(false);

    const byId = new Map(queue.summaries().map((s) => [s.id, s]));
    expect(byId.size).toBe(4);
    expect(byId.get(a1.id)).toMatchObject({ state: 'cancelled', reason: 'client disconnected' });
    expect(byId.get(a2.id)).toMatchObject({ state: 'cancelled', reason: 'client disconnected' });
    expect(byId.get(a3.id)).toMatchObject({ state: 'rejected', reason: 'no' });
    expect(byId.get(b1.id)!.state).toBe('pending');
    expect(byId.get(a1.id)!.decidedAt).toBeTypeOf('number');
  });

  it('returns 0 and changes nothing when nothing matches', () => {
    const queue = new ReviewQueue();
    queue.add(request());
    const listener = vi.fn();
    queue.onChange(listener);
    expect(queue.cancelWhere(() => false, 'x')).toBe(0);
    expect(listener).not.toHaveBeenCalled();
    expect(queue.pendingCount()).toBe(1);
  });

  it('can match by tab name', () => {
    const queue = new ReviewQueue();
    const t1 = queue.add(request({ tabName: 't1' }));
    const t2 = queue.add(request({ tabName: 't2' }));
    expect(queue.cancelWhere((r) => r.tabName === 't1', 'tab closed')).toBe(1);
    expect(queue.summary(t1.id).state).toBe('cancelled');
    expect(queue.summary(t2.id).state).toBe('pending');
  });
});

describe('ReviewQueue errors', () => {
  const endings: [string, (q: ReviewQueue, id: string) => void][] = [
    ['submitted', (q, id) => q.submit(id)],
    [
      'all-rejected submit',
      (q, id) => {
        q.decideAll(id, 'rejected');
        q.submit(id);
      },
    ],
    ['rejected', (q, id) => q.reject(id, 'nope')],
    ['cancelled', (q) => q.cancelWhere(() => true, 'gone')],
    ['superseded', (q) => q.add(request({ tabName: 't' }))],
  ];

  it.each(endings)('every action on a %s review throws ReviewError', (label, endIt) => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request({ tabName: 't' }));
    endIt(queue, id);
    const before = queue.summary(id);
    expect(before.state).not.toBe('pending');
    expect(() => queue.decideHunks(id, 0, [0], 'accepted')).toThrow(ReviewError);
    expect(() => queue.decideAll(id, 'accepted')).toThrow(ReviewError);
    expect(() => queue.editProposal(id, 0, 'x\n')).toThrow(ReviewError);
    expect(() => queue.submit(id)).toThrow(ReviewError);
    expect(() => queue.reject(id, 'again')).toThrow(ReviewError);
    expect(() => queue.submit(id)).toThrow(/already/);
    // Nothing changed, and reading still works (the texts of a review nobody answered are let go).
    expect(queue.summary(id)).toEqual(before);
    if (label === 'cancelled' || label === 'superseded') {
      expect(() => queue.contents(id)).toThrow(ReviewTextsDroppedError);
    } else expect(queue.contents(id)).toHaveLength(1);
  });

  it('the outcome settles exactly once', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = queue.add(request());
    queue.reject(id, 'first');
    expect(() => queue.submit(id)).toThrow(ReviewError);
    expect(queue.cancelWhere(() => true, 'late')).toBe(0);
    await expect(outcome).resolves.toEqual({ kind: 'rejected', reason: 'first' });
    expect(queue.summary(id).reason).toBe('first');
  });

  it('an unknown review id throws ReviewError everywhere', () => {
    const queue = new ReviewQueue();
    queue.add(request());
    for (const action of [
      () => queue.summary('nope'),
      () => queue.contents('nope'),
      () => queue.decideHunks('nope', 0, [0], 'accepted'),
      () => queue.decideAll('nope', 'accepted'),
      () => queue.editProposal('nope', 0, 'x'),
      () => queue.submit('nope'),
      () => queue.reject('nope'),
    ]) {
      expect(action).toThrow(ReviewError);
    }
  });

  it.each([1, 2, -1, 0.5])('file index %s of a one-file review throws ReviewError', (fileIndex) => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request());
    expect(() => queue.decideHunks(id, fileIndex, [0], 'accepted')).toThrow(ReviewError);
    expect(() => queue.editProposal(id, fileIndex, 'x\n')).toThrow(ReviewError);
    expect(queue.contents(id)[0]!.contentRevision).toBe(1);
  });

  it('a hunk index past the last hunk throws ReviewError', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request());
    expect(() => queue.decideHunks(id, 0, [2], 'accepted')).toThrow(ReviewError);
    expect(() => queue.decideHunks(id, 0, [1000], 'accepted')).toThrow(ReviewError);
  });

  // The queue guards its own indexes, whatever the API schema already filters.
  it.each([-1, 0.5])('a hunk index of %s throws ReviewError', (index) => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request());
    expect(() => queue.decideHunks(id, 0, [index], 'rejected')).toThrow(ReviewError);
  });

  it('ReviewError is an Error', () => {
    expect(new ReviewError('x')).toBeInstanceOf(Error);
  });
});

describe('ReviewQueue.editProposal', () => {
  it('bumps contentRevision, recomputes hunks and keeps decisions of untouched hunks', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request());
    queue.decideHunks(id, 0, [0], 'rejected');
    queue.decideHunks(id, 0, [1], 'accepted');

    // Add a change in the middle; the first and last hunks are untouched.
    queue.editProposal(id, 0, 'A\nb\nC\nd\nE\n');
    const summary = queue.summary(id).files[0]!;
    expect(summary.contentRevision).toBe(2);
    expect(summary.hunks.map(({ decision: _d, ...h }) => h)).toEqual(computeHunks(BASE, 'A\nb\nC\nd\nE\n'));
    expect(summary.hunks).toHaveLength(3);
    // The new middle hunk is the person's own text: accepted.
    expect(summary.hunks.map((h) => h.decision)).toEqual(['rejected', 'accepted', 'accepted']);
    expect(queue.contents(id)[0]).toEqual({
      path: '/ws/a.txt',
      contentRevision: 2,
      baseText: BASE,
      proposedText: 'A\nb\nC\nd\nE\n',
    });
  });

  it('an untouched pending hunk stays pending while the edited one becomes accepted', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request());
    queue.decideHunks(id, 0, [1], 'rejected');
    queue.editProposal(id, 0, 'A\nb\nc\nd\nEE\n');
    expect(decisionsOf(queue, id)).toEqual(['pending', 'accepted']);
  });

  it('each edit bumps the revision of that file only, and submit composes the edited text', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = queue.add(request({ files: [file('/ws/a.txt'), file('/ws/b.txt')] }));
    queue.decideHunks(id, 1, [0], 'rejected');
    queue.editProposal(id, 1, 'A\nb\nc\nd\nE!\n');
    queue.editProposal(id, 1, 'A\nb\nc\nd\nE?\n');
    expect(queue.contents(id).map((c) => c.contentRevision)).toEqual([1, 3]);
    expect(decisionsOf(queue, id, 1)).toEqual(['rejected', 'accepted']);
    queue.submit(id);
    await expect(outcome).resolves.toEqual({
      kind: 'accepted',
      files: [
        {
          path: '/ws/a.txt',
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: BASE,
          finalText: TWO_HUNKS,
        },
        {
          path: '/ws/b.txt',
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: BASE,
          finalText: 'a\nb\nc\nd\nE?\n',
        },
      ],
    });
  });

  it('an edit that reverts to the base leaves no hunks', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request());
    queue.editProposal(id, 0, BASE);
    expect(queue.summary(id).files[0]!.hunks).toEqual([]);
    expect(queue.contents(id)[0]!.contentRevision).toBe(2);
  });
});

describe('ReviewQueue.onChange', () => {
  it('fires on every change, and not after unsubscribing', () => {
    const queue = new ReviewQueue();
    const listener = vi.fn();
    const unsubscribe = queue.onChange(listener);

    const { id } = queue.add(request());
    expect(listener).toHaveBeenCalledTimes(1);
    queue.decideHunks(id, 0, [0], 'rejected');
    expect(listener).toHaveBeenCalledTimes(2);
    queue.decideAll(id, 'accepted');
    expect(listener).toHaveBeenCalledTimes(3);
    queue.editProposal(id, 0, 'x\n');
    expect(listener).toHaveBeenCalledTimes(4);
    queue.submit(id);
    expect(listener).toHaveBeenCalledTimes(5);

    const second = queue.add(request());
    expect(listener).toHaveBeenCalledTimes(6);
    queue.reject(second.id);
    expect(listener).toHaveBeenCalledTimes(7);

    queue.add(request({ tabName: 't' }));
    const before = listener.mock.calls.length;
    queue.add(request({ tabName: 't' })); // supersede + add
    expect(listener.mock.calls.length).toBeGreaterThan(before);
    const beforeCancel = listener.mock.calls.length;
    queue.cancelWhere(() => true, 'bye');
    expect(listener.mock.calls.length).toBeGreaterThan(beforeCancel);

    unsubscribe();
    const calls = listener.mock.calls.length;
    queue.add(request());
    expect(listener).toHaveBeenCalledTimes(calls);
  });

  it('does not fire for a failed action', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request());
    const listener = vi.fn();
    queue.onChange(listener);
    expect(() => queue.decideHunks(id, 0, [9], 'accepted')).toThrow(ReviewError);
    expect(() => queue.submit('nope')).toThrow(ReviewError);
    expect(listener).not.toHaveBeenCalled();
  });

  it('listeners see the new state when called', () => {
    const queue = new ReviewQueue();
    const seen: number[] = [];
    queue.onChange(() => seen.push(queue.pendingCount()));
    const { id } = queue.add(request());
    queue.reject(id);
    expect(seen).toEqual([1, 0]);
  });
});

describe('ReviewQueue summaries and contents', () => {
  it('summary has exactly the documented fields for a pending review', () => {
    const c = client('c1');
    const queue = new ReviewQueue(() => 42);
    const { id } = queue.add({
      client: c,
      title: 'Title',
      description: 'Why',
      tabName: 'tab',
      files: [file('/ws/a.txt', 'x\n', 'y\n')],
    });
    expect(queue.summary(id)).toStrictEqual({
      id,
      client: c,
      title: 'Title',
      description: 'Why',
      createdAt: 42,
      state: 'pending',
      files: [
        {
          path: '/ws/a.txt',
          isNewFile: false,
          binary: false,
          fileDecision: 'pending',
          contentRevision: 1,
          hunkCount: 1,
          hunks: [
            { index: 0, baseStart: 0, baseEnd: 1, proposedStart: 0, proposedEnd: 1, decision: 'pending' },
          ],
          disk: { state: 'unchanged' },
          conflicts: 0,
        },
      ],
      canUndo: false,
    });
    expect(queue.summaries()).toStrictEqual([queue.summary(id)]);
  });

  it('omits description, reason and decidedAt when absent; adds reason and decidedAt when ended', () => {
    const queue = new ReviewQueue(ticking(10));
    const { id } = queue.add(request());
    const pending = queue.summary(id);
    expect(Object.keys(pending).sort()).toEqual([
      'canUndo',
      'client',
      'createdAt',
      'files',
      'id',
      'state',
      'title',
    ]);
    queue.reject(id, 'because');
    const ended = queue.summary(id);
    expect(ended).toMatchObject({ state: 'rejected', reason: 'because', createdAt: 10, decidedAt: 11 });
  });

  it('summaries are snapshots: mutating them does not change the queue', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request());
    const summary = queue.summary(id);
    summary.files[0]!.hunks[0]!.decision = 'rejected';
    summary.files[0]!.hunks.pop();
    expect(decisionsOf(queue, id)).toEqual(['pending', 'pending']);
  });

  it('contents lists every file with path, revision, base and proposed text', () => {
    const queue = new ReviewQueue();
    const { id } = queue.add(request({ files: [file('/ws/a.txt'), file('/ws/n.txt', '', 'n\n', true)] }));
    expect(queue.contents(id)).toStrictEqual([
      { path: '/ws/a.txt', contentRevision: 1, baseText: BASE, proposedText: TWO_HUNKS },
      { path: '/ws/n.txt', contentRevision: 1, baseText: '', proposedText: 'n\n' },
    ]);
  });

  it('pendingCount counts only pending reviews', () => {
    const queue = new ReviewQueue();
    expect(queue.pendingCount()).toBe(0);
    const a = queue.add(request());
    queue.add(request());
    expect(queue.pendingCount()).toBe(2);
    queue.submit(a.id);
    expect(queue.pendingCount()).toBe(1);
  });
});

describe('ReviewQueue history limit', () => {
  function addAndEnd(queue: ReviewQueue, n: number): string[] {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const { id } = queue.add(request({ title: `ended ${i}` }));
      queue.reject(id);
      ids.push(id);
    }
    return ids;
  }

  it('keeps up to 200 ended reviews', () => {
    const queue = new ReviewQueue();
    const ids = addAndEnd(queue, 200);
    queue.add(request({ title: 'pending' }));
    expect(queue.summaries()).toHaveLength(201);
    expect(queue.summary(ids[0]!).state).toBe('rejected');
  });

  it('drops the oldest ended reviews past 200, never pending ones', () => {
    const queue = new ReviewQueue();
    const early = [queue.add(request({ title: 'early 1' })), queue.add(request({ title: 'early 2' }))];
    const ended = addAndEnd(queue, 230);
    const late = queue.add(request({ title: 'late' }));

    const summaries = queue.summaries();
    const endedNow = summaries.filter((s) => s.state !== 'pending');
    expect(endedNow).toHaveLength(200);
    // The newest 200 ended ones survive, in order; the oldest 30 are gone.
    expect(endedNow.map((s) => s.id)).toEqual(ended.slice(30));
    expect(() => queue.summary(ended[0]!)).toThrow(ReviewError);
    expect(() => queue.summary(ended[29]!)).toThrow(ReviewError);
    expect(queue.summary(ended[30]!).state).toBe('rejected');

    // Pending reviews, however old, are all still there and still actionable.
    expect(summaries.filter((s) => s.state === 'pending').map((s) => s.id)).toEqual([
      early[0]!.id,
      early[1]!.id,
      late.id,
    ]);
    expect(summaries[0]!.id).toBe(early[0]!.id);
    queue.decideAll(early[0]!.id, 'accepted');
    queue.submit(early[0]!.id);
    expect(queue.pendingCount()).toBe(2);
  });

  it('never drops pending reviews even when there are more than 200 of them', () => {
    const queue = new ReviewQueue();
    // From three clients: one client alone may have only MAX_PENDING_REVIEWS_PER_CLIENT waiting.
    const pending = Array.from(
      { length: 250 },
      (_, i) => queue.add(request({ title: `p${i}`, client: client(`p${i % 3}`) })).id,
    );
    addAndEnd(queue, 10);
    queue.add(request());
    const ids = new Set(queue.summaries().map((s) => s.id));
    for (const id of pending) expect(ids.has(id)).toBe(true);
    expect(queue.pendingCount()).toBe(251);
  });
});

describe('notes to the agent, approval cards, paused clients', () => {
  it('a note rides on the accept, is kept in History, and is the reason when nothing is kept', async () => {
    const queue = new ReviewQueue(ticking());
    const first = queue.add(request());
    queue.submit(first.id, '  add a test  ');
    expect(await first.outcome).toMatchObject({ kind: 'accepted', note: 'add a test' });
    expect(queue.summary(first.id).agentNote).toBe('add a test');

    const second = queue.add(request());
    queue.decideAll(second.id, 'rejected');
    queue.submit(second.id, 'not this way');
    expect(await second.outcome).toEqual({ kind: 'rejected', reason: 'not this way' });
  });

  it('an approval card is allowed by submit and denied by reject, with the note', async () => {
    const queue = new ReviewQueue(ticking());
    const approval = { kind: 'command' as const, command: 'make deploy' };
    const allowed = queue.add(request({ files: [], approval }));
    queue.submit(allowed.id, 'ok once');
    expect(await allowed.outcome).toEqual({ kind: 'accepted', files: [], note: 'ok once' });
    const denied = queue.add(request({ files: [], approval }));
    queue.reject(denied.id, 'no');
    expect(await denied.outcome).toEqual({ kind: 'rejected', reason: 'no' });
    expect(queue.summary(denied.id)).toMatchObject({ approval, agentNote: 'no', state: 'rejected' });
  });

  it('a paused program is refused new proposals, whatever its connection; others are not', () => {
    const queue = new ReviewQueue(ticking());
    const hooks = { ...client('h1', 'Claude Code'), protocol: 'claude-hooks' as const };
    queue.setPaused(hooks, true);
    const later = { ...hooks, id: 'h2' };
    expect(() => queue.add(request({ client: later }))).toThrow(/paused/);
    expect(() => queue.add(request({ client: { ...client('ide', 'Claude Code') } }))).not.toThrow();
    queue.resumeByKey('claude-hooks:Claude Code');
    expect(queue.pausedClients()).toEqual([]);
    expect(() => queue.add(request({ client: later }))).not.toThrow();
  });
});
