/**
 * The real `difftray hook claude-code` and `difftray approve` commands (node bin/difftray.cjs, built
 * first) against the real runtime, deciding through the app API as the UI does. The hook gets the JSON
 * Claude Code sends on stdin (fields as observed with Claude Code 2.1.197 and 2.1.332) and the test
 * checks what Claude Code would get back on stdout — and, by replaying the answer as Claude Code applies
 * it, the text that would reach the disk. (The real Claude Code CLI runs the hook in e2e/claude-code-hooks.e2e.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clientPauseKey } from '../../shared/app-api';
import { replayEdit } from '../../shared/claude-code/edit-replay';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until, waitForReview } from '../support/wait';
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
const ws = (name: string) => path.join(t.workspace, name);

const run = (args: string[], stdin = '', env: Record<string, string> = {}) => runCli(t, args, stdin, env);

function hookInput(tool_name: string, tool_input: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: 'c0ffee-session',
    transcript_path: '/tmp/transcript.jsonl',
    cwd: t.workspace,
    prompt_id: '5e1f0c2a-7d4b-4c3e-9a61-0b2d8f4e6a10',
    permission_mode: 'default',
    effort: { level: 'medium' },
    hook_event_name: 'PreToolUse',
    tool_name,
    tool_input,
    tool_use_id: 'toolu_0123',
  });
}

/** Starts the hook, kills it once its review waits, and waits for DiffTray to cancel that review. */
async function killedWhileWaiting(stdin: string, what: string): Promise<void> {
  const hook = run(['hook', 'claude-code'], stdin);
  const review = await waitForReview(t.runtime.core);
  hook.child.kill('SIGKILL');
  await hook.done;
  await until(() => (t.runtime.core.queue.find(review.id)?.state === 'cancelled' ? true : undefined), what);
}

type HookOutput = {
  hookSpecificOutput: {
    hookEventName: string;
    permissionDecision: string;
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
  };
};

const BASE = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n';
const EDIT = {
  file_path: 'notes.txt',
  old_string: 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n',
  new_string: 'ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\nTHETA\n',
};

describe('difftray hook claude-code: edits', () => {
  it('one hunk accepted, one rejected, a note: allow with updatedInput that writes exactly the composed text', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const hook = run(['hook', 'claude-code'], hookInput('Edit', EDIT));
    const review = await waitForReview(t.runtime.core);
    expect(review.client).toMatchObject({
      name: 'Claude Code',
      protocol: 'claude-hooks',
      agentSession: 'c0ffee-session',
    });
    expect(review.title).toBe('Edit notes.txt');
    expect(review.files[0]!.hunks).toHaveLength(2);
    await api('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' });
    await api('submit', { reviewId: review.id, note: 'theta stays lowercase' });
    const { code, stdout } = await hook.done;
    expect(code).toBe(0);
    const answer = (JSON.parse(stdout) as HookOutput).hookSpecificOutput;
    expect(answer.permissionDecision).toBe('allow');
    const replayed = replayEdit('Edit', answer.updatedInput, BASE);
    expect(replayed).toMatchObject({ applies: true, proposed: BASE.replace('alpha', 'ALPHA') });
    expect(answer.additionalContext).toContain('theta stays lowercase');
    expect(answer.additionalContext).toMatch(/line 8/);
  });

  it('everything accepted and no note: a plain allow', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const hook = run(['hook', 'claude-code'], hookInput('Edit', EDIT));
    const review = await waitForReview(t.runtime.core);
    await api('submit', { reviewId: review.id });
    const answer = (JSON.parse((await hook.done).stdout) as HookOutput).hookSpecificOutput;
    expect(answer.permissionDecision).toBe('allow');
    expect(answer.updatedInput).toBeUndefined();
  });

  it('rejected with a note: deny, and the note is the reason Claude reads', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const hook = run(
      ['hook', 'claude-code'],
      hookInput('Write', { file_path: ws('notes.txt'), content: 'x\n' }),
    );
    const review = await waitForReview(t.runtime.core);
    await api('reject', { reviewId: review.id, reason: 'do not truncate the notes' });
    const answer = (JSON.parse((await hook.done).stdout) as HookOutput).hookSpecificOutput;
    expect(answer).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('do not truncate the notes'),
    });
  });

  it('a new file is reviewed against an empty base', async () => {
    const hook = run(
      ['hook', 'claude-code'],
      hookInput('Write', { file_path: ws('fresh.txt'), content: 'one\ntwo\n' }),
    );
    const review = await waitForReview(t.runtime.core);
    expect(review.files[0]!.isNewFile).toBe(true);
    await api('submit', { reviewId: review.id });
    expect((JSON.parse((await hook.done).stdout) as HookOutput).hookSpecificOutput.permissionDecision).toBe(
      'allow',
    );
  });

  it('the hook killed while waiting (Claude Code’s timeout, Ctrl-C): the review is cancelled at once', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    await killedWhileWaiting(hookInput('Edit', EDIT), 'the review cancelled');
  });
});

