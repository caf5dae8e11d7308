import { describe, expect, it } from 'vitest';
import { hunkLineDecorations } from '../../../src-renderer/review/hunk-decorations';
import { guessLanguage } from '../../../src-renderer/review/language';
import {
  displayPath,
  errorMessage,
  shortenPaths,
  submitSummary,
  submittedSummary,
} from '../../../src-renderer/review/review-model';
import { formatAge } from '../../../src-renderer/state/time';

describe('hunkLineDecorations', () => {
  const hunks = [
    { index: 0, baseStart: 3, baseEnd: 4, proposedStart: 3, proposedEnd: 4, decision: 'accepted' as const },
    { index: 1, baseStart: 7, baseEnd: 8, proposedStart: 7, proposedEnd: 7, decision: 'rejected' as const },
    {
      index: 2,
      baseStart: 10,
      baseEnd: 10,
      proposedStart: 9,
      proposedEnd: 13,
      decision: 'rejected' as const,
    },
    {
      index: 3,
      baseStart: 20,
      baseEnd: 21,
      proposedStart: 23,
      proposedEnd: 24,
      decision: 'pending' as const,
    },
  ];
  it('marks proposed lines, strikes only rejected proposed text, skips empty sides', () => {
    expect(hunkLineDecorations(hunks, 'modified', 3)).toEqual([
      { startLine: 4, endLine: 4, className: 'dt-line-accepted', gutterClassName: 'dt-line-accepted-gutter' },
      {
        startLine: 10,
        endLine: 13,
        className: 'dt-line-rejected',
        gutterClassName: 'dt-line-rejected-gutter',
        inlineClassName: 'dt-text-rejected',
      },
      { startLine: 24, endLine: 24, className: 'dt-line-current', gutterClassName: 'dt-line-current-gutter' },
    ]);
  });
  it('marks base lines without strikethrough', () => {
    expect(
      hunkLineDecorations(hunks, 'original', null).map((d) => [d.startLine, d.endLine, d.inlineClassName]),
    ).toEqual([
      [4, 4, undefined],
      [8, 8, undefined],
    ]);
  });
});

describe('small helpers', () => {
  it('guesses languages by file name and longest extension', () => {
    const langs = [
      { id: 'typescript', extensions: ['.ts', '.tsx'] },
      { id: 'dockerfile', filenames: ['Dockerfile'] },
      { id: 'special', extensions: ['.d.ts'] },
    ];
    expect(guessLanguage('/a/b/c.TSX', langs)).toBe('typescript');
    expect(guessLanguage('x/Dockerfile', langs)).toBe('dockerfile');
    expect(guessLanguage('types.d.ts', langs)).toBe('special');
    expect(guessLanguage('notes.weird', langs)).toBe('plaintext');
  });
  it('says what submit will do with undecided hunks', () => {
    expect(submitSummary({ accepted: 2, rejected: 1, pending: 0 })).toBe('2 accepted, 1 rejected');
    expect(submitSummary({ accepted: 0, rejected: 1, pending: 1 })).toBe(
      '0 accepted, 1 rejected, 1 undecided hunk will be accepted',
    );
    expect(submittedSummary({ accepted: 1, rejected: 1, pending: 2 })).toBe('3 accepted, 1 rejected');
  });
  it('shows paths relative to their workspace folder', () => {
    expect(displayPath('/w/src/a.ts', ['/x', '/w'])).toBe('src/a.ts');
    expect(displayPath('/w2/a.ts', ['/w'])).toBe('/w2/a.ts');
    expect(displayPath('C:\\w\\a.ts', ['C:\\w'])).toBe('a.ts');
  });
  it('shortens workspace paths inside messages as displayPath does, and only whole paths', () => {
    const folders = ['/tmp/ws', '/tmp/ws/nested/'];
    expect(
      shortenPaths(
        '/tmp/ws/disk.txt changed on disk (modified) since it was proposed: rebase or reject',
        folders,
      ),
    ).toBe('disk.txt changed on disk (modified) since it was proposed: rebase or reject');
    expect(shortenPaths('Error: ReviewError: /tmp/ws/a.ts and "/tmp/ws/nested/b.ts"', folders)).toBe(
      'Error: ReviewError: a.ts and "b.ts"',
    );
    // Not a workspace path: another folder, a folder inside another path, the folder alone.
    expect(shortenPaths('/tmp/ws2/a.ts /x/tmp/ws/a.ts in /tmp/ws', folders)).toBe(
      '/tmp/ws2/a.ts /x/tmp/ws/a.ts in /tmp/ws',
    );
    expect(shortenPaths('C:\\w\\src\\a.ts is locked', ['C:\\w'])).toBe('src\\a.ts is locked');
    expect(shortenPaths('/w/a.ts', [])).toBe('/w/a.ts');
    expect(errorMessage(new Error('/w/a.ts changed'), ['/w'])).toBe('a.ts changed');
    expect(errorMessage('/w/a.ts gone', ['/w/'])).toBe('a.ts gone');
  });
  it('formats ages', () => {
    expect(formatAge(0, 10_000)).toBe('just now');
    expect(formatAge(0, 120_000)).toBe('2m ago');
    expect(formatAge(0, 3 * 3600_000)).toBe('3h ago');
    expect(formatAge(0, 49 * 3600_000)).toBe('2d ago');
  });
});
