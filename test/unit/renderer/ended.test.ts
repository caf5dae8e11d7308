import { describe, expect, it } from 'vitest';
import type { AppSnapshot, ReviewSummary } from '../../../shared/app-api';
import type { HunkView, ReviewFileSummary } from '../../../shared/app-api';
import {
  acceptedInPart,
  countDecisions,
  endedBannerText,
  endedByAgent,
  endedLabel,
  endedReviews,
  endedTally,
  newerProposal,
} from '../../../src-renderer/review/review-model';

const client = {
  id: 'c',
  name: 'Claude Code',
  protocol: 'claude-ide' as const,
  connectedAt: 0,
  connected: true,
};

function review(
  id: string,
  state: ReviewSummary['state'],
  extra: Partial<ReviewSummary> = {},
): ReviewSummary {
  return { id, client, title: `${id}.ts`, createdAt: 1, state, files: [], canUndo: false, ...extra };
}
const snap = (...reviews: ReviewSummary[]): AppSnapshot => ({
  version: 0,
  reviews,
  clients: [client],
  pausedClients: [],
  workspaceFolders: [],
  watchedFolders: [],
  connectionRequests: [],
  trustedPrograms: [],
});

describe('endedLabel', () => {
  it('names the state, with the reason for rejected and cancelled reviews', () => {
    expect(endedLabel(review('a', 'accepted'))).toBe('Accepted');
    expect(endedLabel(review('a', 'rejected'))).toBe('Rejected');
    expect(endedLabel(review('a', 'rejected', { reason: 'too broad' }))).toBe('Rejected — too broad');
    expect(endedLabel(review('a', 'rejected', { reason: '  ' }))).toBe('Rejected');
    expect(endedLabel(review('a', 'cancelled', { reason: 'client disconnected' }))).toBe(
      'Cancelled — client disconnected',
    );
    expect(endedLabel(review('a', 'cancelled'))).toBe('Cancelled');
    expect(endedLabel(review('a', 'superseded', { reason: 'superseded by a newer proposal' }))).toBe(
      'Superseded',
    );
  });
});

describe('endedBannerText', () => {
  it('says what happened and whether anything reached the agent', () => {
    const gone = { ...client, connected: false };
    expect(endedBannerText(review('a', 'cancelled', { reason: 'client disconnected', client: gone }))).toBe(
      'Cancelled: client disconnected — nothing was sent to Claude Code.',
    );
    expect(endedBannerText(review('a', 'cancelled', { reason: 'closed by the client' }))).toBe(
      'Cancelled: closed by the client — your decisions were not sent to Claude Code.',
    );
    expect(endedBannerText(review('a', 'superseded', { reason: 'superseded by a newer proposal' }))).toBe(
      'Superseded by a newer proposal.',
    );
    expect(endedBannerText(review('a', 'accepted'))).toBe('Accepted.');
    expect(endedBannerText(review('a', 'rejected', { reason: 'every hunk rejected' }))).toBe(
      'Rejected: every hunk rejected',
    );
    expect(endedBannerText(review('a', 'rejected'))).toBe('Rejected.');
    expect(endedBannerText(review('a', 'accepted'), true)).toBe(
      'Partially accepted: what was rejected was left out.',
    );
  });
});

/** A hunk at position `i` with a decision (and, for a mixed one, its lines' decisions). */
function hunk(i: number, decision: HunkView['decision'], lines?: HunkView['lines']): HunkView {
  return {
    index: i,
    baseStart: i * 10,
    baseEnd: i * 10 + 1,
    proposedStart: i * 10,
    proposedEnd: i * 10 + 1,
    decision,
    ...(lines && { lines }),
  };
}

function fileOf(hunks: HunkView[]): ReviewFileSummary {
  return {
    path: '/ws/a.ts',
    isNewFile: false,
    binary: false,
    fileDecision: 'pending',
    contentRevision: 1,
    hunkCount: hunks.length,
    disk: { state: 'unchanged' },
    conflicts: 0,
    hunks,
  };
}

