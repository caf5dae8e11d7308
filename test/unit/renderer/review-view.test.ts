import { describe, expect, it } from 'vitest';
import type { HunkView, ReviewFileSummary, ReviewSummary } from '../../../shared/app-api';
import {
  baseName,
  binaryPanelText,
  conflictBannerText,
  diskChangeText,
  fileBadges,
  fileCounts,
  filesChangedOnDisk,
  formatBytes,
  stateLabel,
  submitBlocker,
} from '../../../src-renderer/review/file-status';
import { currentHunkDecorations, decisionDecorations } from '../../../src-renderer/review/hunk-decorations';
import { DEFAULT_KEY_MAP } from '../../../shared/keymap';
import { lineCommandForKey } from '../../../src-renderer/keys/line-keys';
import {
  lineDecisionAnnouncement,
  resolveLineSelection,
  selectedLineRanges,
  selectionSummary,
} from '../../../src-renderer/review/line-selection';
import { countDecisions, submitSummary, submittedSummary } from '../../../src-renderer/review/review-model';

const hunk = (
  index: number,
  baseStart: number,
  baseEnd: number,
  proposedStart: number,
  proposedEnd: number,
  decision: HunkView['decision'] = 'pending',
  lines?: HunkView['lines'],
): HunkView => ({
  index,
  baseStart,
  baseEnd,
  proposedStart,
  proposedEnd,
  decision,
  ...(lines ? { lines } : {}),
});

// Hunk 1 replaces base line 2 (0-based) by proposed lines 2-3; hunk 2 inserts proposed 10-11;
// hunk 3 deletes base lines 20-21.
const HUNKS = [hunk(0, 2, 3, 2, 4), hunk(1, 9, 9, 10, 12), hunk(2, 20, 22, 21, 21)];

const sel = (startLineNumber: number, startColumn: number, endLineNumber: number, endColumn: number) => ({
  startLineNumber,
  startColumn,
  endLineNumber,
  endColumn,
});

describe('selectedLineRanges', () => {
  it('turns selections into whole lines; a caret is its line; column 1 at the end leaves that line out', () => {
    expect(selectedLineRanges([sel(3, 1, 3, 1)])).toEqual([[3, 3]]);
    expect(selectedLineRanges([sel(3, 2, 5, 4)])).toEqual([[3, 5]]);
    // Dragging over lines 3-4 in the gutter ends at line 5 column 1.
    expect(selectedLineRanges([sel(3, 1, 5, 1)])).toEqual([[3, 4]]);
  });
  it('merges overlapping and adjacent selections and sorts them', () => {
    expect(
      selectedLineRanges([sel(10, 1, 10, 3), sel(3, 1, 4, 2), sel(5, 1, 5, 1), sel(4, 1, 4, 1)]),
    ).toEqual([
      [3, 5],
      [10, 10],
    ]);
  });
});

describe('resolveLineSelection', () => {
  it('maps modified-editor lines to proposed indices inside the hunk only', () => {
    // Editor lines 2-4 are proposed 1-3; hunk 1 covers proposed 2-3.
    const resolved = resolveLineSelection(HUNKS, { side: 'modified', ranges: [[2, 4]] });
    expect(resolved).toEqual({
      ok: true,
      hunkPosition: 0,
      side: 'modified',
      lines: { base: [], proposed: [2, 3] },
      count: 2,
    });
  });
  it('maps original-editor lines to base indices inside the hunk only', () => {
    const resolved = resolveLineSelection(HUNKS, { side: 'original', ranges: [[20, 25]] });
    expect(resolved).toMatchObject({
      ok: true,
      hunkPosition: 2,
      lines: { base: [20, 21], proposed: [] },
      count: 2,
    });
    // Several ranges within one hunk.
    const two = resolveLineSelection(HUNKS, {
      side: 'original',
      ranges: [
        [21, 21],
        [22, 22],
      ],
    });
    expect(two).toMatchObject({ ok: true, lines: { base: [20, 21], proposed: [] } });
  });
  it('ignores a hunk with no lines on that side (a pure insertion in the base editor)', () => {
    expect(resolveLineSelection(HUNKS, { side: 'original', ranges: [[9, 11]] }).ok).toBe(false);
    expect(resolveLineSelection(HUNKS, { side: 'modified', ranges: [[11, 11]] })).toMatchObject({
      ok: true,
      hunkPosition: 1,
      lines: { base: [], proposed: [10] },
    });
  });
  it('refuses selections touching no hunk or several hunks', () => {
    expect(resolveLineSelection(HUNKS, null)).toMatchObject({ ok: false });
    expect(resolveLineSelection(HUNKS, { side: 'modified', ranges: [[5, 9]] })).toMatchObject({ ok: false });
    const wide = resolveLineSelection(HUNKS, { side: 'modified', ranges: [[1, 12]] });
    expect(wide).toMatchObject({ ok: false });
    expect(wide.ok ? '' : wide.reason).toMatch(/one hunk/);
  });
  it('stays fast on 500 hunks and a select-all', () => {
    const many = Array.from({ length: 500 }, (_, i) => hunk(i, i * 40, i * 40 + 2, i * 40, i * 40 + 3));
    const started = performance.now();
    for (let i = 0; i < 200; i++) {
      resolveLineSelection(many, { side: 'modified', ranges: [[i * 40 + 1, i * 40 + 3]] });
      resolveLineSelection(many, { side: 'modified', ranges: [[1, 20_000]] });
    }
    expect(performance.now() - started).toBeLessThan(200);
    expect(resolveLineSelection(many, { side: 'modified', ranges: [[401, 402]] })).toMatchObject({
      ok: true,
      hunkPosition: 10,
      lines: { proposed: [400, 401] },
    });
  });
  it('describes and announces', () => {
    const resolved = resolveLineSelection(HUNKS, { side: 'modified', ranges: [[3, 4]] });
    expect(selectionSummary(resolved)).toBe('2 added lines selected in hunk 1');
    expect(lineDecisionAnnouncement(1, 3, 'accepted')).toBe('Hunk 2: 3 lines accepted');
    expect(lineDecisionAnnouncement(0, 1, 'rejected')).toBe('Hunk 1: 1 line rejected');
  });
});

