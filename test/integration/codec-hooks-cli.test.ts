/**
 * The real `difftray hook gemini|copilot|qwen` (bin/difftray.cjs, built first) against the real runtime,
 * decided through the app API as the UI does. Stdin as each CLI sends it (docs/protocols/other-agents.md);
 * the text each agent would write is checked by replaying the answer through that agent's codec. The real
 * CLIs run the hooks in e2e/real-clients/*-hooks.e2e.ts.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeCopilot } from '../../shared/hooks/copilot';
import { decodeGemini } from '../../shared/hooks/gemini';
import { decodeQwen } from '../../shared/hooks/qwen';
import { BUILD_TIMEOUT_MS, buildMain } from '../support/build';
import { runCli } from '../support/hook-cli';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview } from '../support/wait';

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

const BASE = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n';
const COMPOSED = BASE.replace('alpha', 'ALPHA');
const OLD = BASE;
const NEW = BASE.replace('alpha', 'ALPHA').replace('theta', 'THETA');
const SESSION = '5e55-10n';

async function stdoutOf(run: ReturnType<typeof runCli>): Promise<unknown> {
  const { code, stdout, stderr } = await run.done;
  expect(code, stderr).toBe(0);
  return stdout === '' ? undefined : JSON.parse(stdout);
}

/** Hunk 2 rejected, a note: the usual partial decision. */
async function rejectSecondWithNote(note: string) {
  const review = await waitForReview(t.runtime.core);
  await api('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' });
  await api('submit', { reviewId: review.id, note });
  return review;
}

const claudeStyle = (event: string, tool_name: string, tool_input: Record<string, unknown>) =>
  JSON.stringify({ session_id: SESSION, cwd: t.workspace, hook_event_name: event, tool_name, tool_input });

describe('difftray hook gemini', () => {
  const input = { file_path: 'notes.txt', old_string: OLD, new_string: NEW, instruction: 'Finalize' };
  const hook = (stdin: string) => runCli(t, ['hook', 'gemini'], stdin);

  it('BeforeTool: the whole input rewritten to the composed text; AfterTool then hands the model the note, once', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const run = hook(claudeStyle('BeforeTool', 'replace', input));
    const review = await rejectSecondWithNote('theta stays');
    expect(review.client).toMatchObject({
      name: 'Gemini CLI',
      protocol: 'gemini-hooks',
      agentSession: SESSION,
    });
    const answer = (await stdoutOf(run)) as { hookSpecificOutput: { tool_input: Record<string, unknown> } };
    const rewritten = answer.hookSpecificOutput.tool_input;
    expect(rewritten).toMatchObject({ file_path: 'notes.txt', instruction: 'Finalize' });
    const call = {
      kind: 'edit' as const,
      toolName: 'replace',
      toolInput: rewritten,
      filePath: 'notes.txt',
      cwd: t.workspace,
    };
    expect(decodeGemini(call, BASE)).toMatchObject({ kind: 'review', proposed: COMPOSED });

    const after = claudeStyle('AfterTool', 'replace', rewritten);
    const note = (await stdoutOf(hook(after))) as { hookSpecificOutput: { additionalContext: string } };
    expect(note.hookSpecificOutput).toMatchObject({ hookEventName: 'AfterTool' });
    expect(note.hookSpecificOutput.additionalContext).toMatch(
      /Rejected: line 8.*Note from the reviewer: theta stays/s,
    );
    expect(await stdoutOf(hook(after))).toBeUndefined();
  });

  it('rejected: deny with the reason; a shell command denied with a note', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const run = hook(claudeStyle('BeforeTool', 'replace', input));
    await api('reject', { reviewId: (await waitForReview(t.runtime.core)).id, reason: 'not now' });
    expect(await stdoutOf(run)).toEqual({ decision: 'deny', reason: 'not now' });

    const shell = hook(claudeStyle('BeforeTool', 'run_shell_command', { command: 'make deploy' }));
    const card = await waitForReview(t.runtime.core);
    expect(card.approval).toMatchObject({ kind: 'command', command: 'make deploy' });
    await api('reject', { reviewId: card.id, reason: 'no deploys today' });
    expect(await stdoutOf(shell)).toEqual({ decision: 'deny', reason: 'no deploys today' });
  });
});