describe('endedBannerText for a change already on disk: what its rejection did there', () => {
  type Revert = ReviewFileSummary['revert'];
  const written = (...reverts: Revert[]) =>
    reverts.map((revert, i) => ({
      ...fileOf([hunk(0, 'rejected')]),
      path: `/ws/${i}.ts`,
      written: true as const,
      ...(revert && { revert }),
    }));

  it('says the revert happened only when main says it did', () => {
    expect(endedBannerText(review('a', 'rejected', { files: written('reverted') }))).toBe(
      'Rejected. DiffTray reverted the change on disk.',
    );
    expect(
      endedBannerText(review('a', 'rejected', { reason: 'too broad', files: written('reverted') })),
    ).toBe('Rejected: too broad. DiffTray reverted the change on disk.');
    expect(endedBannerText(review('a', 'accepted', { files: written('reverted', undefined) }), true)).toBe(
      'Partially accepted. DiffTray reverted what was rejected on disk.',
    );
  });

  it('a revert refused because the file changed on disk, or failed, is said as not reverted', () => {
    expect(endedBannerText(review('a', 'rejected', { reason: 'no!', files: written('conflict') }))).toBe(
      'Rejected: no! Not reverted: the file changed on disk since it was reviewed, and DiffTray does not overwrite it.',
    );
    expect(
      endedBannerText(review('a', 'rejected', { files: written('reverted', 'conflict', 'conflict') })),
    ).toBe(
      'Rejected. 2 of 3 files not reverted: the files changed on disk since they were reviewed, and DiffTray does not overwrite them.',
    );
    expect(endedBannerText(review('a', 'accepted', { files: written('failed') }), true)).toBe(
      'Partially accepted. Not reverted: see the notes below.',
    );
  });

  it("a client that writes its own files: DiffTray reverted nothing, and the client's name says who", () => {
    expect(endedBannerText(review('a', 'rejected', { files: written('client') }))).toBe(
      'Rejected. DiffTray reverted nothing: Claude Code writes its own files and was told.',
    );
    expect(endedBannerText(review('a', 'accepted', { files: written('client') }))).toBe('Accepted.');
  });
});

describe('what an ended review came to', () => {
  it('an accepted review is partial only when something was rejected', () => {
    const withHunks = (...hunks: HunkView[]) => review('a', 'accepted', { files: [fileOf(hunks)] });
    // Undecided hunks went in as accepted.
    expect(acceptedInPart(withHunks(hunk(0, 'accepted'), hunk(1, 'pending')))).toBe(false);
    expect(acceptedInPart(withHunks(hunk(0, 'accepted'), hunk(1, 'rejected')))).toBe(true);
    // A hunk mixed of accepted and undecided lines kept everything; one with a rejected line did not.
    const keptAll = hunk(0, 'mixed', { removed: ['accepted'], added: ['pending'] });
    const lostOne = hunk(0, 'mixed', { removed: ['accepted'], added: ['rejected'] });
    expect(acceptedInPart(withHunks(keptAll))).toBe(false);
    expect(acceptedInPart(withHunks(lostOne))).toBe(true);
    // Only an accepted review can be accepted in part.
    expect(acceptedInPart(review('a', 'rejected', { files: [fileOf([hunk(0, 'rejected')])] }))).toBe(false);
  });

  it('the tally says what was applied, not only how the hunks were marked', () => {
    const marked = [hunk(0, 'accepted'), hunk(1, 'rejected'), hunk(2, 'pending'), hunk(3, 'pending')];
    const ended = (state: ReviewSummary['state']) => {
      const summary = review('a', state, { files: [fileOf(marked)] });
      return endedTally(summary, countDecisions(summary));
    };
    expect(ended('accepted')).toBe('3 accepted, 1 rejected');
    // Rejected as a whole (Reject…): nothing was kept, whatever was marked accepted before.
    expect(ended('rejected')).toBe('Rejected: none of its 4 hunks kept');
    expect(ended('cancelled')).toBe('Nothing applied (marked: 1 accepted, 1 rejected, 2 undecided)');
    expect(ended('superseded')).toBe('Nothing applied (marked: 1 accepted, 1 rejected, 2 undecided)');
    const one = review('a', 'rejected', { files: [fileOf([hunk(0, 'accepted')])] });
    expect(endedTally(one, countDecisions(one))).toBe('Rejected: its hunk was not kept');
  });
});

describe('ended reviews', () => {
  it('lists up to ten, most recently ended first, never pending ones', () => {
    const reviews = Array.from({ length: 12 }, (_, i) =>
      review(`r${i}`, i % 2 ? 'accepted' : 'cancelled', { createdAt: i, decidedAt: 100 - i * 3 }),
    );
    const listed = endedReviews(snap(review('p', 'pending', { createdAt: 50 }), ...reviews));
    expect(listed.map((r) => r.id)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8', 'r9']);
    expect(endedReviews(null)).toEqual([]);
  });

  it('tells reviews the agent ended from those the person ended', () => {
    expect(endedByAgent(review('a', 'cancelled'))).toBe(true);
    expect(endedByAgent(review('a', 'superseded'))).toBe(true);
    expect(endedByAgent(review('a', 'accepted'))).toBe(false);
    expect(endedByAgent(review('a', 'rejected'))).toBe(false);
    expect(endedByAgent(review('a', 'pending'))).toBe(false);
  });

  it('finds the newer proposal that superseded a review', () => {
    const old = review('a', 'superseded', { title: 'x.ts', description: 'x.ts (edit)', createdAt: 1 });
    const newer = review('b', 'pending', { title: 'x.ts', description: 'x.ts (edit)', createdAt: 2 });
    const other = review('c', 'pending', { title: 'x.ts', description: 'other tab', createdAt: 3 });
    expect(newerProposal(snap(old, other, newer), old)?.id).toBe('b');
    expect(newerProposal(snap(old, other), old)).toBeUndefined();
    expect(newerProposal(snap(old, newer), { ...old, state: 'cancelled' })).toBeUndefined();
  });
});
