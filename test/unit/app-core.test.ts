import { afterEach, describe, it, expect, vi } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { typedCall, type AppChange, type AppSnapshot, type ClientInfo } from '../../shared/app-api';
import { applyChange } from '../../shared/state-sync';
import { AppApiError, createAppApiHandler } from '../../src-main/core/app-api-handler';
import { AppCore } from '../../src-main/core/app-core';
import { MAX_NOTE_CHARS } from '../../src-main/core/limits';
import type { ReviewRequest } from '../../src-main/core/review/review-queue';
import { ReviewError } from '../../src-main/core/review/review-queue';

const BASE = 'a\nb\nc\nd\ne\n';
const PROPOSED = 'A\nb\nc\nd\nE\n';

function makeCore(): AppCore {
  return new AppCore(['/ws/one', '/ws/two'], { now: () => 7 });
}

function reviewRequest(
  client: ClientInfo,
  overrides: Partial<ReviewRequest> = {},
  filePath = '/ws/one/a.txt',
): ReviewRequest {
  return {
    client,
    title: 'Edit a.txt',
    files: [{ path: filePath, base: { exists: true, kind: 'text', text: BASE }, proposedText: PROPOSED }],
    ...overrides,
  };
}

/** Follows core's change stream the way a window does: the changes, and the state they build. */
function follow(core: AppCore) {
  let state = core.snapshot();
  const changes: AppChange[] = [];
  const subscription = core.subscribe((change) => {
    changes.push(change);
    state = applyChange(state, change);
  });
  return {
    changes,
    subscription,
    get state(): AppSnapshot {
      return state;
    },
  };
}

/** The decision of each hunk of the review's first file, as core holds it. */
function decisionsOf(core: AppCore, reviewId: string): string[] {
  return core.queue.summary(reviewId).files[0]!.hunks.map((hunk) => hunk.decision);
}

/** Lets queued microtasks (the coalesced change) and one macrotask turn run. */
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('AppCore', () => {
  it('snapshot holds reviews, clients and a copy of the workspace folders', () => {
    const core = makeCore();
    const client = core.clients.connect('Claude Code', 'claude-ide');
    const { id } = core.queue.add(reviewRequest(client));
    const snapshot = core.snapshot();
    expect(snapshot.workspaceFolders).toEqual(['/ws/one', '/ws/two']);
    expect(snapshot.clients).toEqual([client]);
    expect(snapshot.reviews.map((r) => r.id)).toEqual([id]);
    expect(snapshot.reviews[0]!.client).toEqual(client);

    snapshot.workspaceFolders.push('/evil');
    expect(core.snapshot().workspaceFolders).toEqual(['/ws/one', '/ws/two']);
    expect(core.workspaceFolders).toEqual(['/ws/one', '/ws/two']);
  });

  it('coalesces several changes in one tick into one versioned change with only what changed', async () => {
    const core = makeCore();
    const window = follow(core);

    const client = core.clients.connect('Claude Code', 'claude-ide');
    const { id } = core.queue.add(reviewRequest(client));
    core.queue.decideHunks(id, 0, [0], 'rejected');
    core.clients.describe(client.id, { version: '2.0' });
    expect(window.changes).toEqual([]); // not synchronous

    await tick();
    expect(window.changes).toHaveLength(1);
    const [change] = window.changes;
    expect(change!.version).toBe(1);
    expect(change!.added?.map((review) => review.id)).toEqual([id]);
    // The list item is small: no hunks, their count and the file's decision.
    expect(change!.added![0]!.files[0]).toMatchObject({ hunkCount: 2, fileDecision: 'mixed' });
    expect(change!.added![0]!.files[0]).not.toHaveProperty('hunks');
    expect(change!.clients![0]!.version).toBe('2.0');

    await tick();
    expect(window.changes).toHaveLength(1); // nothing new, nothing sent

    core.queue.reject(id);
    await tick();
    expect(window.changes).toHaveLength(2);
    // Only the fields that changed travel.
    expect(window.changes[1]).toEqual({
      version: 2,
      changed: [{ id, state: 'rejected', decidedAt: 7, canUndo: false }],
    });
    expect(window.state).toEqual(core.snapshot());
  });

  it('coalescing happens within a microtask turn, before any timer', async () => {
    const core = makeCore();
    const listener = vi.fn<(change: AppChange) => void>();
    core.subscribe(listener);
    core.clients.connect('x', 'nexus3-ide');
    core.clients.connect('y', 'nexus3-ide');
    await Promise.resolve();
    await Promise.resolve();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0]![0].clients).toHaveLength(2);
  });

  it('gives every subscriber the same change and stops after close', async () => {
    const core = makeCore();
    const first = vi.fn();
    const second = vi.fn();
    const { close: unsubscribeFirst } = core.subscribe(first);
    core.subscribe(second);
    core.clients.connect('x', 'claude-ide');
    await tick();
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    // The very same object: a carrier serializes it once for every window.
    expect(second.mock.calls[0]![0]).toBe(first.mock.calls[0]![0]);

    unsubscribeFirst();
    core.clients.connect('y', 'claude-ide');
    await tick();
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
  });

  it('changes without listeners are harmless, and a later listener still gets later bursts', async () => {
    const core = makeCore();
    core.clients.connect('x', 'claude-ide');
    await tick();
    const listener = vi.fn();
    core.subscribe(listener);
    await tick();
    expect(listener).not.toHaveBeenCalled();
    core.clients.connect('y', 'claude-ide');
    await tick();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('a disconnected client leaves the client list', async () => {
    const core = makeCore();
    const client = core.clients.connect('x', 'claude-ide');
    core.clients.disconnect(client.id);
    expect(core.snapshot().clients).toEqual([]);
  });
});

