/**
 * Codex's PreToolUse hook, its pure half (shared/hooks/codex.ts): which stdin is a patch to review, and
 * the answer a patch's per-file decisions make. The outcomes come from the real outcomeOfFile on a
 * native-protocol result, the patch texts from the real Codex grammar (parse, apply, rewrite).
 */
import { describe, expect, it } from 'vitest';
import { applyPatch, type FileChange } from '../../../shared/codex/patch-apply';
import { parsePatch } from '../../../shared/codex/patch-parse';
import { patchFromShellScript } from '../../../shared/codex/shell-heredoc';
import {
  answerForPatch,
  parseCodexHook,
  type CodexCall,
  type CodexPreToolUseAnswer,
  type DecidedFile,
} from '../../../shared/hooks/codex';
import { outcomeOfFile, rejectedSentence, type FileOutcome } from '../../../shared/hooks/review-outcome';
import { computeHunks } from '../../../shared/hunks';
import { composeText, uniformLineDecisions } from '../../../shared/line-decisions';
import type { ChangeSetResult } from '../../../shared/native-protocol';

const patchOf = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

const PATCH = patchOf('*** Add File: hello.txt', '+hi');

const preToolUse = (tool_name: string, tool_input?: unknown, extra: Record<string, unknown> = {}) => ({
  hook_event_name: 'PreToolUse',
  session_id: 'session-1',
  cwd: '/work/project',
  tool_name,
  ...(tool_input !== undefined && { tool_input }),
  ...extra,
});

describe('parseCodexHook', () => {
  it('apply_patch: its command is the patch', () => {
    expect(parseCodexHook(preToolUse('apply_patch', { command: PATCH }))).toEqual({
      kind: 'patch',
      command: PATCH,
      patch: PATCH,
      shell: null,
      workdir: null,
      cwd: '/work/project',
      sessionId: 'session-1',
    });
  });

  it("Bash whose whole script is apply_patch <<'EOF': the heredoc is the patch, sent back the same way", () => {
    const script = `apply_patch <<'EOF'\n${PATCH}\nEOF\n`;
    expect(parseCodexHook(preToolUse('Bash', { command: script }))).toEqual({
      kind: 'patch',
      command: script,
      patch: PATCH,
      shell: { prefix: '' },
      workdir: null,
      cwd: '/work/project',
      sessionId: 'session-1',
    });
  });

  it('cd dir && apply_patch <<EOF: the patch is relative to that folder', () => {
    const call = parseCodexHook(
      preToolUse('Bash', { command: `cd sub/dir && apply_patch <<EOF\n${PATCH}\nEOF` }),
    );
    expect(call).toMatchObject({
      kind: 'patch',
      patch: PATCH,
      shell: { prefix: 'cd sub/dir && ' },
      workdir: 'sub/dir',
    });
  });

  it('any other shell script is a command, with its description', () => {
    expect(parseCodexHook(preToolUse('Bash', { command: 'npm test', description: 'run the tests' }))).toEqual(
      {
        kind: 'command',
        toolName: 'Bash',
        command: 'npm test',
        description: 'run the tests',
        cwd: '/work/project',
        sessionId: 'session-1',
      },
    );
    // Something before the patch makes it a script Codex runs, not a patch (shell-heredoc.ts).
    const script = `echo hi && apply_patch <<'EOF'\n${PATCH}\nEOF\n`;
    expect(parseCodexHook(preToolUse('Bash', { command: script }))).toMatchObject({
      kind: 'command',
      command: script,
    });
  });

  it('other tools are not ours; other events are ignored; a missing event is PreToolUse', () => {
    expect(parseCodexHook(preToolUse('mcp__docs__search', { query: 'x' }))).toEqual({ kind: 'not-ours' });
    expect(
      parseCodexHook(preToolUse('apply_patch', { command: PATCH }, { hook_event_name: 'PostToolUse' })),
    ).toEqual({
      kind: 'ignore',
    });
    expect(
      parseCodexHook(preToolUse('Bash', { command: 'ls' }, { hook_event_name: 'SessionStart' })),
    ).toEqual({
      kind: 'ignore',
    });
    const { hook_event_name: _event, ...noEvent } = preToolUse(
      'apply_patch',
      { command: PATCH },
      { session_id: '' },
    );
    expect(parseCodexHook(noEvent)).toEqual({
      kind: 'patch',
      command: PATCH,
      patch: PATCH,
      shell: null,
      workdir: null,
      cwd: '/work/project',
    });
  });

  it('malformed input cannot be reconstructed', () => {
    for (const stdin of [
      null,
      'apply_patch',
      { hook_event_name: 'PreToolUse' },
      preToolUse('apply_patch', { command: 42 }),
      preToolUse('apply_patch'),
      preToolUse('Bash'),
      preToolUse('Bash', { command: '' }),
    ]) {
      expect(parseCodexHook(stdin), JSON.stringify(stdin)).toMatchObject({ kind: 'cannot-reconstruct' });
    }
  });
});

