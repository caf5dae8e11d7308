/** The pure parts of a change set's result: hunk decisions and the overall status (native/outcome.ts). */
import { describe, expect, it } from 'vitest';
import type { ReviewFileSummary } from '../../shared/app-api';
import type { ChangeSetResult, FileResult } from '../../shared/native-protocol';
import { changeSetStatus, hunkResults } from '../../src-main/bridge/native/outcome';
import { parseUnifiedDiff } from '../../shared/unified-diff';
import { exitCodeOf, formatFile, lowerFirst } from '../../src-main/cli/review';

const file = (hunks: ReviewFileSummary['hunks']): ReviewFileSummary => ({
  path: '/w/x.txt',
  isNewFile: false,
  hunkCount: hunks.length,
  binary: false,
  fileDecision: 'mixed',
  contentRevision: 1,
  hunks,
  disk: { state: 'unchanged' },
  conflicts: 0,
});

const range = { baseStart: 0, baseEnd: 1, proposedStart: 0, proposedEnd: 1 };

describe('hunkResults', () => {
  const summary = file([
    { index: 0, ...range, decision: 'accepted' },
    { index: 1, baseStart: 5, baseEnd: 6, proposedStart: 5, proposedEnd: 7, decision: 'pending' },
    { index: 2, baseStart: 8, baseEnd: 9, proposedStart: 9, proposedEnd: 10, decision: 'rejected' },
    {
      index: 3,
      baseStart: 10,
      baseEnd: 12,
      proposedStart: 11,
      proposedEnd: 13,
      decision: 'mixed',
      lines: { removed: ['pending', 'accepted'], added: ['accepted', 'pending'] },
    },
    {
      index: 4,
      baseStart: 14,
      baseEnd: 15,
      proposedStart: 15,
      proposedEnd: 16,
      decision: 'mixed',
      lines: { removed: ['rejected'], added: ['pending'] },
    },
  ]);

  it('undecided lines count as accepted (that is what submit writes); line-level splits stay mixed', () => {
    expect(hunkResults(summary, 'accepted').map((h) => h.decision)).toEqual([
      'accepted',
      'accepted',
      'rejected',
      'accepted',
      'mixed',
    ]);
    expect(hunkResults(summary, 'accepted')[1]).toEqual({
      index: 1,
      base_start: 5,
      base_end: 6,
      proposed_start: 5,
      proposed_end: 7,
      decision: 'accepted',
    });
  });

  it('a rejected or cancelled review rejects every hunk', () => {
    expect(new Set(hunkResults(summary, 'rejected').map((h) => h.decision))).toEqual(new Set(['rejected']));
    expect(new Set(hunkResults(summary, 'cancelled').map((h) => h.decision))).toEqual(new Set(['rejected']));
  });

  it('names the patch hunk each hunk lies in', () => {
    const [patch] = parseUnifiedDiff(
      '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n@@ -6,1 +6,2 @@\n-f\n+F\n+G\n',
    );
    const hunks = hunkResults(file([summary.hunks[0]!, summary.hunks[1]!]), 'accepted', patch!.hunks);
    expect(hunks.map((h) => h.patch_hunk)).toEqual([0, 1]);
  });
});