describe('difftray hook claude-code: no decision, Claude asks as usual', () => {
  const silent = async (stdin: string, env: Record<string, string> = {}) => {
    const { code, stdout } = await run(['hook', 'claude-code'], stdin, env).done;
    expect(code).toBe(0);
    expect(stdout).toBe('');
  };

  it('when DiffTray is not running', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    await silent(hookInput('Edit', EDIT), { DIFFTRAY_HOME: path.join(t.home, 'nowhere') });
  });

  it('when an edit does not apply (old_string missing), and nothing is queued', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    await silent(hookInput('Edit', { ...EDIT, old_string: 'not in the file' }));
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
  });

  it('for a file outside the workspace folders', async () => {
    const outside = path.join(t.home, 'outside.txt');
    writeFileSync(outside, BASE);
    await silent(hookInput('Edit', { ...EDIT, file_path: outside }));
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
  });

  it('for a FIFO where the file should be: refused at once, never waited on', async () => {
    execFileSync('mkfifo', [ws('pipe.txt')]);
    await silent(hookInput('Write', { file_path: ws('pipe.txt'), content: 'x\n' }));
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
  });

  it('for a path through a symlink that leads out of the workspace', async () => {
    const outside = path.join(t.home, 'secret.txt');
    writeFileSync(outside, BASE);
    symlinkSync(outside, ws('link.txt'));
    await silent(hookInput('Edit', { ...EDIT, file_path: ws('link.txt') }));
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
  });

  it('when the person paused reviews from Claude Code', async () => {
    await run(['hook', 'claude-code'], hookInput('Bash', { command: 'true' })).child; // connects once
    const key = clientPauseKey({ protocol: 'claude-hooks', name: 'Claude Code' });
    const listed = await until(
      () => t.runtime.core.clients.list().find((client) => client.protocol === 'claude-hooks'),
      'the hook client listed',
    );
    // Its card queued first: paused before that, the card itself would be refused and never show.
    const pending = await waitForReview(t.runtime.core);
    await api('setClientPaused', { key, paused: true });
    await api('submit', { reviewId: pending.id });
    expect(listed.name).toBe('Claude Code');
    writeFileSync(ws('notes.txt'), BASE);
    await silent(hookInput('Edit', EDIT));
    await silent(hookInput('Bash', { command: 'rm -rf /' }));
  });

  it('for input that is not JSON, or not a hook event', async () => {
    await silent('this is not json');
    await silent(JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: EDIT }));
  });
});

describe('difftray hook claude-code: commands', () => {
  it('Bash shows an approval card; Deny with a note answers deny with the note as the reason', async () => {
    const hook = run(
      ['hook', 'claude-code'],
      hookInput('Bash', { command: 'git push --force', description: 'Push the rewritten history' }),
    );
    const card = await waitForReview(t.runtime.core);
    expect(card.approval).toMatchObject({
      kind: 'command',
      toolName: 'Bash',
      command: 'git push --force',
      reason: 'Push the rewritten history',
      cwd: t.workspace,
    });
    await api('reject', { reviewId: card.id, reason: 'never force-push main' });
    const answer = (JSON.parse((await hook.done).stdout) as HookOutput).hookSpecificOutput;
    expect(answer.permissionDecision).toBe('deny');
    expect(answer.permissionDecisionReason).toContain('never force-push main');
  });

  it('the hook killed while the card waits: the card is cancelled at once', async () => {
    await killedWhileWaiting(hookInput('Bash', { command: 'sleep 1' }), 'the approval card cancelled');
  });

  it('Allow answers allow', async () => {
    const hook = run(['hook', 'claude-code'], hookInput('Bash', { command: 'npm test' }));
    const card = await waitForReview(t.runtime.core);
    await api('submit', { reviewId: card.id });
    const answer = (JSON.parse((await hook.done).stdout) as HookOutput).hookSpecificOutput;
    expect(answer.permissionDecision).toBe('allow');
  });
});

describe('difftray approve', () => {
  it('exits 0 when allowed, 1 when denied (the note on stderr), 2 when DiffTray is not running', async () => {
    const allowed = run(['approve', '-m', 'clean rebuild', '--', 'rm', '-rf', 'build dir']);
    const card = await waitForReview(t.runtime.core);
    expect(card.approval).toMatchObject({ command: "rm -rf 'build dir'", reason: 'clean rebuild' });
    await api('submit', { reviewId: card.id });
    expect((await allowed.done).code).toBe(0);

    const denied = run(['approve', '--', 'make', 'deploy']);
    const second = await waitForReview(t.runtime.core, (r) => r.state === 'pending');
    await api('reject', { reviewId: second.id, reason: 'not on a Friday' });
    const result = await denied.done;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('not on a Friday');

    const away = await run(['approve', '--', 'ls'], '', { DIFFTRAY_HOME: path.join(t.home, 'nowhere') }).done;
    expect(away.code).toBe(2);
    expect(away.stderr).toMatch(/not running/);
  });

  it('without a command: a usage error', async () => {
    const result = await run(['approve']).done;
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/needs the command/);
  });
});