/** Two files as they are now, and the model's patch: two changes to notes.txt, a new file, a deletion. */
const FILES: Record<string, string> = {
  'notes.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n',
  'old.txt': 'bye\n',
};
const MODEL_PATCH = patchOf(
  '*** Update File: notes.txt',
  '@@',
  ' one',
  '-two',
  '+TWO',
  ' three',
  '@@',
  ' seven',
  '-eight',
  '+EIGHT',
  ' nine',
  '*** Add File: added.txt',
  '+fresh',
  '*** Delete File: old.txt',
);

/** What Codex writes for `patch` with FILES, as [path, text] pairs. */
function codexWrites(patch: string): [string, string | null][] {
  const parsed = parsePatch(patch);
  if (!parsed.ok) throw new Error(parsed.reason);
  const applied = applyPatch(parsed.hunks, (path) => FILES[path] ?? null);
  if (!applied.ok) throw new Error(applied.reason);
  return applied.files.map((file) => [file.movePath ?? file.path, file.text]);
}

function modelChanges(): FileChange[] {
  const parsed = parsePatch(MODEL_PATCH);
  if (!parsed.ok) throw new Error(parsed.reason);
  const applied = applyPatch(parsed.hunks, (path) => FILES[path] ?? null);
  if (!applied.ok) throw new Error(applied.reason);
  return applied.files;
}

/** The outcome of `change` when the person takes (true) or leaves each of its hunks, as DiffTray says it. */
function decide(change: FileChange, takes: boolean[], note?: string): FileOutcome {
  const base = change.base ?? '';
  const proposed = change.text ?? '';
  const hunks = computeHunks(base, proposed);
  const decisions = hunks.map((hunk, i) =>
    uniformLineDecisions(hunk, takes[i] === true ? 'accepted' : 'rejected'),
  );
  const anyTaken = takes.some(Boolean);
  const result: ChangeSetResult = {
    review_id: 'r1',
    status: anyTaken ? 'partially_accepted' : 'rejected',
    ...(note !== undefined && { note }),
    files: [
      {
        path: change.path,
        status: anyTaken ? 'accepted' : 'rejected',
        disk: 'old_side',
        hunks: hunks.map((hunk, i) => ({
          index: i,
          base_start: hunk.baseStart,
          base_end: hunk.baseEnd,
          proposed_start: hunk.proposedStart,
          proposed_end: hunk.proposedEnd,
          decision: takes[i] === true ? 'accepted' : 'rejected',
        })),
        ...(anyTaken && { final_text: composeText(base, proposed, hunks, decisions) }),
      },
    ],
  };
  return outcomeOfFile(result, result.files[0], change.path, base, proposed);
}

const patchCall = (shell: { prefix: string } | null = null): Extract<CodexCall, { kind: 'patch' }> => ({
  kind: 'patch',
  command: MODEL_PATCH,
  patch: MODEL_PATCH,
  shell,
  workdir: null,
  cwd: '/work/project',
});

