import { describe, expect, it } from 'vitest';
import { replayEdit } from '../../../shared/claude-code/edit-replay';
import type { ReviewedEdit } from '../../../shared/claude-code/hook-answer';
import { answerForApproval, answerForEdit } from '../../../shared/claude-code/hook-answer';
import { describeHunk } from '../../../shared/hooks/review-outcome';
import { computeHunks } from '../../../shared/hunks';
import { composeText, uniformLineDecisions } from '../../../shared/line-decisions';
import type {
  ChangeSetResult,
  FileResult,
  HunkResult,
  HunkResultDecision,
} from '../../../shared/native-protocol';

const file_path = '/work/project/src/app.ts';
const base = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
// Two hunks: line 2 changed; a line added after line 5.
const proposed = 'one\nTWO\nthree\nfour\nfive\nfive and a half\nsix\nseven\n';
const toolInput = { file_path, old_string: 'x', new_string: 'y', replace_all: false };

/** The result DiffTray's native protocol gives for this one-file review (writer: client). */
function resultFor(
  decisions: HunkResultDecision[],
  options: { note?: string; edited?: string; status?: ChangeSetResult['status']; reason?: string } = {},
): ChangeSetResult {
  const shown = options.edited ?? proposed;
  const hunks = computeHunks(base, shown);
  const hunkResults: HunkResult[] = hunks.map((hunk, i) => ({
    index: i,
    base_start: hunk.baseStart,
    base_end: hunk.baseEnd,
    proposed_start: hunk.proposedStart,
    proposed_end: hunk.proposedEnd,
    decision: decisions[i] ?? 'accepted',
  }));
  const finalText = composeText(
    base,
    shown,
    hunks,
    hunks.map((hunk, i) => uniformLineDecisions(hunk, decisions[i] === 'rejected' ? 'rejected' : 'accepted')),
  );
  const anyTaken = finalText !== base;
  const file: FileResult = anyTaken
    ? { path: file_path, status: 'accepted', disk: 'old_side', hunks: hunkResults, final_text: finalText }
    : {
        path: file_path,
        status: 'rejected',
        reason: 'every hunk rejected',
        disk: 'old_side',
        hunks: hunkResults,
      };
  const allTaken = decisions.every((d) => d === 'accepted') && options.edited === undefined;
  return {
    review_id: 'r1',
    status: options.status ?? (!anyTaken ? 'rejected' : allTaken ? 'accepted' : 'partially_accepted'),
    ...(options.reason !== undefined && { reason: options.reason }),
    ...(options.note !== undefined && { note: options.note }),
    files: [file],
  };
}

const review = (result: ChangeSetResult, extra: Partial<ReviewedEdit> = {}): ReviewedEdit => ({
  toolName: 'Edit',
  toolInput,
  filePath: file_path,
  base,
  proposed,
  result,
  ...extra,
});

