/**
 * outcomeOfFile's contract (shared/hooks/review-outcome.ts), which every agent's hook answer builds on:
 * a native-protocol result, read for one file, becomes allow / rewrite the composed text / deny / none.
 * The results are built as DiffTray builds them: hunks from computeHunks, texts from composeText.
 * (Claude Code's answers on top of it: test/unit/claude-code/hook-answer.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { describeHunk, outcomeOfFile, rejectedSentence } from '../../../shared/hooks/review-outcome';
import { computeHunks } from '../../../shared/hunks';
import { composeText, uniformLineDecisions, type HunkLineDecisions } from '../../../shared/line-decisions';
import type {
  ChangeSetResult,
  FileResult,
  FileResultStatus,
  HunkResultDecision,
} from '../../../shared/native-protocol';

const PATH = 'src/list.txt';
const BASE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
/** Three hunks: line 2 replaced, a line added after line 4, lines 6–7 replaced. */
const PROPOSED = 'one\nTWO\nthree\nfour\nfour and a half\nfive\nSIX\nSEVEN\n';

/** What DiffTray says for a file whose hunks got `decisions` (and whose text may be `edited`). */
function fileResult(
  decisions: HunkResultDecision[],
  options: { status?: FileResultStatus; edited?: string; finalText?: string | null | 'omit' } = {},
): FileResult {
  const proposed = options.edited ?? PROPOSED;
  const hunks = computeHunks(BASE, proposed);
  const lines: HunkLineDecisions[] = hunks.map((hunk, i) =>
    decisions[i] === 'mixed'
      ? // Partly: the removal kept (rejected), the addition taken.
        {
          removed: Array.from({ length: hunk.baseEnd - hunk.baseStart }, () => 'rejected' as const),
          added: Array.from({ length: hunk.proposedEnd - hunk.proposedStart }, () => 'accepted' as const),
        }
      : uniformLineDecisions(hunk, decisions[i] === 'rejected' ? 'rejected' : 'accepted'),
  );
  const finalText =
    options.finalText === undefined ? composeText(BASE, proposed, hunks, lines) : options.finalText;
  return {
    path: PATH,
    status: options.status ?? 'accepted',
    disk: 'old_side',
    hunks: hunks.map((hunk, i) => ({
      index: i,
      base_start: hunk.baseStart,
      base_end: hunk.baseEnd,
      proposed_start: hunk.proposedStart,
      proposed_end: hunk.proposedEnd,
      decision: decisions[i] ?? 'accepted',
    })),
    ...(finalText !== 'omit' && { final_text: finalText }),
  };
}

function outcome(file: FileResult | undefined, result: Partial<ChangeSetResult> = {}) {
  const full: ChangeSetResult = {
    review_id: 'r1',
    status: 'partially_accepted',
    files: file === undefined ? [] : [file],
    ...result,
  };
  return outcomeOfFile(full, file, PATH, BASE, PROPOSED);
}

const ALL = ['accepted', 'accepted', 'accepted'] as const;