describe('createAppApiHandler', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** The reviewed file is real and holds BASE on disk, since submit looks at the disk first. */
  function setup() {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-handler-'));
    dirs.push(dir);
    const filePath = path.join(dir, 'a.txt');
    writeFileSync(filePath, BASE);
    // The file is inside the workspace: the submit-time disk check reads only inside it.
    const core = new AppCore([dir], { now: () => 7 });
    const handler = createAppApiHandler(core);
    const client = core.clients.connect('Claude Code', 'claude-ide');
    const review = core.queue.add(reviewRequest(client, {}, filePath));
    return { core, handler, client, review, filePath };
  }

  it.each([
    ['nope'],
    ['toString'],
    ['constructor'],
    ['__proto__'],
    ['hasOwnProperty'],
    [''],
    [42],
    [undefined],
    [null],
  ])('rejects the unknown method %j with a clear message', async (method) => {
    const { handler } = setup();
    const call = handler(method, {});
    await expect(call).rejects.toBeInstanceOf(AppApiError);
    await expect(handler(method, {})).rejects.toThrow(/^Unknown method: /);
  });

  it('names the unknown method in the message', async () => {
    const { handler } = setup();
    await expect(handler('dropTables', {})).rejects.toThrow('Unknown method: dropTables');
  });

  const badParams: [string, unknown][] = [
    ['decideHunks', { fileIndex: 0, hunkIndexes: [0], decision: 'accepted' }],
    ['decideHunks', { reviewId: 'r1', fileIndex: -1, hunkIndexes: [0], decision: 'accepted' }],
    ['decideHunks', { reviewId: 'r1', fileIndex: 0.5, hunkIndexes: [0], decision: 'accepted' }],
    ['decideHunks', { reviewId: 'r1', fileIndex: '0', hunkIndexes: [0], decision: 'accepted' }],
    ['decideHunks', { reviewId: 'r1', fileIndex: 0, hunkIndexes: [0], decision: 'maybe' }],
    ['decideHunks', { reviewId: 'r1', fileIndex: 0, hunkIndexes: [-1], decision: 'accepted' }],
    ['decideHunks', { reviewId: 'r1', fileIndex: 0, hunkIndexes: 0, decision: 'accepted' }],
    ['decideHunks', { reviewId: 'r1', fileIndex: 0, decision: 'accepted' }],
    ['decideAll', { reviewId: 'r1', decision: 'maybe' }],
    ['decideAll', { decision: 'accepted' }],
    ['getReviewContent', {}],
    ['getReviewContent', { reviewId: '' }],
    ['getReviewContent', { reviewId: 42 }],
    ['editProposal', { reviewId: 'r1', fileIndex: 0 }],
    ['editProposal', { reviewId: 'r1', fileIndex: -2, proposedText: 'x' }],
    ['submit', {}],
    ['submit', { reviewId: 'x'.repeat(201) }],
    ['submit', 'r1'],
    ['submit', null],
    ['reject', { reviewId: 'r1', reason: 42 }],
    ['reject', { reviewId: 'r1', reason: 'x'.repeat(MAX_NOTE_CHARS + 1) }],
    ['getSnapshot', 'oops'],
    [
      'decideLines',
      { reviewId: 'r1', fileIndex: 0, hunkIndex: 0, lines: { base: [0] }, decision: 'accepted' },
    ],
    [
      'decideLines',
      {
        reviewId: 'r1',
        fileIndex: 0,
        hunkIndex: 0,
        lines: { base: [-1], proposed: [] },
        decision: 'accepted',
      },
    ],
    [
      'decideLines',
      {
        reviewId: 'r1',
        fileIndex: 0,
        hunkIndex: 0,
        lines: { base: [0.5], proposed: [] },
        decision: 'accepted',
      },
    ],
    [
      'decideLines',
      {
        reviewId: 'r1',
        fileIndex: 0,
        hunkIndex: -1,
        lines: { base: [0], proposed: [] },
        decision: 'accepted',
      },
    ],
    ['decideLines', { reviewId: 'r1', fileIndex: 0, hunkIndex: 0, lines: [0], decision: 'accepted' }],
    [
      'decideLines',
      { reviewId: 'r1', fileIndex: 0, hunkIndex: 0, lines: { base: [0], proposed: [] }, decision: 'mixed' },
    ],
    [
      'decideLines',
      { reviewId: 'r1', fileIndex: 0, lines: { base: [0], proposed: [] }, decision: 'accepted' },
    ],
    ['decideFile', { reviewId: 'r1', fileIndex: 0, decision: 'mixed' }],
    ['decideFile', { reviewId: 'r1', decision: 'accepted' }],
    ['decideFile', { reviewId: 'r1', fileIndex: -1, decision: 'accepted' }],
    ['undo', {}],
    ['undo', { reviewId: '' }],
    ['undo', { reviewId: 7 }],
    ['rebase', { reviewId: 'r1' }],
    ['rebase', { reviewId: 'r1', fileIndex: -1 }],
    ['rebase', { fileIndex: 0 }],
    ['disconnectClient', {}],
    ['disconnectClient', { clientId: '' }],
    ['disconnectClient', { clientId: 'x'.repeat(201) }],
    ['disconnectClient', { clientId: 3 }],
  ];

  it.each(badParams)('rejects %s with bad parameters %j', async (method, params) => {
    const { core, handler } = setup();
    const before = JSON.stringify(core.snapshot());
    const call = handler(method, params);
    await expect(call).rejects.toBeInstanceOf(AppApiError);
    await expect(handler(method, params)).rejects.toThrow(`Invalid parameters for ${method}`);
    expect(JSON.stringify(core.snapshot())).toBe(before);
  });

  it('accepts missing params for getSnapshot', async () => {
    const { core, handler } = setup();
    await expect(handler('getSnapshot', undefined)).resolves.toEqual(core.snapshot());
    await expect(handler('getSnapshot', null)).resolves.toEqual(core.snapshot());
  });

  it('decideHunks reaches the queue and getSnapshot shows the decision', async () => {
    const { handler, review, filePath } = setup();
    await expect(
      handler('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' }),
    ).resolves.toBeNull();
    const call = typedCall(handler);
    const snapshot = await call('getSnapshot', {});
    expect(snapshot.reviews[0]!.files[0]!.fileDecision).toBe('mixed');
    const detail = await call('focusReview', { reviewId: review.id });
    expect(detail?.files[0]!.map((h) => h.decision)).toEqual(['pending', 'rejected']);
    expect(snapshot.workspaceFolders).toEqual([path.dirname(filePath)]);
  });

  it('decideAll and submit reach the queue and resolve the outcome with the composed text', async () => {
    const { core, handler, review, filePath } = setup();
    await handler('decideAll', { reviewId: review.id, decision: 'accepted' });
    await handler('decideHunks', {
      reviewId: review.id,
      fileIndex: 0,
      hunkIndexes: [0],
      decision: 'rejected',
    });
    await expect(handler('submit', { reviewId: review.id })).resolves.toBeNull();
    await expect(review.outcome).resolves.toEqual({
      kind: 'accepted',
      files: [
        {
          path: filePath,
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: BASE,
          finalText: 'a\nb\nc\nd\nE\n',
        },
      ],
    });
    expect(core.queue.summary(review.id).state).toBe('accepted');
  });

  it('getReviewContent and editProposal reach the queue', async () => {
    const { handler, review, filePath } = setup();
    await handler('editProposal', { reviewId: review.id, fileIndex: 0, proposedText: 'a\nb\nc\nd\nE\n' });
    await expect(handler('getReviewContent', { reviewId: review.id })).resolves.toEqual([
      { path: filePath, contentRevision: 2, baseText: BASE, proposedText: 'a\nb\nc\nd\nE\n' },
    ]);
  });

  it('decideLines reaches the queue: the hunk becomes mixed', async () => {
    const { core, handler, review } = setup();
    await expect(
      handler('decideLines', {
        reviewId: review.id,
        fileIndex: 0,
        hunkIndex: 1,
        lines: { base: [4], proposed: [] },
        decision: 'rejected',
      }),
    ).resolves.toBeNull();
    const hunks = core.queue.summary(review.id).files[0]!.hunks;
    expect(hunks.map((h) => h.decision)).toEqual(['pending', 'mixed']);
    expect(hunks[1]!.lines).toEqual({ removed: ['rejected'], added: ['pending'] });
    // Lines outside the hunk are the queue's to refuse.
    await expect(
      handler('decideLines', {
        reviewId: review.id,
        fileIndex: 0,
        hunkIndex: 1,
        lines: { base: [0], proposed: [] },
        decision: 'rejected',
      }),
    ).rejects.toBeInstanceOf(ReviewError);
  });

  it('decideFile reaches the queue', async () => {
    const { core, handler, review } = setup();
    await expect(
      handler('decideFile', { reviewId: review.id, fileIndex: 0, decision: 'rejected' }),
    ).resolves.toBeNull();
    expect(core.snapshot().reviews[0]!.files[0]!.fileDecision).toBe('rejected');
    expect(decisionsOf(core, review.id)).toEqual(['rejected', 'rejected']);
    await expect(
      handler('decideFile', { reviewId: review.id, fileIndex: 3, decision: 'rejected' }),
    ).rejects.toBeInstanceOf(ReviewError);
  });

  it('undo reaches the queue and shows in canUndo', async () => {
    const { core, handler, review } = setup();
    expect(core.snapshot().reviews[0]!.canUndo).toBe(false);
    await expect(handler('undo', { reviewId: review.id })).rejects.toThrow('Nothing to undo');
    await handler('decideAll', { reviewId: review.id, decision: 'rejected' });
    expect(core.snapshot().reviews[0]!.canUndo).toBe(true);
    await expect(handler('undo', { reviewId: review.id })).resolves.toBeNull();
    expect(core.snapshot().reviews[0]!.canUndo).toBe(false);
    expect(decisionsOf(core, review.id)).toEqual(['pending', 'pending']);
  });

  it('submit is refused with the disk message when the file changed; rebase then lets it through', async () => {
    const { core, handler, review, filePath } = setup();
    writeFileSync(filePath, 'a\nb\nC\nd\ne\n');
    await expect(handler('submit', { reviewId: review.id })).rejects.toBeInstanceOf(ReviewError);
    await expect(handler('submit', { reviewId: review.id })).rejects.toThrow(/changed on disk/);
    expect(core.queue.summary(review.id).state).toBe('pending');
    expect(core.snapshot().reviews[0]!.files[0]!.disk.state).toBe('modified');

    await expect(handler('rebase', { reviewId: review.id, fileIndex: 0 })).resolves.toBeNull();
    await expect(handler('getReviewContent', { reviewId: review.id })).resolves.toEqual([
      {
        path: filePath,
        contentRevision: 2,
        baseText: 'a\nb\nC\nd\ne\n',
        proposedText: 'A\nb\nC\nd\nE\n',
      },
    ]);
    await handler('submit', { reviewId: review.id });
    await expect(review.outcome).resolves.toMatchObject({
      kind: 'accepted',
      files: [{ finalText: 'A\nb\nC\nd\nE\n' }],
    });
  });

  it('rebase with nothing changed on disk is a ReviewError', async () => {
    const { handler, review } = setup();
    await expect(handler('rebase', { reviewId: review.id, fileIndex: 0 })).rejects.toThrow(
      /not changed on disk/,
    );
  });

  it("disconnectClient closes that client's connection; an unknown client is an error", async () => {
    const { core, handler } = setup();
    const close = vi.fn();
    const other = core.clients.connect('Other', 'nexus3-ide', close);
    await expect(handler('disconnectClient', { clientId: other.id })).resolves.toBeNull();
    expect(close).toHaveBeenCalledTimes(1);
    await expect(handler('disconnectClient', { clientId: 'nobody' })).rejects.toThrow('No connected client');
  });

  it('reject passes the reason through (trimmed by the queue)', async () => {
    const { handler, review } = setup();
    await expect(handler('reject', { reviewId: review.id, reason: ' not now ' })).resolves.toBeNull();
    await expect(review.outcome).resolves.toEqual({ kind: 'rejected', reason: 'not now' });
  });

  it('reject without a reason', async () => {
    const { handler, review } = setup();
    await handler('reject', { reviewId: review.id });
    await expect(review.outcome).resolves.toEqual({ kind: 'rejected' });
  });

  it('ignores extra parameter fields', async () => {
    const { handler, review } = setup();
    await handler('submit', { reviewId: review.id, extra: true });
    await expect(review.outcome).resolves.toMatchObject({ kind: 'accepted' });
  });

  it('queue errors come back as rejections, not synchronous throws', async () => {
    const { handler, review } = setup();
    let call: Promise<unknown> | undefined;
    expect(() => {
      call = handler('submit', { reviewId: 'r999' });
    }).not.toThrow();
    await expect(call).rejects.toBeInstanceOf(ReviewError);

    await expect(
      handler('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [5], decision: 'accepted' }),
    ).rejects.toBeInstanceOf(ReviewError);
    await handler('submit', { reviewId: review.id });
    await expect(handler('submit', { reviewId: review.id })).rejects.toBeInstanceOf(ReviewError);
  });

  it('handler calls made in one tick make one change, with the hunks only for the window that focuses', async () => {
    const { core, handler, review } = setup();
    await tick();
    const focused = follow(core);
    const other = follow(core);
    await handler('focusReview', { reviewId: review.id }, focused.subscription);
    await Promise.all([
      handler('decideAll', { reviewId: review.id, decision: 'rejected' }),
      handler('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [0], decision: 'accepted' }),
    ]);
    await tick();
    expect(focused.changes).toHaveLength(1);
    const detail = focused.changes[0]!.detail!;
    expect(detail).toMatchObject({ reviewId: review.id, from: 1, to: 2 });
    expect(detail.files[0]!.changed!.map(([index, hunk]) => [index, hunk.decision])).toEqual([
      [0, 'accepted'],
      [1, 'rejected'],
    ]);
    expect(other.changes).toHaveLength(1);
    expect(other.changes[0]!.detail).toBeUndefined();
  });
});

describe('named domain operations', () => {
  it('clientGone cancels only that client’s pending reviews and takes it off Connections', async () => {
    const core = makeCore();
    const gone = core.clients.connect('Claude Code', 'claude-ide');
    const stays = core.clients.connect('Clio', 'clio');
    const a = core.queue.add(reviewRequest(gone));
    const b = core.queue.add(reviewRequest(stays));
    core.clientGone(gone.id);
    await expect(a.outcome).resolves.toEqual({ kind: 'cancelled', reason: 'client disconnected' });
    expect(core.queue.find(b.id)?.state).toBe('pending');
    expect(core.snapshot().clients.map((c) => c.name)).toEqual(['Clio']);
  });

  it('queue.find gives the summary, or undefined for a review that does not exist', () => {
    const core = makeCore();
    const { id } = core.queue.add(reviewRequest(core.clients.connect('Clio', 'clio')));
    expect(core.queue.find(id)).toMatchObject({ id, state: 'pending', title: 'Edit a.txt' });
    expect(core.queue.find('r999')).toBeUndefined();
  });
});