describe('answerForEdit', () => {
  it('all accepted, nothing changed, no note: allow', () => {
    expect(answerForEdit(review(resultFor(['accepted', 'accepted'])))).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
    });
  });

  it('all accepted with a note: allow, the note as additional context', () => {
    expect(
      answerForEdit(review(resultFor(['accepted', 'accepted'], { note: 'Thanks, also update the docs.' }))),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        additionalContext: 'Note from the reviewer: Thanks, also update the docs.',
      },
    });
  });

  it('a hunk rejected: allow with an input that writes exactly the composed text, and says what was rejected', () => {
    const answer = answerForEdit(review(resultFor(['accepted', 'rejected'], { note: 'No half lines.' })));
    const output = answer!.hookSpecificOutput;
    expect(output.permissionDecision).toBe('allow');
    const replay = replayEdit('Edit', output.updatedInput, base);
    expect(replay).toMatchObject({ applies: true, proposed: 'one\nTWO\nthree\nfour\nfive\nsix\nseven\n' });
    expect(output.additionalContext).toBe(
      `The reviewer accepted only part of your change to ${file_path} in DiffTray. ` +
        'Rejected: the lines added after line 5. (Line numbers are those of the file before your change.) ' +
        'The file now holds exactly what the reviewer chose; read it again before editing it further. ' +
        'Note from the reviewer: No half lines.',
    );
  });

  it('names a rejected change by its lines, and a hunk decided line by line as partly rejected', () => {
    const result = resultFor(['rejected', 'accepted']);
    result.files[0]!.hunks[1]!.decision = 'mixed';
    const context = answerForEdit(review(result))!.hookSpecificOutput.additionalContext;
    expect(context).toContain('Rejected: line 2.');
    expect(context).toContain('Partly rejected: the lines added after line 5.');
    expect(context).not.toContain('Note from the reviewer');
  });

  it('the proposal edited by the reviewer: allow with the edited text, and says so', () => {
    const edited = 'one\nTwo (edited)\nthree\nfour\nfive\nfive and a half\nsix\nseven\n';
    const answer = answerForEdit(review(resultFor(['accepted', 'accepted'], { edited })));
    const output = answer!.hookSpecificOutput;
    expect(replayEdit('Edit', output.updatedInput, base)).toMatchObject({ applies: true, proposed: edited });
    expect(output.additionalContext).toContain(`The reviewer edited your change to ${file_path} in DiffTray`);
  });

  it('edited and partly rejected: both are said', () => {
    const edited = 'one\nTwo (edited)\nthree\nfour\nfive\nfive and a half\nsix\nseven\n';
    const answer = answerForEdit(review(resultFor(['accepted', 'rejected'], { edited })));
    const output = answer!.hookSpecificOutput;
    expect(replayEdit('Edit', output.updatedInput, base)).toMatchObject({
      applies: true,
      proposed: 'one\nTwo (edited)\nthree\nfour\nfive\nsix\nseven\n',
    });
    expect(output.additionalContext).toContain('Rejected: the lines added after line 5.');
    expect(output.additionalContext).toContain('The reviewer also edited your change.');
  });

  it('MultiEdit and Write get inputs of their own kind', () => {
    const result = resultFor(['rejected', 'accepted']);
    const multi = answerForEdit(
      review(result, { toolName: 'MultiEdit', toolInput: { file_path, edits: [] } }),
    );
    expect(replayEdit('MultiEdit', multi!.hookSpecificOutput.updatedInput, base)).toMatchObject({
      applies: true,
      proposed: result.files[0]!.final_text,
    });
    const write = answerForEdit(
      review(result, { toolName: 'Write', toolInput: { file_path, content: proposed } }),
    );
    expect(write!.hookSpecificOutput.updatedInput).toEqual({
      file_path,
      content: result.files[0]!.final_text,
    });
  });

  it('everything rejected: deny, with the note as the reason or a plain sentence', () => {
    expect(
      answerForEdit(review(resultFor(['rejected', 'rejected'], { reason: 'Use a constant instead.' }))),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'Use a constant instead.',
      },
    });
    expect(answerForEdit(review(resultFor(['rejected', 'rejected'])))!.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: `The reviewer rejected this edit to ${file_path} in DiffTray.`,
    });
  });

  it('submitted with every hunk rejected (the note travels as note): deny with the note', () => {
    const result = resultFor(['rejected', 'rejected'], { note: 'Not now.', status: 'rejected' });
    expect(answerForEdit(review(result))!.hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'Not now.',
    });
  });

  it('a whole-review reject (no file result): deny', () => {
    const result: ChangeSetResult = { review_id: 'r1', status: 'rejected', reason: 'Wrong file.', files: [] };
    expect(answerForEdit(review(result))!.hookSpecificOutput.permissionDecisionReason).toBe('Wrong file.');
  });

  it('cancelled, a conflict, or a result that does not say what to write: no decision', () => {
    expect(answerForEdit(review({ ...resultFor(['accepted', 'accepted']), status: 'cancelled' }))).toBeNull();
    const conflict = resultFor(['accepted', 'accepted']);
    conflict.files[0] = { ...conflict.files[0]!, status: 'conflict' };
    expect(answerForEdit(review(conflict))).toBeNull();
    const noText = resultFor(['accepted', 'rejected']);
    delete noText.files[0]!.final_text;
    expect(answerForEdit(review(noText))).toBeNull();
    // Everything accepted: the text is the proposal, final_text or not.
    const allTaken = resultFor(['accepted', 'accepted']);
    delete allTaken.files[0]!.final_text;
    expect(answerForEdit(review(allTaken))!.hookSpecificOutput.permissionDecision).toBe('allow');
  });

  it('a composed text that differs from the file only in line endings: deny, saying why', () => {
    const crlfBase = 'a\r\nb\n';
    const result: ChangeSetResult = {
      review_id: 'r1',
      status: 'partially_accepted',
      files: [{ path: file_path, status: 'accepted', disk: 'old_side', hunks: [], final_text: 'a\nb\n' }],
    };
    const answer = answerForEdit(review(result, { base: crlfBase, proposed: 'A\nb\n' }));
    expect(answer!.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer!.hookSpecificOutput.permissionDecisionReason).toContain('only in line endings');
  });

  it('a composed text that drops the file’s byte-order mark: deny, saying why', () => {
    const result: ChangeSetResult = {
      review_id: 'r1',
      status: 'partially_accepted',
      files: [{ path: file_path, status: 'accepted', disk: 'old_side', hunks: [], final_text: 'a\nB\n' }],
    };
    const answer = answerForEdit(review(result, { base: '\uFEFFa\nb\n', proposed: '\uFEFFA\nB\n' }));
    expect(answer!.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer!.hookSpecificOutput.permissionDecisionReason).toContain('byte-order mark');
  });

  it('a Write accepted whole over a file with a byte-order mark spells its content out, mark included', () => {
    // 2.1.332 keeps the mark; 2.1.197 writes content as given: with the mark in it, both write the same.
    const markBase = '\uFEFFa\nb\n';
    const write = { file_path, content: 'A\nb\n' };
    const replay = replayEdit('Write', write, markBase);
    if (!replay.applies) throw new Error(replay.reason);
    const result: ChangeSetResult = {
      review_id: 'r1',
      status: 'accepted',
      files: [
        {
          path: file_path,
          status: 'accepted',
          disk: 'old_side',
          hunks: [],
          final_text: replay.proposed,
        },
      ],
    };
    const reviewed = {
      toolName: 'Write' as const,
      toolInput: write,
      base: markBase,
      proposed: replay.proposed,
    };
    expect(answerForEdit(review(result, reviewed))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { file_path, content: '\uFEFFA\nb\n' },
      },
    });
    // Without a mark to keep, nothing to spell out.
    const plain = replayEdit('Write', write, 'a\nb\n');
    if (!plain.applies) throw new Error(plain.reason);
    const plainResult = { ...result, files: [{ ...result.files[0]!, final_text: plain.proposed }] };
    expect(
      answerForEdit(review(plainResult, { ...reviewed, base: 'a\nb\n', proposed: plain.proposed })),
    ).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
  });

  it('counts what it does not name when many hunks were rejected', () => {
    const manyBase = Array.from({ length: 60 }, (_, i) => `line ${i}\n`).join('');
    const manyProposed = manyBase.replace(/line (\d*[02468])\n/g, 'LINE $1\n');
    const hunks = computeHunks(manyBase, manyProposed);
    const result: ChangeSetResult = {
      review_id: 'r1',
      status: 'partially_accepted',
      files: [
        {
          path: file_path,
          status: 'accepted',
          disk: 'old_side',
          final_text: manyBase.replace('line 0\n', 'LINE 0\n'),
          hunks: hunks.map((hunk, i) => ({
            index: i,
            base_start: hunk.baseStart,
            base_end: hunk.baseEnd,
            proposed_start: hunk.proposedStart,
            proposed_end: hunk.proposedEnd,
            decision: i === 0 ? 'accepted' : 'rejected',
          })),
        },
      ],
    };
    const context = answerForEdit(review(result, { base: manyBase, proposed: manyProposed }))!
      .hookSpecificOutput.additionalContext!;
    expect(context).toContain('Rejected: line 3; line 5;');
    expect(context).toContain('; and 9 more.');
  });
});

