/**
 * Comments on lines reach the model through a per-edit hook: the real `difftray hook claude-code`
 * (node bin/difftray.cjs, built first) against the real runtime, comments put through the app API as
 * the UI puts them. The answer Claude Code reads names the file as the tool call did, the line and the
 * line quoted.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview } from '../support/wait';
import { BUILD_TIMEOUT_MS, buildMain } from '../support/build';
import { runCli } from '../support/hook-cli';

beforeAll(buildMain, BUILD_TIMEOUT_MS);

let t: TestRuntime;
beforeEach(async () => {
  t = await startTestRuntime();
});
afterEach(async () => {
  await t.close();
});

const api = (method: string, params: Record<string, unknown>) => t.runtime.handler(method, params);

const BASE = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n';
const EDIT = {
  file_path: 'notes.txt',
  old_string: BASE,
  new_string: 'ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\nTHETA\n',
};

function hookInput(): string {
  return JSON.stringify({
    session_id: 'c0ffee-session',
    transcript_path: '/tmp/transcript.jsonl',
    cwd: t.workspace,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: EDIT,
    tool_use_id: 'toolu_0123',
  });
}

type HookAnswer = {
  hookSpecificOutput: {
    permissionDecision: string;
    permissionDecisionReason?: string;
    additionalContext?: string;
  };
};

describe('difftray hook claude-code with comments on lines', () => {
  it('an accept carries them as additional context, a reject in its reason', async () => {
    writeFileSync(path.join(t.workspace, 'notes.txt'), BASE);
    const accepted = runCli(t, ['hook', 'claude-code'], hookInput());
    const first = await waitForReview(t.runtime.core);
    await api('putComment', {
      reviewId: first.id,
      fileIndex: 0,
      side: 'proposed',
      line: 7,
      text: 'why caps?',
    });
    await api('submit', { reviewId: first.id, note: 'fine otherwise' });
    const allow = (JSON.parse((await accepted.done).stdout) as HookAnswer).hookSpecificOutput;
    expect(allow.permissionDecision).toBe('allow');
    expect(allow.additionalContext).toBe(
      'Comments from the reviewer:\n- notes.txt:8 ("THETA"): why caps?\nNote from the reviewer: fine otherwise',
    );

    const rejected = runCli(t, ['hook', 'claude-code'], hookInput());
    const second = await waitForReview(t.runtime.core, (r) => r.state === 'pending' && r.id !== first.id);
    await api('putComment', { reviewId: second.id, fileIndex: 0, side: 'base', line: 0, text: 'keep it' });
    await api('reject', { reviewId: second.id });
    const deny = (JSON.parse((await rejected.done).stdout) as HookAnswer).hookSpecificOutput;
    expect(deny.permissionDecision).toBe('deny');
    expect(deny.permissionDecisionReason).toBe(
      'The reviewer rejected this edit to notes.txt in DiffTray.\n' +
        'Comments from the reviewer:\n- notes.txt:1 (before your change) ("alpha"): keep it',
    );
  });
});
