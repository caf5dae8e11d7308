import { describe, it, expect, vi } from 'vitest';
import fc from 'fast-check';
import type { ReviewSummary } from '../../shared/app-api';
import type { HunkDecision } from '../../shared/hunks';
import { computeHunks } from '../../shared/hunks';
import { CONFLICT_END, CONFLICT_SEPARATOR, CONFLICT_START } from '../../shared/merge3';
import type { DiskSnapshot } from '../../src-main/core/disk/disk-snapshot';
import type { FileState } from '../../src-main/core/review/review-file';
import * as reviewFile from '../../src-main/core/review/review-file';
import type { ProposedFile, ReviewRequest } from '../../src-main/core/review/review-queue';
import { ReviewError, ReviewQueue } from '../../src-main/core/review/review-queue';
import { lineDecisionsFrom } from '../support/hunk-generators';
import { remapReference, spliceChosenHunks, spliceLineDecisions } from '../support/hunk-oracles';
import { testClient } from '../support/clients';

// ---------------------------------------------------------------------------------------------
// Fixtures

const CLIENT = testClient();

const text = (t: string): DiskSnapshot => ({ exists: true, kind: 'text', text: t });
const ABSENT: DiskSnapshot = { exists: false };
const binary = (hash = 'h1', size = 123): DiskSnapshot => ({
  exists: true,
  kind: 'opaque',
  hash,
  size,
  why: 'binary',
});

function proposed(path: string, base: DiskSnapshot, proposedText: string): ProposedFile {
  return { path, base, proposedText };
}

function request(files: ProposedFile[]): ReviewRequest {
  return { client: CLIENT, title: 'Edit', files };
}

/** A clock that advances by one on every read. */
function ticking(start = 1000): () => number {
  let t = start;
  return () => t++;
}

function add(queue: ReviewQueue, ...files: ProposedFile[]) {
  return queue.add(request(files));
}

/** The summary without canUndo, for comparing states before and after an undo. */
/**
 * A summary without what undo deliberately does not restore: canUndo, and content revisions, which
 * only ever increase so that a restored text never reuses a cached revision.
 */
function state(queue: ReviewQueue, id: string): Omit<ReviewSummary, 'canUndo'> {
  const { canUndo: _canUndo, ...rest } = queue.summary(id);
  return { ...rest, files: rest.files.map((file) => ({ ...file, contentRevision: 0 })) };
}

function contentsWithoutRevisions(queue: ReviewQueue, id: string) {
  return queue.contents(id).map((content) => ({ ...content, contentRevision: 0 }));
}

async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  return settled;
}

/** One hunk: base lines 1-2 ("one", "two") become proposed lines 1-3 ("ONE", "TWO", "THREE"). */
const LB = 'x\none\ntwo\ny\n';
const LP = 'x\nONE\nTWO\nTHREE\ny\n';

/** Five lines; TWO_HUNKS changes the first and the last. */
const BASE = 'a\nb\nc\nd\ne\n';
const TWO_HUNKS = 'A\nb\nc\nd\nE\n';

// ---------------------------------------------------------------------------------------------