describe('outcomeOfFile', () => {
  it('the proposal has the three hunks the cases below name', () => {
    expect(
      computeHunks(BASE, PROPOSED).map((hunk) =>
        describeHunk({ base_start: hunk.baseStart, base_end: hunk.baseEnd }),
      ),
    ).toEqual(['line 2', 'the lines added after line 4', 'lines 6–7']);
  });

  it('cancelled: no decision, whatever the files say', () => {
    expect(outcome(fileResult([...ALL]), { status: 'cancelled', note: 'ignored' })).toEqual({ kind: 'none' });
  });

  it('rejected: deny with the note (a reject’s reason), or a sentence; a blank note is none', () => {
    const rejected = fileResult(['rejected', 'rejected', 'rejected'], {
      status: 'rejected',
      finalText: 'omit',
    });
    expect(outcome(rejected, { status: 'rejected', reason: 'Use a map.' })).toEqual({
      kind: 'deny',
      reason: 'Use a map.',
    });
    expect(outcome(rejected, { status: 'rejected', reason: '  ' })).toEqual({
      kind: 'deny',
      reason: rejectedSentence(PATH),
    });
    expect(rejectedSentence(PATH)).toBe('The reviewer rejected this edit to src/list.txt in DiffTray.');
    // The whole review rejected before the file had a result; without one otherwise, no decision.
    expect(outcome(undefined, { status: 'rejected' })).toEqual({
      kind: 'deny',
      reason: rejectedSentence(PATH),
    });
    expect(outcome(undefined, { status: 'accepted' })).toEqual({ kind: 'none' });
  });

  it('a conflict or an error is not the person’s answer: none', () => {
    for (const status of ['conflict', 'error'] as const) {
      expect(outcome(fileResult([...ALL], { status, finalText: 'omit' }), { note: 'x' })).toEqual({
        kind: 'none',
      });
    }
  });

  it('accepted as proposed: allow, the note as context', () => {
    expect(outcome(fileResult([...ALL]), { status: 'accepted' })).toEqual({ kind: 'allow' });
    expect(outcome(fileResult([...ALL]), { status: 'accepted', note: 'Thanks.' })).toEqual({
      kind: 'allow',
      context: 'Note from the reviewer: Thanks.',
    });
    // Without final_text an all-accepted file is the proposal; with a hunk rejected it cannot be told.
    expect(outcome(fileResult([...ALL], { status: 'applied', finalText: 'omit' }))).toEqual({
      kind: 'allow',
    });
    expect(outcome(fileResult(['accepted', 'rejected', 'accepted'], { finalText: 'omit' }))).toEqual({
      kind: 'none',
    });
  });

  it('partly accepted: rewrite the composed text, naming the rejected and partly rejected lines', () => {
    const result = outcome(fileResult(['rejected', 'accepted', 'mixed']), { note: 'Keep two.' });
    expect(result).toEqual({
      kind: 'rewrite',
      composed: 'one\ntwo\nthree\nfour\nfour and a half\nfive\nsix\nseven\nSIX\nSEVEN\n',
      context:
        'The reviewer accepted only part of your change to src/list.txt in DiffTray. Rejected: line 2. ' +
        'Partly rejected: lines 6–7. (Line numbers are those of the file before your change.) ' +
        'The file now holds exactly what the reviewer chose; read it again before editing it further. ' +
        'Note from the reviewer: Keep two.',
    });
    const added = outcome(fileResult(['accepted', 'rejected', 'accepted']));
    expect(added).toMatchObject({ kind: 'rewrite', composed: 'one\nTWO\nthree\nfour\nfive\nSIX\nSEVEN\n' });
    expect(added.kind === 'rewrite' && added.context).toContain('Rejected: the lines added after line 4.');
  });

  it('edited by the person: rewrite the edited text, saying the change was edited', () => {
    const edited = 'one\nTwo, edited\nthree\nfour\nfive\nSIX\nSEVEN\n';
    expect(outcome(fileResult(['accepted', 'accepted'], { edited }), { status: 'accepted' })).toEqual({
      kind: 'rewrite',
      composed: edited,
      context:
        'The reviewer edited your change to src/list.txt in DiffTray before accepting it. ' +
        'The file now holds exactly what the reviewer chose; read it again before editing it further.',
    });
    // Edited and partly rejected: both said.
    const both = outcome(fileResult(['accepted', 'rejected'], { edited }));
    expect(both).toMatchObject({
      kind: 'rewrite',
      composed: 'one\nTwo, edited\nthree\nfour\nfive\nsix\nseven\n',
    });
    expect(both.kind === 'rewrite' && both.context).toMatch(
      /^The reviewer accepted only part of .* Rejected: lines 6–7\. \(Line numbers .*\) The reviewer also edited your change\. /,
    );
  });

  it('a final text that is the file as it was, or no file at all: deny', () => {
    expect(outcome(fileResult([...ALL], { finalText: BASE }), { note: 'Not this.' })).toEqual({
      kind: 'deny',
      reason: 'Not this.',
    });
    expect(outcome(fileResult([...ALL], { finalText: null }))).toEqual({
      kind: 'deny',
      reason: rejectedSentence(PATH),
    });
  });

  it('names a hunk by its lines before the change, 1-based', () => {
    expect(describeHunk({ base_start: 0, base_end: 0 })).toBe('the lines added at the start');
    expect(describeHunk({ base_start: 2, base_end: 3 })).toBe('line 3');
    expect(describeHunk({ base_start: 11, base_end: 14 })).toBe('lines 12–14');
  });
});

describe('outcomeOfFile with comments on lines', () => {
  /** The result names the file as the hook proposed it; the model is told it as `PATH`. */
  const onFile = (line: number, text: string, quote: string, path = PATH) => ({
    path,
    side: 'proposed' as const,
    line,
    quote,
    text,
  });
  const COMMENTS = [onFile(2, 'Why capitals?', 'TWO'), onFile(1, 'not mine', 'x', 'src/other.txt')];
  const BLOCK = 'Comments from the reviewer:\n- src/list.txt:2 ("TWO"): Why capitals?';

  it('accepted as proposed: allow, the comments on this file (then the note) as context', () => {
    expect(outcome(fileResult([...ALL]), { status: 'accepted', comments: COMMENTS })).toEqual({
      kind: 'allow',
      context: BLOCK,
    });
    expect(
      outcome(fileResult([...ALL]), { status: 'accepted', comments: COMMENTS, note: 'Thanks.' }),
    ).toEqual({ kind: 'allow', context: `${BLOCK}\nNote from the reviewer: Thanks.` });
    // Comments on other files only: nothing to say about this one.
    expect(outcome(fileResult([...ALL]), { status: 'accepted', comments: [COMMENTS[1]!] })).toEqual({
      kind: 'allow',
    });
  });

  it('rejected: deny, the note or the sentence, then the comments', () => {
    const rejected = fileResult(['rejected', 'rejected', 'rejected'], {
      status: 'rejected',
      finalText: 'omit',
    });
    expect(outcome(rejected, { status: 'rejected', reason: 'Use a map.', comments: COMMENTS })).toEqual({
      kind: 'deny',
      reason: `Use a map.\n${BLOCK}`,
    });
    expect(outcome(undefined, { status: 'rejected', comments: [COMMENTS[0]!] })).toEqual({
      kind: 'deny',
      reason: `${rejectedSentence(PATH)}\n${BLOCK}`,
    });
  });

  it('partly accepted: the comments and the note follow what was kept, each on its own line', () => {
    const result = outcome(fileResult(['rejected', 'accepted', 'accepted']), {
      note: 'Keep two.',
      comments: COMMENTS,
    });
    expect(result.kind === 'rewrite' && result.context).toMatch(
      /read it again before editing it further\.\nComments from the reviewer:\n- src\/list\.txt:2 \("TWO"\): Why capitals\?\nNote from the reviewer: Keep two\.$/,
    );
  });
});
