import { describe, expect, it } from 'vitest';
import type { AppSnapshot, ReviewSummary } from '../../../shared/app-api';
import {
  endedBannerText,
  endedByAgent,
  endedLabel,
  endedReviews,
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