describe('difftray hook copilot', () => {
  const preToolUse = (toolName: string, toolArgs: unknown) =>
    JSON.stringify({ sessionId: SESSION, timestamp: 1764300000000, cwd: t.workspace, toolName, toolArgs });

  it('preToolUse: modifiedArgs with the composed text and the note beside it', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const args = { path: ws('notes.txt'), old_str: OLD, new_str: NEW };
    const run = runCli(t, ['hook', 'copilot', 'preToolUse'], preToolUse('edit', JSON.stringify(args)));
    const review = await rejectSecondWithNote('theta stays');
    expect(review.client).toMatchObject({ name: 'GitHub Copilot CLI', protocol: 'copilot-hooks' });
    const answer = (await stdoutOf(run)) as {
      permissionDecision: string;
      modifiedArgs: Record<string, unknown>;
      additionalContext: string;
    };
    expect(answer.permissionDecision).toBe('allow');
    const call = {
      kind: 'edit' as const,
      toolName: 'edit',
      toolInput: answer.modifiedArgs,
      filePath: ws('notes.txt'),
      cwd: t.workspace,
    };
    expect(decodeCopilot(call, BASE)).toMatchObject({ kind: 'review', proposed: COMPOSED });
    expect(answer.additionalContext).toContain('Note from the reviewer: theta stays');
  });

  it('a shell command allowed with a note; postToolUse and tools not under review print nothing', async () => {
    const run = runCli(
      t,
      ['hook', 'copilot', 'preToolUse'],
      preToolUse('bash', { command: 'npm test', description: 'Run the tests' }),
    );
    const card = await waitForReview(t.runtime.core);
    expect(card.approval).toMatchObject({ kind: 'command', command: 'npm test', reason: 'Run the tests' });
    await api('submit', { reviewId: card.id, note: 'and then stop' });
    expect(await stdoutOf(run)).toEqual({
      permissionDecision: 'allow',
      additionalContext: 'Note from the reviewer: and then stop',
    });
    expect(
      await stdoutOf(
        runCli(t, ['hook', 'copilot', 'postToolUse'], preToolUse('bash', { command: 'npm test' })),
      ),
    ).toBeUndefined();
    expect(
      await stdoutOf(runCli(t, ['hook', 'copilot', 'preToolUse'], preToolUse('view', { path: 'x' }))),
    ).toBeUndefined();
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
  });
});

describe('difftray hook qwen', () => {
  const hook = (stdin: string) => runCli(t, ['hook', 'qwen'], stdin);
  const editInput = () => ({ file_path: ws('notes.txt'), old_string: OLD, new_string: NEW });

  it('PermissionRequest: allow with the whole updated input; PostToolUse hands over the note', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const run = hook(claudeStyle('PermissionRequest', 'edit', editInput()));
    const review = await rejectSecondWithNote('theta stays');
    expect(review.client).toMatchObject({ name: 'Qwen Code', protocol: 'qwen-hooks' });
    const answer = (await stdoutOf(run)) as {
      hookSpecificOutput: { decision: { behavior: string; updatedInput: Record<string, unknown> } };
    };
    const { behavior, updatedInput } = answer.hookSpecificOutput.decision;
    expect(behavior).toBe('allow');
    const call = {
      kind: 'edit' as const,
      toolName: 'edit',
      toolInput: updatedInput,
      filePath: ws('notes.txt'),
      cwd: t.workspace,
    };
    expect(decodeQwen(call, BASE)).toMatchObject({ kind: 'review', proposed: COMPOSED });
    const note = await stdoutOf(hook(claudeStyle('PostToolUse', 'edit', updatedInput)));
    expect(note).toMatchObject({
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        additionalContext: expect.stringContaining('theta stays'),
      },
    });
  });

  it('PreToolUse only tells the turn review the file is about to be written: nothing printed, nothing reviewed', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    expect(await stdoutOf(hook(claudeStyle('PreToolUse', 'edit', editInput())))).toBeUndefined();
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
  });
});