describe('line decision keys', () => {
  const key = (over: Partial<KeyboardEvent>) =>
    lineCommandForKey(
      {
        key: '',
        code: '',
        ctrlKey: false,
        metaKey: false,
        altKey: false,
        shiftKey: false,
        ...over,
      },
      DEFAULT_KEY_MAP,
    );
  it('maps Ctrl/Cmd+Shift+Y and N, nothing else', () => {
    expect(key({ key: 'Y', code: 'KeyY', ctrlKey: true, shiftKey: true })).toBe('acceptLines');
    expect(key({ key: 'N', code: 'KeyN', metaKey: true, shiftKey: true })).toBe('rejectLines');
    expect(key({ key: 'y', code: 'KeyY', ctrlKey: true })).toBeNull();
    expect(key({ key: 'Y', code: 'KeyY', shiftKey: true })).toBeNull();
    expect(key({ key: 'Y', code: 'KeyY', ctrlKey: true, shiftKey: true, altKey: true })).toBeNull();
  });
});

describe('decorations', () => {
  it('decorates a mixed hunk line by line, in runs, striking only rejected proposed lines', () => {
    const mixed = hunk(0, 2, 5, 2, 6, 'mixed', {
      removed: ['accepted', 'rejected', 'rejected'],
      added: ['rejected', 'rejected', 'pending', 'accepted'],
    });
    expect(decisionDecorations([mixed], 'modified')).toEqual([
      {
        startLine: 3,
        endLine: 4,
        className: 'dt-line-rejected',
        gutterClassName: 'dt-line-rejected-gutter',
        inlineClassName: 'dt-text-rejected',
      },
      { startLine: 6, endLine: 6, className: 'dt-line-accepted', gutterClassName: 'dt-line-accepted-gutter' },
    ]);
    expect(decisionDecorations([mixed], 'original')).toEqual([
      { startLine: 3, endLine: 3, className: 'dt-line-accepted', gutterClassName: 'dt-line-accepted-gutter' },
      { startLine: 4, endLine: 5, className: 'dt-line-rejected', gutterClassName: 'dt-line-rejected-gutter' },
    ]);
  });
  it('marks the current hunk separately, and not on a side where it has no lines', () => {
    expect(currentHunkDecorations(HUNKS[0], 'modified')).toEqual([
      { startLine: 3, endLine: 4, className: 'dt-line-current', gutterClassName: 'dt-line-current-gutter' },
    ]);
    expect(currentHunkDecorations(HUNKS[1], 'original')).toEqual([]);
    expect(currentHunkDecorations(undefined, 'original')).toEqual([]);
  });
});

const file = (over: Partial<ReviewFileSummary> = {}): ReviewFileSummary => ({
  path: '/w/src/a.ts',
  hunkCount: 0,
  isNewFile: false,
  binary: false,
  fileDecision: 'pending',
  contentRevision: 1,
  hunks: [],
  disk: { state: 'unchanged' },
  conflicts: 0,
  ...over,
});

const review = (files: ReviewFileSummary[]): ReviewSummary => ({
  id: 'r',
  client: { id: 'c', name: 'Claude Code', protocol: 'claude-ide', connectedAt: 0, connected: true },
  title: 't',
  createdAt: 0,
  state: 'pending',
  files,
  canUndo: false,
});