/** The answer's fields, read loosely: each test checks which ones are there. */
const outputOf = (answer: CodexPreToolUseAnswer | null) =>
  answer?.hookSpecificOutput as
    | {
        permissionDecision?: string;
        permissionDecisionReason?: string;
        updatedInput?: { command: string };
        additionalContext?: string;
      }
    | undefined;

describe('answerForPatch', () => {
  const [notes, added, deleted] = modelChanges() as [FileChange, FileChange, FileChange];

  it('every file accepted as proposed: allowed as sent, the note as context', () => {
    const decided = [notes, added, deleted].map((change) => ({
      change,
      outcome: { kind: 'allow' as const },
    }));
    const asSent = {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: { command: MODEL_PATCH },
    };
    expect(answerForPatch(patchCall(), decided, undefined)).toEqual({ hookSpecificOutput: asSent });
    expect(outputOf(answerForPatch(patchCall(), decided, 'Good.'))).toEqual({
      ...asSent,
      additionalContext: 'Note from the reviewer: Good.',
    });
  });

  it('every file rejected: deny with the note, or the sentence of the first file', () => {
    const decided = [notes, added].map((change) => ({ change, outcome: decide(change, []) }));
    expect(outputOf(answerForPatch(patchCall(), decided, undefined))).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: rejectedSentence('notes.txt'),
    });
    expect(outputOf(answerForPatch(patchCall(), decided, 'Not now.'))?.permissionDecisionReason).toBe(
      'Not now.',
    );
  });

  const mixed = (): DecidedFile[] => [
    { change: notes, outcome: decide(notes, [true, false], 'Keep eight.') },
    { change: added, outcome: decide(added, []) },
    { change: deleted, outcome: { kind: 'allow' } },
  ];

  it('mixed: allow with a patch that writes exactly what was kept, and says what was left', () => {
    const answer = outputOf(answerForPatch(patchCall(), mixed(), 'Keep eight.'))!;
    expect(answer.permissionDecision).toBe('allow');
    expect(codexWrites(answer.updatedInput!.command)).toEqual([
      ['notes.txt', 'one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\n'],
      ['old.txt', null],
    ]);
    expect(answer.additionalContext).toBe(
      'The reviewer accepted only part of your patch in DiffTray; the rest was not applied. ' +
        'Rejected whole: added.txt. ' +
        'The reviewer accepted only part of your change to notes.txt in DiffTray. Rejected: line 8. ' +
        '(Line numbers are those of the file before your change.) ' +
        'The file now holds exactly what the reviewer chose; read it again before editing it further. ' +
        'Note from the reviewer: Keep eight.',
    );
  });

  it('a patch that came through the shell is answered as a shell script with the same prefix', () => {
    const command = outputOf(answerForPatch(patchCall({ prefix: 'cd sub && ' }), mixed(), undefined))!
      .updatedInput!.command;
    expect(command).toMatch(/^cd sub && apply_patch <<'PATCH'\n\*\*\* Begin Patch\n/);
    const viaShell = patchFromShellScript(command);
    expect(viaShell).toMatchObject({ workdir: 'sub', prefix: 'cd sub && ' });
    expect(codexWrites(viaShell!.patch)).toEqual(
      codexWrites(outputOf(answerForPatch(patchCall(), mixed(), undefined))!.updatedInput!.command),
    );
  });

  it('a file with no decision: no answer, Codex asks the person', () => {
    const decided = [...mixed(), { change: added, outcome: { kind: 'none' as const } }];
    expect(answerForPatch(patchCall(), decided, undefined)).toBeNull();
  });

  it('a kept text Codex cannot write (no final newline): deny, saying why, with the note', () => {
    const decided: DecidedFile[] = [
      { change: notes, outcome: { kind: 'rewrite', composed: 'one\nTWO', context: 'edited' } },
      { change: added, outcome: decide(added, []) },
    ];
    expect(outputOf(answerForPatch(patchCall(), decided, 'Shorter.'))).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason:
        'The reviewer accepted part of this patch in DiffTray, but notes.txt: Codex always ends an updated ' +
        'file with a line break, so nothing was applied. Note from the reviewer: Shorter.',
    });
  });
});