describe('line decisions', () => {
  it('deciding some lines makes the hunk and the file "mixed", with the lines in the summary', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/l.txt', text(LB), LP));
    expect(queue.summary(id).files[0]!.hunks).toEqual([
      { index: 0, baseStart: 1, baseEnd: 3, proposedStart: 1, proposedEnd: 4, decision: 'pending' },
    ]);
    queue.decideLines(id, 0, 0, { base: [1], proposed: [2] }, 'rejected');
    const file = queue.summary(id).files[0]!;
    expect(file.hunks[0]).toEqual({
      index: 0,
      baseStart: 1,
      baseEnd: 3,
      proposedStart: 1,
      proposedEnd: 4,
      decision: 'mixed',
      lines: { removed: ['rejected', 'pending'], added: ['pending', 'rejected', 'pending'] },
    });
    expect(file.fileDecision).toBe('mixed');
  });

  it('when every line agrees again the hunk takes that decision and loses `lines`', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/l.txt', text(LB), LP));
    queue.decideLines(id, 0, 0, { base: [1, 2], proposed: [1] }, 'accepted');
    expect(queue.summary(id).files[0]!.hunks[0]!.decision).toBe('mixed');
    queue.decideLines(id, 0, 0, { base: [], proposed: [2, 3] }, 'accepted');
    const hunk = queue.summary(id).files[0]!.hunks[0]!;
    expect(hunk.decision).toBe('accepted');
    expect(hunk).not.toHaveProperty('lines');
    expect(queue.summary(id).files[0]!.fileDecision).toBe('accepted');
  });

  it('composition keeps a removed line whose removal is rejected and drops a rejected added line', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = add(queue, proposed('/ws/l.txt', text(LB), LP));
    // Keep "one" (its removal rejected), drop "TWO" (its addition rejected); the rest stays pending.
    queue.decideLines(id, 0, 0, { base: [1], proposed: [2] }, 'rejected');
    queue.submit(id);
    // Kept base lines come first, then the added ones, in their own order.
    await expect(outcome).resolves.toEqual({
      kind: 'accepted',
      files: [
        {
          path: '/ws/l.txt',
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: LB,
          finalText: 'x\none\nONE\nTHREE\ny\n',
        },
      ],
    });
  });

  it('keeps every kept base line before every added line, each in order', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = add(queue, proposed('/ws/l.txt', text(LB), LP));
    queue.decideLines(id, 0, 0, { base: [1, 2], proposed: [] }, 'rejected');
    queue.decideLines(id, 0, 0, { base: [], proposed: [1, 3] }, 'accepted');
    queue.decideLines(id, 0, 0, { base: [], proposed: [2] }, 'rejected');
    queue.submit(id);
    await expect(outcome).resolves.toMatchObject({
      kind: 'accepted',
      files: [{ finalText: 'x\none\ntwo\nONE\nTHREE\ny\n' }],
    });
  });

  it('addresses lines of a later hunk by their index in the whole text', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = add(queue, proposed('/ws/a.txt', text(BASE), TWO_HUNKS));
    queue.decideLines(id, 0, 1, { base: [4], proposed: [] }, 'rejected'); // keep "e"
    expect(queue.summary(id).files[0]!.hunks.map((h) => h.decision)).toEqual(['pending', 'mixed']);
    queue.submit(id);
    await expect(outcome).resolves.toMatchObject({ files: [{ finalText: 'A\nb\nc\nd\ne\nE\n' }] });
  });

  it.each([
    ['a base line before the hunk', { base: [0], proposed: [] }],
    ['a base line after the hunk', { base: [3], proposed: [] }],
    ['a proposed line after the hunk', { base: [], proposed: [4] }],
    ['a proposed line before the hunk', { base: [], proposed: [0] }],
    ['a negative line', { base: [-1], proposed: [] }],
    ['a fractional line', { base: [], proposed: [1.5] }],
    ['one good and one bad line', { base: [1], proposed: [1, 9] }],
  ])('selecting %s throws ReviewError and changes nothing', (_label, lines) => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/l.txt', text(LB), LP));
    queue.decideLines(id, 0, 0, { base: [2], proposed: [] }, 'accepted');
    const before = queue.summary(id);
    const listener = vi.fn();
    queue.onChange(listener);
    expect(() => queue.decideLines(id, 0, 0, lines, 'rejected')).toThrow(ReviewError);
    expect(queue.summary(id)).toEqual(before);
    expect(listener).not.toHaveBeenCalled();
  });

  it('an empty selection throws ReviewError', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/l.txt', text(LB), LP));
    const before = queue.summary(id);
    expect(() => queue.decideLines(id, 0, 0, { base: [], proposed: [] }, 'rejected')).toThrow(ReviewError);
    expect(() => queue.decideLines(id, 0, 0, { base: [], proposed: [] }, 'rejected')).toThrow(
      'No lines selected',
    );
    expect(queue.summary(id)).toEqual(before);
    expect(queue.summary(id).canUndo).toBe(false);
  });

  it.each([1, -1, 0.5])('hunk index %s throws ReviewError', (hunkIndex) => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/l.txt', text(LB), LP));
    expect(() => queue.decideLines(id, 0, hunkIndex, { base: [1], proposed: [] }, 'rejected')).toThrow(
      ReviewError,
    );
  });

  it('an unknown file index throws ReviewError', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/l.txt', text(LB), LP));
    expect(() => queue.decideLines(id, 1, 0, { base: [1], proposed: [] }, 'rejected')).toThrow(ReviewError);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties of line decisions, on the pure file state.

const lineArb = fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', ''), fc.constantFrom('\n', '\n', '\r\n'));
const textArb = fc
  .tuple(
    fc.array(
      lineArb.map(([c, e]) => c + e),
      { maxLength: 12 },
    ),
    fc.option(fc.constantFrom('z', 'a'), { nil: undefined }),
  )
  .map(([lines, tail]) => lines.join('') + (tail ?? ''));
const decisionArb = fc.constantFrom<HunkDecision>('pending', 'accepted', 'rejected');

/** Decides every line of every hunk on its own, taking decisions from `decisions` in turn. */
function decideEveryLine(file: FileState, decisions: readonly HunkDecision[]): void {
  let k = 0;
  const next = () => decisions[k++ % decisions.length]!;
  for (const hunk of file.hunks) {
    for (let b = hunk.baseStart; b < hunk.baseEnd; b++) {
      reviewFile.decideLines(file, hunk.index, { base: [b], proposed: [] }, next());
    }
    for (let p = hunk.proposedStart; p < hunk.proposedEnd; p++) {
      reviewFile.decideLines(file, hunk.index, { base: [], proposed: [p] }, next());
    }
  }
}

const range = (start: number, end: number) => Array.from({ length: end - start }, (_, i) => start + i);

describe('line decisions (properties)', () => {
  it('accepting every line of a hunk is the same as accepting the hunk', () => {
    fc.assert(
      fc.property(
        textArb,
        textArb,
        fc.array(decisionArb, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        (base, prop, decisions, pick) => {
          const byLines = reviewFile.createFileState(proposed('/p', text(base), prop));
          fc.pre(byLines.hunks.length > 0);
          const byHunk = reviewFile.createFileState(proposed('/p', text(base), prop));
          decideEveryLine(byLines, decisions);
          decideEveryLine(byHunk, decisions);
          const hunk = byLines.hunks[pick % byLines.hunks.length]!;
          reviewFile.decideLines(
            byLines,
            hunk.index,
            {
              base: range(hunk.baseStart, hunk.baseEnd),
              proposed: range(hunk.proposedStart, hunk.proposedEnd),
            },
            'accepted',
          );
          reviewFile.decideHunks(byHunk, [hunk.index], 'accepted');
          expect(reviewFile.fileSummary(byLines)).toEqual(reviewFile.fileSummary(byHunk));
          expect(reviewFile.fileSummary(byLines).hunks[hunk.index]!.decision).toBe('accepted');
          expect(reviewFile.composeFinal(byLines)).toEqual(reviewFile.composeFinal(byHunk));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejecting every line of every hunk gives the base; accepting every line gives the proposal', () => {
    fc.assert(
      fc.property(textArb, textArb, fc.array(decisionArb, { minLength: 1 }), (base, prop, first) => {
        const file = reviewFile.createFileState(proposed('/p', text(base), prop));
        decideEveryLine(file, first); // whatever was decided before
        decideEveryLine(file, ['rejected']);
        expect(reviewFile.composeFinal(file)).toEqual({
          path: '/p',
          expectedOnDisk: expect.anything(),
          changed: false,
          baseText: base,
          finalText: base,
        });
        decideEveryLine(file, ['accepted']);
        expect(reviewFile.composeFinal(file)).toEqual({
          path: '/p',
          expectedOnDisk: expect.anything(),
          changed: base !== prop,
          baseText: base,
          finalText: prop,
        });
      }),
      { numRuns: 300 },
    );
  });

  it('whole-hunk decisions splice exactly the taken hunks into the base (undecided = accepted)', () => {
    fc.assert(
      fc.property(textArb, textArb, fc.array(decisionArb, { maxLength: 20 }), (base, prop, decisions) => {
        const file = reviewFile.createFileState(proposed('/p', text(base), prop));
        file.hunks.forEach((h, i) => reviewFile.decideHunks(file, [h.index], decisions[i] ?? 'pending'));
        const accepted = file.hunks.map((_, i) => (decisions[i] ?? 'pending') !== 'rejected');
        expect(file.hunks).toEqual(computeHunks(base, prop));
        expect(reviewFile.composeFinal(file).finalText).toBe(
          spliceChosenHunks(base, prop, file.hunks, accepted),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('an edit of the proposal carries line decisions over as the remap reference says', () => {
    fc.assert(
      fc.property(
        textArb,
        textArb,
        textArb,
        fc.array(decisionArb, { minLength: 1 }),
        (base, prop, edited, decisions) => {
          const file = reviewFile.createFileState(proposed('/p', text(base), prop));
          decideEveryLine(file, decisions);
          const before = reviewFile.cloneFileState(file);
          reviewFile.editProposal(file, edited);
          expect(file.hunks).toEqual(computeHunks(base, edited));
          expect(file.lines).toEqual(remapReference(prop, before.hunks, before.lines, edited, file.hunks));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('random per-line decisions compose to kept base lines then taken added lines, per hunk', () => {
    fc.assert(
      fc.property(textArb, textArb, fc.array(decisionArb, { minLength: 1 }), (base, prop, decisions) => {
        const file = reviewFile.createFileState(proposed('/p', text(base), prop));
        decideEveryLine(file, decisions);
        const reference = spliceLineDecisions(
          base,
          prop,
          file.hunks,
          lineDecisionsFrom(file.hunks, decisions),
        );
        expect(reviewFile.composeFinal(file).finalText).toBe(reference);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('decideFile', () => {
  it('on a text file sets every hunk, overriding line decisions', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = add(queue, proposed('/ws/a.txt', text(BASE), TWO_HUNKS));
    queue.decideLines(id, 0, 0, { base: [0], proposed: [] }, 'rejected');
    queue.decideFile(id, 0, 'accepted');
    let file = queue.summary(id).files[0]!;
    expect(file.hunks.map((h) => h.decision)).toEqual(['accepted', 'accepted']);
    expect(file.fileDecision).toBe('accepted');
    queue.decideFile(id, 0, 'rejected');
    file = queue.summary(id).files[0]!;
    expect(file.hunks.map((h) => h.decision)).toEqual(['rejected', 'rejected']);
    expect(file.fileDecision).toBe('rejected');
    queue.submit(id);
    await expect(outcome).resolves.toEqual({ kind: 'rejected', reason: 'every hunk rejected' });
  });

  it('fileDecision is the hunks\' shared decision, or "mixed"', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/a.txt', text(BASE), TWO_HUNKS));
    queue.decideHunks(id, 0, [0], 'accepted');
    expect(queue.summary(id).files[0]!.fileDecision).toBe('mixed');
    queue.decideHunks(id, 0, [1], 'accepted');
    expect(queue.summary(id).files[0]!.fileDecision).toBe('accepted');
  });

  it('addresses only its file', () => {
    const queue = new ReviewQueue();
    const { id } = add(
      queue,
      proposed('/ws/a.txt', text(BASE), TWO_HUNKS),
      proposed('/ws/b.txt', text(BASE), TWO_HUNKS),
    );
    queue.decideFile(id, 1, 'rejected');
    expect(queue.summary(id).files.map((f) => f.fileDecision)).toEqual(['pending', 'rejected']);
    expect(() => queue.decideFile(id, 2, 'rejected')).toThrow(ReviewError);
  });
});

describe('binary files', () => {
  it('have no hunks, a size and a whole-file decision', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/img.png', binary('h1', 4096), 'new content'));
    expect(queue.summary(id).files[0]).toEqual({
      path: '/ws/img.png',
      isNewFile: false,
      binary: true,
      binarySize: 4096,
      fileDecision: 'pending',
      contentRevision: 1,
      hunkCount: 0,
      hunks: [],
      disk: { state: 'unchanged' },
      conflicts: 0,
    });
    queue.decideFile(id, 0, 'rejected');
    expect(queue.summary(id).files[0]!.fileDecision).toBe('rejected');
    queue.decideAll(id, 'accepted');
    expect(queue.summary(id).files[0]!.fileDecision).toBe('accepted');
  });

  it('a file that is not UTF-8 is reviewed as binary too', () => {
    const queue = new ReviewQueue();
    const base: DiskSnapshot = { exists: true, kind: 'opaque', hash: 'x', size: 3, why: 'not UTF-8' };
    const { id } = add(queue, proposed('/ws/l1.txt', base, 'café\n'));
    expect(queue.summary(id).files[0]).toMatchObject({ binary: true, binarySize: 3, hunks: [] });
  });

  it('rejected: submit leaves it unchanged', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = add(
      queue,
      proposed('/ws/img.png', binary(), 'new content'),
      proposed('/ws/a.txt', text(BASE), TWO_HUNKS),
    );
    queue.decideFile(id, 0, 'rejected');
    queue.submit(id);
    await expect(outcome).resolves.toEqual({
      kind: 'accepted',
      files: [
        {
          path: '/ws/img.png',
          expectedOnDisk: expect.anything(),
          changed: false,
          baseText: '',
          finalText: '',
        },
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

  it('rejected alone: the submit is a rejection', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = add(queue, proposed('/ws/img.png', binary(), 'new content'));
    queue.decideFile(id, 0, 'rejected');
    expect(queue.submit(id).kind).toBe('rejected');
    await expect(outcome).resolves.toMatchObject({ kind: 'rejected' });
  });

  it.each<HunkDecision>(['accepted', 'pending'])('%s: submit writes the proposal', async (decision) => {
    const queue = new ReviewQueue();
    const { id, outcome } = add(queue, proposed('/ws/img.png', binary(), 'new content'));
    queue.decideFile(id, 0, decision);
    queue.submit(id);
    await expect(outcome).resolves.toEqual({
      kind: 'accepted',
      files: [
        {
          path: '/ws/img.png',
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: '',
          finalText: 'new content',
        },
      ],
    });
  });

  it('cannot be decided by hunk or line, nor edited', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/img.png', binary(), 'new content'));
    expect(() => queue.decideHunks(id, 0, [0], 'accepted')).toThrow(ReviewError);
    expect(() => queue.decideLines(id, 0, 0, { base: [0], proposed: [] }, 'accepted')).toThrow(ReviewError);
    expect(() => queue.editProposal(id, 0, 'other')).toThrow(/binary/);
    expect(queue.summary(id).canUndo).toBe(false);
    expect(queue.contents(id)).toEqual([
      { path: '/ws/img.png', contentRevision: 1, baseText: '', proposedText: 'new content' },
    ]);
  });
});

describe('new files', () => {
  it('a new file edited down to nothing is still created, whatever was decided before', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/new.txt', ABSENT, 'x\n'));
    queue.decideAll(id, 'rejected');
    queue.decideHunks(id, 0, [0], 'accepted');
    queue.editProposal(id, 0, '');
    expect(queue.summary(id).files[0]?.fileDecision).toBe('accepted');
    expect(queue.submit(id)).toMatchObject({ kind: 'accepted', files: [{ changed: true, finalText: '' }] });
  });

  it('a new empty file has no hunks, and submitting it is a change', async () => {
    const queue = new ReviewQueue();
    const { id, outcome } = add(queue, proposed('/ws/empty.txt', ABSENT, ''));
    expect(queue.summary(id).files[0]).toMatchObject({
      isNewFile: true,
      binary: false,
      hunks: [],
      fileDecision: 'pending',
    });
    expect(queue.submit(id)).toEqual({
      kind: 'accepted',
      files: [
        {
          path: '/ws/empty.txt',
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: '',
          finalText: '',
        },
      ],
    });
    await expect(outcome).resolves.toMatchObject({ kind: 'accepted' });
  });

  it('a new empty file rejected as a whole is not created', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/empty.txt', ABSENT, ''));
    queue.decideFile(id, 0, 'rejected');
    expect(queue.summary(id).files[0]!.fileDecision).toBe('rejected');
    expect(queue.submit(id).kind).toBe('rejected');
  });

  it('an existing empty file proposed unchanged is no change', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/empty.txt', text(''), ''));
    expect(queue.submit(id).kind).toBe('rejected');
  });

  it('a new file whose only hunk is rejected is not created', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed('/ws/new.txt', ABSENT, 'x\n'));
    queue.decideHunks(id, 0, [0], 'rejected');
    expect(queue.submit(id).kind).toBe('rejected');
  });
});

// ---------------------------------------------------------------------------------------------

describe('undo', () => {
  const PATH = '/ws/a.txt';
  /** Disk edit of the last line: clear of the proposal's first-line edit... */
  const DISK_CLEAR = 'a\nb\nc\nd\nE\n';

  function setup() {
    const queue = new ReviewQueue(ticking());
    const { id, outcome } = add(
      queue,
      proposed(PATH, text(BASE), 'A\nb\nc\nd\ne\n'),
      proposed('/ws/b.txt', text(BASE), TWO_HUNKS),
    );
    return { queue, id, outcome };
  }

  const operations: [string, (q: ReviewQueue, id: string) => void][] = [
    ['decideHunks', (q, id) => q.decideHunks(id, 1, [1], 'rejected')],
    ['decideAll', (q, id) => q.decideAll(id, 'rejected')],
    ['decideLines', (q, id) => q.decideLines(id, 1, 0, { base: [0], proposed: [] }, 'rejected')],
    ['decideFile', (q, id) => q.decideFile(id, 1, 'accepted')],
    ['editProposal', (q, id) => q.editProposal(id, 1, 'A\nb\nC\nd\nE\n')],
    [
      'rebase',
      (q, id) => {
        q.rebase(id, 0);
      },
    ],
  ];

  it.each(operations)('after %s, undo restores the previous summary and contents exactly', (_label, op) => {
    const { queue, id } = setup();
    // Some state to go back to: a decision, and (for rebase) a file changed on disk.
    queue.decideHunks(id, 1, [0], 'accepted');
    queue.noteDisk(PATH, text(DISK_CLEAR));
    const before = state(queue, id);
    const contentsBefore = contentsWithoutRevisions(queue, id);
    const revisionsBefore = queue.contents(id).map((content) => content.contentRevision);
    op(queue, id);
    expect(state(queue, id)).not.toEqual(before);
    expect(queue.summary(id).canUndo).toBe(true);
    const revisionsDuring = queue.contents(id).map((content) => content.contentRevision);
    queue.undo(id);
    expect(state(queue, id)).toEqual(before);
    expect(contentsWithoutRevisions(queue, id)).toEqual(contentsBefore);
    // Revisions never go back: a text changed by the operation and restored by undo gets a new one.
    queue.contents(id).forEach((content, i) => {
      expect(content.contentRevision).toBeGreaterThanOrEqual(revisionsDuring[i]!);
      if (revisionsDuring[i] !== revisionsBefore[i])
        expect(content.contentRevision).toBeGreaterThan(revisionsDuring[i]!);
    });
    expect(queue.summary(id).canUndo).toBe(true); // the first decision is still there
    queue.undo(id);
    expect(queue.summary(id).canUndo).toBe(false);
  });

  it('canUndo is false at start and after undoing everything; undo with nothing throws', () => {
    const { queue, id } = setup();
    expect(queue.summary(id).canUndo).toBe(false);
    expect(() => queue.undo(id)).toThrow(ReviewError);
    expect(() => queue.undo(id)).toThrow('Nothing to undo');
    const start = state(queue, id);
    const steps: Omit<ReviewSummary, 'canUndo'>[] = [];
    for (const [, op] of operations.slice(0, 5)) {
      steps.push(state(queue, id));
      op(queue, id);
    }
    // Step by step, newest first.
    for (const expected of steps.reverse()) {
      expect(queue.summary(id).canUndo).toBe(true);
      queue.undo(id);
      expect(state(queue, id)).toEqual(expected);
    }
    expect(state(queue, id)).toEqual(start);
    expect(queue.summary(id).canUndo).toBe(false);
    expect(() => queue.undo(id)).toThrow(ReviewError);
  });

  it('undo of decideAll takes back every file at once', () => {
    const { queue, id } = setup();
    queue.decideHunks(id, 0, [0], 'accepted');
    queue.decideHunks(id, 1, [0], 'rejected');
    const before = state(queue, id);
    queue.decideAll(id, 'rejected');
    queue.undo(id);
    expect(state(queue, id)).toEqual(before);
  });

  it('a failed operation adds no undo step', () => {
    const { queue, id } = setup();
    expect(() => queue.decideHunks(id, 0, [7], 'accepted')).toThrow(ReviewError);
    expect(queue.summary(id).canUndo).toBe(false);
    queue.decideHunks(id, 0, [0], 'rejected');
    const start = state(queue, id);
    expect(() => queue.decideHunks(id, 0, [0, 7], 'accepted')).toThrow(ReviewError);
    expect(() => queue.decideLines(id, 0, 0, { base: [4], proposed: [] }, 'accepted')).toThrow(ReviewError);
    expect(() => queue.rebase(id, 0)).toThrow(ReviewError); // nothing changed on disk
    expect(() => queue.decideFile(id, 5, 'accepted')).toThrow(ReviewError);
    expect(state(queue, id)).toEqual(start);
    queue.undo(id);
    expect(queue.summary(id).files[0]!.hunks.map((h) => h.decision)).toEqual(['pending']);
    expect(queue.summary(id).canUndo).toBe(false);
  });

  it('an edit to the same text is no step', () => {
    const { queue, id } = setup();
    queue.editProposal(id, 1, TWO_HUNKS);
    expect(queue.summary(id).canUndo).toBe(false);
  });

  it('notifies listeners', () => {
    const { queue, id } = setup();
    queue.decideAll(id, 'accepted');
    const listener = vi.fn();
    queue.onChange(listener);
    queue.undo(id);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('is refused on an ended review, and submit clears the steps', () => {
    const { queue, id } = setup();
    queue.decideAll(id, 'accepted');
    queue.submit(id);
    expect(queue.summary(id).canUndo).toBe(false);
    expect(() => queue.undo(id)).toThrow(ReviewError);
    expect(() => queue.undo('nope')).toThrow(ReviewError);
  });

  it('after a disk change keeps the file flagged (decide, disk changes, undo)', () => {
    const { queue, id } = setup();
    queue.decideHunks(id, 0, [0], 'rejected');
    queue.noteDisk(PATH, text(DISK_CLEAR));
    expect(queue.summary(id).files[0]!.disk.state).toBe('modified');
    queue.undo(id);
    const file = queue.summary(id).files[0]!;
    expect(file.hunks.map((h) => h.decision)).toEqual(['pending']);
    expect(file.disk.state).toBe('modified');
    expect(file.disk.detectedAt).toEqual(expect.any(Number));
    expect(queue.contents(id)[0]!.diskText).toBe(DISK_CLEAR);
    expect(() => queue.submit(id)).toThrow(/changed on disk/);
  });

  it('after the disk went back to the base, an undone step is judged unchanged', () => {
    const { queue, id } = setup();
    queue.noteDisk(PATH, text(DISK_CLEAR));
    queue.decideHunks(id, 0, [0], 'rejected'); // made while flagged
    queue.noteDisk(PATH, text(BASE));
    expect(queue.summary(id).files[0]!.disk).toEqual({ state: 'unchanged' });
    queue.undo(id);
    expect(queue.summary(id).files[0]!.disk).toEqual({ state: 'unchanged' });
    expect(() => queue.submit(id)).not.toThrow();
  });

  it('undoing a rebase after the disk changed again re-judges against the latest disk', () => {
    const { queue, id } = setup();
    queue.noteDisk(PATH, text(DISK_CLEAR));
    queue.rebase(id, 0);
    queue.noteDisk(PATH, text('totally\ndifferent\n'));
    queue.undo(id);
    const file = queue.summary(id).files[0]!;
    expect(queue.contents(id)[0]).toMatchObject({ baseText: BASE, diskText: 'totally\ndifferent\n' });
    expect(file.disk.state).toBe('modified');
  });
});

// ---------------------------------------------------------------------------------------------

describe('noteDisk', () => {
  const PATH = '/ws/a.txt';

  function setup(base: DiskSnapshot = text(BASE), prop = TWO_HUNKS) {
    const queue = new ReviewQueue(ticking());
    const { id, outcome } = add(queue, proposed(PATH, base, prop));
    return { queue, id, outcome };
  }

  it('the same text leaves the file unchanged and notifies nobody', () => {
    const { queue, id } = setup();
    const listener = vi.fn();
    queue.onChange(listener);
    queue.noteDisk(PATH, text(BASE));
    expect(queue.summary(id).files[0]!.disk).toEqual({ state: 'unchanged' });
    expect(queue.contents(id)[0]).not.toHaveProperty('diskText');
    expect(listener).not.toHaveBeenCalled();
  });

  it('different text is "modified", with detectedAt and the disk text in contents', () => {
    const { queue, id } = setup();
    const listener = vi.fn();
    queue.onChange(listener);
    queue.noteDisk(PATH, text('a\nb\nX\nd\ne\n'));
    const disk = queue.summary(id).files[0]!.disk;
    expect(disk).toEqual({ state: 'modified', detectedAt: expect.any(Number) });
    expect(queue.contents(id)[0]!.diskText).toBe('a\nb\nX\nd\ne\n');
    expect(queue.contents(id)[0]!.baseText).toBe(BASE);
    expect(listener).toHaveBeenCalledTimes(1);
    // Seeing the same change again is no news.
    queue.noteDisk(PATH, text('a\nb\nX\nd\ne\n'));
    expect(queue.summary(id).files[0]!.disk).toEqual(disk);
    expect(listener).toHaveBeenCalledTimes(1);
    // A further change is.
    queue.noteDisk(PATH, text('a\nb\nY\nd\ne\n'));
    expect(queue.contents(id)[0]!.diskText).toBe('a\nb\nY\nd\ne\n');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('absent is "deleted"', () => {
    const { queue, id } = setup();
    queue.noteDisk(PATH, ABSENT);
    expect(queue.summary(id).files[0]!.disk.state).toBe('deleted');
    expect(queue.contents(id)[0]!.diskText).toBe('');
  });

  it('a binary file where text was is "modified"', () => {
    const { queue, id } = setup();
    queue.noteDisk(PATH, binary());
    expect(queue.summary(id).files[0]!.disk.state).toBe('modified');
  });

  it('a new file created on disk meanwhile is "created"; gone again is "unchanged"', () => {
    const { queue, id } = setup(ABSENT, 'new\n');
    queue.noteDisk(PATH, text('someone else\n'));
    expect(queue.summary(id).files[0]!.disk.state).toBe('created');
    expect(queue.contents(id)[0]!.diskText).toBe('someone else\n');
    queue.noteDisk(PATH, ABSENT);
    expect(queue.summary(id).files[0]!.disk).toEqual({ state: 'unchanged' });
  });

  it('back to the base text is "unchanged" again, without detectedAt or diskText', () => {
    const { queue, id } = setup();
    queue.noteDisk(PATH, text('changed\n'));
    queue.noteDisk(PATH, text(BASE));
    expect(queue.summary(id).files[0]!.disk).toStrictEqual({ state: 'unchanged' });
    expect(queue.contents(id)[0]).not.toHaveProperty('diskText');
  });

  it('a binary base compares by hash', () => {
    const { queue, id } = setup(binary('h1'), 'x');
    queue.noteDisk(PATH, binary('h1'));
    expect(queue.summary(id).files[0]!.disk.state).toBe('unchanged');
    queue.noteDisk(PATH, binary('h2'));
    expect(queue.summary(id).files[0]!.disk.state).toBe('modified');
  });

  it('submit is refused while the file differs on disk, and the review stays pending', async () => {
    const { queue, id, outcome } = setup();
    queue.decideAll(id, 'accepted');
    queue.noteDisk(PATH, text('changed\n'));
    expect(() => queue.submit(id)).toThrow(ReviewError);
    expect(() => queue.submit(id)).toThrow(/changed on disk/);
    expect(queue.summary(id).state).toBe('pending');
    expect(await isSettled(outcome)).toBe(false);
    queue.noteDisk(PATH, ABSENT);
    expect(() => queue.submit(id)).toThrow(/changed on disk \(deleted\)/);
    // Once the disk is back to the base, submit goes through.
    queue.noteDisk(PATH, text(BASE));
    expect(queue.submit(id).kind).toBe('accepted');
  });

  it('touches only pending reviews of that path', () => {
    const queue = new ReviewQueue();
    const a = add(queue, proposed(PATH, text(BASE), TWO_HUNKS));
    const b = add(queue, proposed(PATH, text(BASE), TWO_HUNKS), proposed('/ws/other.txt', text(BASE), ''));
    const ended = add(queue, proposed(PATH, text(BASE), TWO_HUNKS));
    queue.reject(ended.id);
    const endedBefore = queue.summary(ended.id);
    queue.noteDisk(PATH, text('x\n'));
    expect(queue.summary(a.id).files[0]!.disk.state).toBe('modified');
    expect(queue.summary(b.id).files.map((f) => f.disk.state)).toEqual(['modified', 'unchanged']);
    expect(queue.summary(ended.id)).toEqual(endedBefore);
  });

  it('pendingPaths lists the files of pending reviews only', () => {
    const queue = new ReviewQueue();
    add(queue, proposed('/ws/1', text(''), 'x'), proposed('/ws/2', text(''), 'y'));
    const ended = add(queue, proposed('/ws/3', text(''), 'z'));
    queue.reject(ended.id);
    expect(queue.pendingPaths()).toEqual(new Set(['/ws/1', '/ws/2']));
  });
});

// ---------------------------------------------------------------------------------------------

describe('rebase', () => {
  const PATH = '/ws/a.txt';

  it('merges edits clear of each other: both kept, base = disk, decisions start over', async () => {
    const queue = new ReviewQueue(ticking());
    const { id, outcome } = add(queue, proposed(PATH, text(BASE), 'A\nb\nc\nd\ne\n'));
    queue.decideHunks(id, 0, [0], 'rejected');
    const disk = 'a\nb\nc\nd\nE\n';
    queue.noteDisk(PATH, text(disk));
    queue.rebase(id, 0);
    const file = queue.summary(id).files[0]!;
    expect(file.conflicts).toBe(0);
    expect(file.disk).toStrictEqual({ state: 'unchanged' });
    expect(file.contentRevision).toBe(2);
    expect(file.isNewFile).toBe(false);
    expect(file.hunks.map((h) => h.decision)).toEqual(['pending']);
    expect(file.fileDecision).toBe('pending');
    expect(queue.contents(id)).toStrictEqual([
      { path: PATH, contentRevision: 2, baseText: disk, proposedText: 'A\nb\nc\nd\nE\n' },
    ]);
    queue.submit(id);
    await expect(outcome).resolves.toEqual({
      kind: 'accepted',
      files: [
        {
          path: PATH,
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: disk,
          finalText: 'A\nb\nc\nd\nE\n',
        },
      ],
    });
  });

  it('overlapping edits leave conflicts, and submit waits until they are edited out', async () => {
    const queue = new ReviewQueue(ticking());
    const { id, outcome } = add(queue, proposed(PATH, text(BASE), 'a\nb\nP\nd\ne\n'));
    const disk = 'a\nb\nD\nd\ne\n';
    queue.noteDisk(PATH, text(disk));
    queue.rebase(id, 0);
    const file = queue.summary(id).files[0]!;
    expect(file.conflicts).toBeGreaterThan(0);
    const content = queue.contents(id)[0]!;
    expect(content.baseText).toBe(disk);
    expect(content.proposedText).toBe(
      `a\nb\n${CONFLICT_START}\nD\n${CONFLICT_SEPARATOR}\nP\n${CONFLICT_END}\nd\ne\n`,
    );
    expect(() => queue.submit(id)).toThrow(ReviewError);
    expect(() => queue.submit(id)).toThrow(/conflict/);
    expect(queue.summary(id).state).toBe('pending');
    expect(await isSettled(outcome)).toBe(false);

    queue.editProposal(id, 0, 'a\nb\nDP\nd\ne\n');
    expect(queue.summary(id).files[0]!.conflicts).toBe(0);
    queue.submit(id);
    await expect(outcome).resolves.toEqual({
      kind: 'accepted',
      files: [
        {
          path: PATH,
          expectedOnDisk: expect.anything(),
          changed: true,
          baseText: disk,
          finalText: 'a\nb\nDP\nd\ne\n',
        },
      ],
    });
  });

  it('a proposal that arrives with conflict markers already counts them', () => {
    const queue = new ReviewQueue();
    const marked = `${CONFLICT_START}\nx\n${CONFLICT_SEPARATOR}\ny\n${CONFLICT_END}\n`;
    const { id } = add(queue, proposed(PATH, text(BASE), marked));
    expect(queue.summary(id).files[0]!.conflicts).toBe(1);
    expect(() => queue.submit(id)).toThrow(/1 unresolved conflict\b/);
  });

  it('is refused when nothing changed on disk', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed(PATH, text(BASE), TWO_HUNKS));
    expect(() => queue.rebase(id, 0)).toThrow(ReviewError);
    expect(() => queue.rebase(id, 0)).toThrow(/has not changed on disk/);
    queue.noteDisk(PATH, text(BASE));
    expect(() => queue.rebase(id, 0)).toThrow(ReviewError);
    expect(() => queue.rebase(id, 1)).toThrow(ReviewError);
  });

  it('is refused when the file is now binary on disk', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed(PATH, text(BASE), TWO_HUNKS));
    queue.noteDisk(PATH, binary());
    const before = queue.summary(id);
    expect(() => queue.rebase(id, 0)).toThrow(/binary/);
    expect(queue.summary(id)).toEqual(before);
  });

  it('onto a file created meanwhile, makes it an existing file', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, proposed(PATH, ABSENT, 'mine\n'));
    queue.noteDisk(PATH, text('theirs\n'));
    queue.rebase(id, 0);
    const file = queue.summary(id).files[0]!;
    expect(file.isNewFile).toBe(false);
    expect(file.disk.state).toBe('unchanged');
    expect(queue.contents(id)[0]!.baseText).toBe('theirs\n');
  });
});

describe('a change already written by the agent (onDisk)', () => {
  const OLD = 'a\nb\nc\nd\ne\n';
  const NEW = 'A\nb\nc\nd\nE\n';
  const onDiskFile = (): ProposedFile => ({ ...proposed('/ws/w.txt', text(OLD), NEW), onDisk: text(NEW) });

  it('judges the disk against the written text, not the base', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, onDiskFile());
    queue.noteDisk('/ws/w.txt', text(NEW));
    expect(queue.summary(id).files[0]?.disk.state).toBe('unchanged');
    queue.noteDisk('/ws/w.txt', text(OLD));
    expect(queue.summary(id).files[0]?.disk.state).toBe('modified');
  });

  it('composes against the base, so rejected hunks are reverted', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, onDiskFile());
    queue.decideHunks(id, 0, [1], 'rejected');
    expect(queue.submit(id)).toMatchObject({
      kind: 'accepted',
      files: [{ finalText: 'A\nb\nc\nd\ne\n', expectedOnDisk: text(NEW) }],
    });
  });

  it('is marked written in every list, so the window can say a reject reverts it', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, onDiskFile(), proposed('/ws/later.txt', text(OLD), NEW));
    expect(queue.summary(id).files.map((file) => file.written)).toEqual([true, undefined]);
    expect(queue.items()[0]!.files.map((file) => file.written)).toEqual([true, undefined]);
  });

  it('refuses a rebase: the agent must propose again', () => {
    const queue = new ReviewQueue();
    const { id } = add(queue, onDiskFile());
    queue.noteDisk('/ws/w.txt', text('something else\n'));
    expect(() => queue.rebase(id, 0)).toThrow(/already changed by the agent/);
  });
});
