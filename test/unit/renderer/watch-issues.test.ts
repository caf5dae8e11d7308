import { describe, expect, it } from 'vitest';
import type { WatchFolderIssue } from '../../../shared/app-api';
import {
  issueOf,
  issuesIn,
  noticeText,
  pausedText,
  unwatchedText,
} from '../../../src-renderer/views/watch-issues';

const paused: WatchFolderIssue = {
  folder: '/ws/app',
  paused: { reason: 'more than 500 files changed while its review waits', since: 1, heldChanges: 2 },
};
const unwatched: WatchFolderIssue = {
  folder: '/ws/lib',
  unwatched: { count: 82, first: '/ws/lib/a', reason: 'ENOSPC: System limit', code: 'ENOSPC' },
};

describe('watch issues as the window says them', () => {
  it('finds a folder by its path (a trailing separator aside) and keeps those in the workspace', () => {
    expect(issueOf('/ws/app/', [paused, unwatched])).toBe(paused);
    expect(issueOf('/ws', [paused, unwatched])).toBeUndefined();
    expect(issuesIn(['/ws/lib'], [paused, unwatched])).toEqual([unwatched]);
  });

  it('says why, what is held, and that nothing was taken as reviewed', () => {
    expect(pausedText(paused.paused!)).toBe(
      'Paused: more than 500 files changed while its review waits. 2 changes are held since, not reviewed ' +
        'yet and not taken as reviewed; resuming reviews everything that changed since your last decision.',
    );
    expect(unwatchedText(unwatched.unwatched!)).toBe(
      'Not all watched: 82 folders here cannot be watched, so changes in them are not seen (first: /ws/lib/a: ENOSPC: System limit).',
    );
    expect(noticeText(paused)).toBe(
      'Reviewing changes on disk is paused in /ws/app: more than 500 files changed while its review waits.',
    );
    expect(noticeText(unwatched)).toBe(
      '82 folders in /ws/lib cannot be watched: their changes are not seen.',
    );
  });
});
