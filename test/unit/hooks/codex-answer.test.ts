import { describe, expect, it } from 'vitest';
import type { FileChange } from '../../../shared/codex/patch-apply';
import {
  answerForCommand,
  answerForPatch,
  parseCodexHook,
  type CodexCall,
  type CodexPreToolUseAnswer,
} from '../../../shared/hooks/codex';

const PATCH = '*** Begin Patch\n*** Update File: notes.md\n@@\n-one\n+ONE\n*** End Patch\n';
const UPDATE: FileChange = {
  kind: 'update',
  path: 'notes.md',
  movePath: null,
  base: 'one\ntwo\n',
  text: 'ONE\ntwo\n',
};
const ADD: FileChange = { kind: 'add', path: 'new.md', movePath: null, base: null, text: 'new\n' };

function patchCall(): Extract<CodexCall, { kind: 'patch' }> {
  const call = parseCodexHook({
    hook_event_name: 'PreToolUse',
    tool_name: 'apply_patch',
    tool_input: { command: PATCH },
  });
  if (call.kind !== 'patch') throw new Error(`not a patch: ${call.kind}`);
  return call;
}

/**
 * Codex 0.171.0 fails a hook (and then runs the call anyway) that answers `allow` without `updatedInput`,
 * `updatedInput` without `allow`, or `deny` without a reason.
 */
function expectCodexTakes(answer: CodexPreToolUseAnswer | null): void {
  const output: Record<string, unknown> = { ...answer?.hookSpecificOutput };
  if (output.permissionDecision === 'allow') expect(output.updatedInput).toBeDefined();
  if (output.updatedInput !== undefined) expect(output.permissionDecision).toBe('allow');
  if (output.permissionDecision === 'deny')
    expect(String(output.permissionDecisionReason).trim()).not.toBe('');
}

describe("Codex's PreToolUse answer", () => {
  it('allows a patch accepted whole with its own text as updatedInput, since Codex refuses a bare allow', () => {
    const silent = answerForPatch(patchCall(), [{ change: UPDATE, outcome: { kind: 'allow' } }], undefined);
    expect(silent).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: PATCH },
      },
    });
    const noted = answerForPatch(
      patchCall(),
      [
        { change: UPDATE, outcome: { kind: 'allow' } },
        { change: ADD, outcome: { kind: 'allow' } },
      ],
      'Thanks.',
    );
    expect(noted).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: PATCH },
        additionalContext: 'Note from the reviewer: Thanks.',
      },
    });
    expectCodexTakes(silent);
    expectCodexTakes(noted);
  });

  it('allows with the rewritten patch when a file is rejected whole, and says which once', () => {
    const answer = answerForPatch(
      patchCall(),
      [
        { change: UPDATE, outcome: { kind: 'allow' } },
        { change: ADD, outcome: { kind: 'deny', reason: 'no' } },
      ],
      undefined,
    );
    expectCodexTakes(answer);
    expect(answer?.hookSpecificOutput).toMatchObject({
      permissionDecision: 'allow',
      updatedInput: { command: expect.stringContaining('*** Update File: notes.md') },
      additionalContext: expect.stringContaining('Rejected whole: new.md.'),
    });
    expect(JSON.stringify(answer)).not.toContain('Add File');
  });

  it('asks to read a partly kept file again once, not twice', () => {
    const answer = answerForPatch(
      patchCall(),
      [
        {
          change: { ...UPDATE, text: 'ONE\nTWO\n' },
          outcome: { kind: 'rewrite', composed: 'ONE\ntwo\n', context: 'Kept line 1. Read it again.' },
        },
      ],
      'Line 2 stays.',
    );
    expectCodexTakes(answer);
    const context = String((answer?.hookSpecificOutput as { additionalContext?: string }).additionalContext);
    expect(context).toContain('Kept line 1. Read it again.');
    expect(context).not.toContain('Read the files again');
    expect(context).toMatch(/Note from the reviewer: Line 2 stays\.$/);
  });

  it('denies a patch rejected whole with the note', () => {
    const answer = answerForPatch(
      patchCall(),
      [{ change: UPDATE, outcome: { kind: 'deny', reason: 'r' } }],
      'Not now.',
    );
    expect(answer).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'Not now.',
      },
    });
  });

  it('answers a shell command: allowed as it was with the note, denied carries the note or a sentence', () => {
    const call = { kind: 'command' as const, toolName: 'Bash', command: 'make', cwd: undefined };
    const allowed = answerForCommand(call, { approved: true, status: 'approved', note: 'Fine once.' });
    expect(allowed).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'make' },
        additionalContext: 'Note from the reviewer: Fine once.',
      },
    });
    expect(answerForCommand(call, { approved: true, status: 'approved', note: '  ' })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'make' },
      },
    });
    const denied = answerForCommand(call, { approved: false, status: 'denied' });
    expect(denied?.hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'The reviewer denied this command in DiffTray.',
    });
    expect(
      answerForCommand(call, { approved: false, status: 'denied', note: 'No.' })?.hookSpecificOutput,
    ).toMatchObject({
      permissionDecisionReason: 'No.',
    });
    expect(answerForCommand(call, { approved: false, status: 'cancelled' })).toBeNull();
    for (const answer of [allowed, denied]) expectCodexTakes(answer);
  });
});
