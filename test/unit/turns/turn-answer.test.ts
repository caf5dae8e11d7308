import { describe, expect, it } from 'vitest';
import type { ChangeSetResult, FileResult, HunkResult } from '../../../shared/native-protocol';
import { turnBlock, turnReason, yourLines } from '../../../shared/hooks/turn-answer';

const hunk = (index: number, proposed: [number, number], decision: HunkResult['decision']): HunkResult => ({
  index,
  base_start: proposed[0],
  base_end: proposed[1],
  proposed_start: proposed[0],
  proposed_end: proposed[1],
  decision,
});

const file = (path: string, hunks: HunkResult[], extra: Partial<FileResult> = {}): FileResult => ({
  path,
  status: 'applied',
  disk: 'new_side',
  hunks,
  ...extra,
});

const result = (files: FileResult[], extra: Partial<ChangeSetResult> = {}): ChangeSetResult => ({
  review_id: 'r1',
  status: 'partially_accepted',
  files,
  ...extra,
});

describe('what the agent is told after its turn was reviewed', () => {
  it('nothing when everything was kept without a word: the turn ends', () => {
    const kept = result([file('a.txt', [hunk(0, [0, 1], 'accepted')])], { status: 'accepted' });
    expect(turnReason(kept)).toBeUndefined();
    expect(turnBlock(kept)).toBeUndefined();
  });

  it('nothing when the review was cancelled', () => {
    expect(turnReason(result([], { status: 'cancelled', note: 'x' }))).toBeUndefined();
  });

  it('names reverted hunks by the agent’s own lines, whole files, comments and the note', () => {
    const reviewed = result(
      [
        file('a.txt', [hunk(0, [0, 1], 'accepted'), hunk(1, [7, 8], 'rejected'), hunk(2, [9, 12], 'mixed')]),
        file('new.ts', [hunk(0, [0, 3], 'rejected')], { status: 'rejected', deleted: true }),
        file('kept.ts', [hunk(0, [0, 3], 'accepted')]),
        file('typed.ts', [hunk(0, [0, 1], 'rejected')], { status: 'conflict', reason: 'changed on disk' }),
      ],
      {
        note: 'Keep theta lowercase.',
        comments: [{ path: 'a.txt', side: 'proposed', line: 1, quote: 'ALPHA', text: 'Alpha, please.' }],
      },
    );
    expect(turnReason(reviewed)).toBe(
      [
        'The reviewer went over what you wrote this turn, in DiffTray.',
        'Reverted (line numbers are those of the files as you left them):',
        '- a.txt: line 8; part of lines 10–12',
        '- new.ts: all of your changes to it (the file you created is gone)',
        'The files now hold exactly what the reviewer kept: read them again before editing them further.',
        'Changed on disk during the review, so not reverted:',
        '- typed.ts: left as it is (changed on disk)',
        'Comments from the reviewer:',
        '- a.txt:1 ("ALPHA"): Alpha, please.',
        'Note from the reviewer: Keep theta lowercase.',
        'Go on with the task, taking this into account.',
      ].join('\n'),
    );
    expect(turnBlock(reviewed)).toEqual({ decision: 'block', reason: turnReason(reviewed) });
  });

  it('a comment alone makes the agent go on, though everything was kept', () => {
    const commented = result([file('a.txt', [hunk(0, [0, 1], 'accepted')])], {
      status: 'accepted',
      comments: [{ path: 'a.txt', side: 'base', line: 3, quote: '', text: 'why was this removed?' }],
    });
    expect(turnReason(commented)).toContain('Everything you wrote was kept.');
    expect(turnReason(commented)).toContain('- a.txt:3 (before your change): why was this removed?');
  });

  it('says lines as a person counts them', () => {
    expect(yourLines({ proposed_start: 0, proposed_end: 1 })).toBe('line 1');
    expect(yourLines({ proposed_start: 4, proposed_end: 7 })).toBe('lines 5–7');
    expect(yourLines({ proposed_start: 6, proposed_end: 6 })).toBe('the lines you deleted after line 6');
    expect(yourLines({ proposed_start: 0, proposed_end: 0 })).toBe('the lines you deleted at the start');
  });

  it('counts hunks past the twentieth instead of naming them', () => {
    const many = Array.from({ length: 25 }, (_, i) => hunk(i, [i * 3, i * 3 + 1], 'rejected'));
    many.push(hunk(25, [100, 101], 'accepted'));
    expect(turnReason(result([file('big.txt', many)]))).toContain('and 5 more');
  });
});