describe('changeSetStatus', () => {
  const applied = (decisions: Array<'accepted' | 'rejected' | 'mixed'>): FileResult => ({
    path: 'x',
    status: 'applied',
    disk: 'old_side',
    hunks: decisions.map((decision, index) => ({
      index,
      base_start: 0,
      base_end: 0,
      proposed_start: 0,
      proposed_end: 0,
      decision,
    })),
  });
  const rejected: FileResult = { path: 'y', status: 'rejected', disk: 'old_side', hunks: [] };
  const conflict: FileResult = { path: 'z', status: 'conflict', disk: 'neither', hunks: [] };

  it('accepted only when every file is applied whole', () => {
    expect(changeSetStatus('accepted', [applied(['accepted']), applied([])])).toBe('accepted');
    expect(changeSetStatus('accepted', [applied(['accepted', 'rejected'])])).toBe('partially_accepted');
    expect(changeSetStatus('accepted', [applied(['mixed'])])).toBe('partially_accepted');
    expect(changeSetStatus('accepted', [applied(['accepted']), rejected])).toBe('partially_accepted');
    expect(changeSetStatus('accepted', [applied(['accepted']), conflict])).toBe('partially_accepted');
    expect(changeSetStatus('accepted', [rejected, conflict])).toBe('rejected');
    expect(changeSetStatus('rejected', [rejected])).toBe('rejected');
    expect(changeSetStatus('cancelled', [rejected])).toBe('cancelled');
  });
});

describe('difftray review output', () => {
  const hunk = (decision: 'accepted' | 'rejected' | 'mixed') => ({
    index: 0,
    base_start: 0,
    base_end: 1,
    proposed_start: 0,
    proposed_end: 1,
    decision,
  });
  const result = (files: FileResult[], status: ChangeSetResult['status'] = 'accepted'): ChangeSetResult => ({
    review_id: 'r1',
    status,
    files,
  });

  it('one line per file', () => {
    const applied: FileResult = {
      path: 'src/a.ts',
      status: 'applied',
      applied_hash: 'ab12',
      disk: 'old_side',
      hunks: [hunk('accepted'), hunk('rejected'), hunk('accepted')],
    };
    expect(formatFile(applied)).toBe('applied  src/a.ts  (2/3 hunks)  sha256:ab12');
    expect(formatFile({ ...applied, hunks: [hunk('accepted'), hunk('mixed')], reverted: true })).toBe(
      'applied  src/a.ts  (1/2 hunks, 1 in part, rejected lines reverted)  sha256:ab12',
    );
    expect(
      formatFile({
        path: 'old.txt',
        status: 'applied',
        deleted: true,
        disk: 'old_side',
        hunks: [hunk('accepted')],
      }),
    ).toBe('applied  old.txt  (deleted)');
    expect(
      formatFile({
        path: 'b.ts',
        status: 'rejected',
        reason: 'no',
        disk: 'new_side',
        hunks: [],
        reverted: true,
      }),
    ).toBe('rejected b.ts: no (reverted in the working tree)');
    expect(
      formatFile({ path: 'c.ts', status: 'conflict', reason: 'changed on disk', disk: 'neither', hunks: [] }),
    ).toBe('conflict c.ts: changed on disk');
  });

  it('exit codes: 0 all accepted, 1 anything rejected, 2 conflicts, errors, cancellation', () => {
    const ok: FileResult = { path: 'a', status: 'applied', disk: 'old_side', hunks: [hunk('accepted')] };
    expect(exitCodeOf(result([ok]))).toBe(0);
    expect(
      exitCodeOf(result([{ ...ok, hunks: [hunk('accepted'), hunk('rejected')] }], 'partially_accepted')),
    ).toBe(1);
    expect(exitCodeOf(result([ok, { ...ok, status: 'rejected' }], 'partially_accepted'))).toBe(1);
    expect(exitCodeOf(result([ok, { ...ok, status: 'conflict' }], 'partially_accepted'))).toBe(2);
    expect(exitCodeOf(result([{ ...ok, status: 'error' }], 'rejected'))).toBe(2);
    expect(exitCodeOf(result([ok], 'cancelled'))).toBe(2);
  });

  it('error messages read as one lower-case line, names keep their case', () => {
    expect(lowerFirst('Nothing to review: a.txt: changed')).toBe('nothing to review: a.txt: changed');
    expect(lowerFirst('Malformed patch: no file changes found')).toBe(
      'malformed patch: no file changes found',
    );
    expect(lowerFirst('DiffTray is not running')).toBe('DiffTray is not running');
  });
});