describe('file states', () => {
  it('labels every state, mixed included', () => {
    expect(stateLabel).toEqual({
      pending: 'Undecided',
      accepted: 'Accepted',
      rejected: 'Rejected',
      mixed: 'Mixed',
    });
  });
  it('counts hunks by state', () => {
    const hunks = [hunk(0, 0, 1, 0, 1, 'accepted'), hunk(1, 3, 4, 3, 4, 'mixed'), hunk(2, 6, 7, 6, 7)];
    expect(fileCounts(file({ hunks }))).toBe('3 hunks: 1 accepted, 1 mixed, 1 undecided');
    expect(fileCounts(file({ hunks: [hunk(0, 0, 1, 0, 1)] }))).toBe('1 hunk: 1 undecided');
    expect(fileCounts(file())).toBe('no changes');
    expect(fileCounts(file({ binary: true }))).toBe('');
    expect(fileCounts(file({ binary: true, binarySize: 2048 }))).toBe('2.0 KB');
  });
  it('flags new, binary, changed on disk and conflicts', () => {
    expect(fileBadges(file())).toEqual([]);
    expect(
      fileBadges(file({ isNewFile: true, binary: true, disk: { state: 'modified' }, conflicts: 2 })).map(
        (badge) => badge.label,
      ),
    ).toEqual(['new', 'binary', 'changed on disk', '2 conflicts']);
    expect(fileBadges(file({ disk: { state: 'deleted' } }))[0]?.label).toBe('deleted on disk');
    expect(
      fileBadges(file({ path: '/ws/.claude/settings.json', isNewFile: true })).map((b) => b.label),
    ).toEqual(['High-risk: agent control file', 'new']);
    expect(fileBadges(file({ path: '/ws/.git/hooks/pre-commit' }))[0]?.title).toMatch(/git hook/);
  });
  it('formats sizes for the binary panel', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(12_595)).toBe('12.3 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(binaryPanelText(12_595)).toBe('Binary file (12.3 KB) — not shown as a diff');
    expect(binaryPanelText(undefined)).toBe('Binary file — not shown as a diff');
  });
  it('says which file changed on disk and when', () => {
    const changed = file({ disk: { state: 'modified', detectedAt: 1_000 } });
    expect(diskChangeText('a.ts', changed, 1_000 + 120_000)).toBe('a.ts changed on disk 2m ago');
    expect(diskChangeText('a.ts', file(), 0)).toBe('');
    expect(filesChangedOnDisk(review([file(), changed, file({ disk: { state: 'deleted' } })]))).toEqual([
      1, 2,
    ]);
    expect(baseName('C:\\w\\b.png')).toBe('b.png');
  });
  it('blocks submit while conflicts remain, and says why', () => {
    expect(submitBlocker(review([file(), file({ disk: { state: 'modified' } })]))).toBeNull();
    expect(submitBlocker(review([file({ conflicts: 2 }), file({ path: '/w/b.ts', conflicts: 1 })]))).toBe(
      'Resolve 3 conflicts in a.ts, b.ts before submitting',
    );
    expect(conflictBannerText(1)).toBe('1 conflict to resolve: edit the proposal');
    expect(conflictBannerText(3)).toBe('3 conflicts to resolve: edit the proposal');
  });
});

describe('decision counts with mixed hunks and binary files', () => {
  it('counts mixed hunks apart and a binary file by its file decision', () => {
    const counts = countDecisions(
      review([
        file({ hunks: [hunk(0, 0, 1, 0, 1, 'accepted'), hunk(1, 3, 4, 3, 4, 'mixed')] }),
        file({ binary: true, fileDecision: 'rejected' }),
        file({ hunks: [hunk(0, 0, 1, 0, 1)] }),
      ]),
    );
    expect(counts).toEqual({ accepted: 1, rejected: 1, pending: 1, mixed: 1 });
    expect(submitSummary(counts)).toBe('1 accepted, 1 rejected, 1 mixed, 1 undecided hunk will be accepted');
    expect(submittedSummary(counts)).toBe('2 accepted, 1 rejected, 1 mixed');
  });
});

describe('contentKey', () => {
  it('changes with a content revision and with a newly detected disk change, so diskText is fetched', async () => {
    const { contentKey } = await import('../../../src-renderer/review/review-model');
    const plain = review([file(), file({ contentRevision: 3 })]);
    expect(contentKey(plain)).toBe('r@1,3');
    const changed = review([
      file(),
      file({ contentRevision: 3, disk: { state: 'modified', detectedAt: 9 } }),
    ]);
    expect(contentKey(changed)).toBe('r@1,3:modified9');
  });
});