describe('describeHunk', () => {
  it('says lines as a person does, 1-based', () => {
    expect(describeHunk({ base_start: 11, base_end: 14 })).toBe('lines 12–14');
    expect(describeHunk({ base_start: 2, base_end: 3 })).toBe('line 3');
    expect(describeHunk({ base_start: 7, base_end: 7 })).toBe('the lines added after line 7');
    expect(describeHunk({ base_start: 0, base_end: 0 })).toBe('the lines added at the start');
  });
});

describe('answerForApproval', () => {
  it('allowed: allow, a note as additional context', () => {
    expect(answerForApproval('Bash', { approved: true, status: 'approved' })).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
    });
    expect(answerForApproval('Bash', { approved: true, note: 'Fine, once.' })!.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      additionalContext: 'Note from the reviewer: Fine, once.',
    });
  });

  it('denied: deny, the note as the reason or a plain sentence', () => {
    expect(
      answerForApproval('Bash', { approved: false, note: 'Do not push to main.' })!.hookSpecificOutput,
    ).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'Do not push to main.',
    });
    expect(
      answerForApproval('Bash', { approved: false, note: '  ' })!.hookSpecificOutput.permissionDecisionReason,
    ).toBe('The reviewer denied this command in DiffTray.');
    expect(
      answerForApproval('WebFetch', { approved: false })!.hookSpecificOutput.permissionDecisionReason,
    ).toBe('The reviewer denied this WebFetch call in DiffTray.');
  });

  it('cancelled: no decision', () => {
    expect(
      answerForApproval('Bash', { approved: false, status: 'cancelled', note: 'DiffTray quit' }),
    ).toBeNull();
  });
});

describe('answerForEdit with comments on lines', () => {
  const comment = { path: file_path, side: 'proposed' as const, line: 2, quote: 'TWO', text: 'lower case' };
  const BLOCK = `Comments from the reviewer:\n- ${file_path}:2 ("TWO"): lower case`;

  it('all accepted: allow, the comments as additional context for the model', () => {
    const result = { ...resultFor(['accepted', 'accepted']), comments: [comment] };
    expect(answerForEdit(review(result))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        additionalContext: BLOCK,
      },
    });
  });

  it('all rejected: deny, the comments in the reason', () => {
    const result = { ...resultFor(['rejected', 'rejected'], { reason: 'Not yet.' }), comments: [comment] };
    expect(answerForEdit(review(result))!.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: `Not yet.\n${BLOCK}`,
    });
  });

  it('a text this tool cannot write: deny, saying why, then the comments and the note', () => {
    const result: ChangeSetResult = {
      review_id: 'r1',
      status: 'partially_accepted',
      note: 'Thanks.',
      comments: [comment],
      files: [{ path: file_path, status: 'accepted', disk: 'old_side', hunks: [], final_text: 'a\nb\n' }],
    };
    const answer = answerForEdit(review(result, { base: 'a\r\nb\n', proposed: 'A\nb\n' }));
    expect(answer!.hookSpecificOutput.permissionDecisionReason).toMatch(
      /the file was left as it was\.\nComments from the reviewer:\n.*lower case\nNote from the reviewer: Thanks\.$/,
    );
  });
});
