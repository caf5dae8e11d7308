/**
 * The real `difftray hook codex` (bin/difftray.cjs, built first) against the real runtime, decided
 * through the app API as the UI does. Its stdin is what Codex CLI 0.171.0 sends (docs/protocols/codex.md);
 * what Codex would write is checked by replaying the answer's patch the way Codex applies it
 * (shared/codex/). The real Codex runs the hook in e2e/real-clients/codex-hooks.e2e.ts.
 */
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clientPauseKey } from '../../shared/app-api';
import { applyPatch } from '../../shared/codex/patch-apply';
import { parsePatch } from '../../shared/codex/patch-parse';
import { patchFromShellScript } from '../../shared/codex/shell-heredoc';
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
const TWO_HUNK_PATCH = [
  '*** Begin Patch',
  '*** Update File: notes.txt',
  '@@',
  '-alpha',
  '+ALPHA',
  '@@',
  '-theta',
  '+THETA',
  '*** End Patch',
  '',
].join('\n');

function codexInput(toolName: string, command: string): string {
  return JSON.stringify({
    session_id: '01a21feb-3893-79f3-8aa4-529dd4ffa4a1',
    turn_id: '01a21feb-3900-73b1-af80-986f123d94d8',
    cwd: t.workspace,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5.5',
    permission_mode: 'default',
    tool_name: toolName,
    tool_input: { command },
    tool_use_id: 'call_1',
  });
}

const hook = (stdin: string, env: Record<string, string> = {}) => runCli(t, ['hook', 'codex'], stdin, env);

/** Codex's answer, its fields read loosely: each test checks which ones are there. */
interface Answer {
  hookEventName: string;
  permissionDecision?: string;
  permissionDecisionReason?: string;
  updatedInput?: { command: string };
  additionalContext?: string;
}

async function answerOf(run: ReturnType<typeof hook>): Promise<Answer> {
  const { code, stdout, stderr } = await run.done;
  expect(code, stderr).toBe(0);
  return (JSON.parse(stdout) as { hookSpecificOutput: Answer }).hookSpecificOutput;
}

/** The texts Codex would leave, by path, replaying `patch` on the workspace as it is now. */
function replay(patch: string): Record<string, string | null> {
  const parsed = parsePatch(patch);
  if (!parsed.ok) throw new Error(parsed.reason);
  const applied = applyPatch(parsed.hunks, (file) =>
    existsSync(ws(file)) ? readFileSync(ws(file), 'utf8') : null,
  );
  if (!applied.ok) throw new Error(applied.reason);
  return Object.fromEntries(applied.files.map((file) => [file.path, file.text]));
}

describe('difftray hook codex: apply_patch', () => {
  it('hunk 1 accepted, hunk 2 rejected, a note: allow with the patch of exactly what was kept', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const run = hook(codexInput('apply_patch', TWO_HUNK_PATCH));
    const review = await waitForReview(t.runtime.core);
    expect(review.client).toMatchObject({ name: 'Codex CLI', protocol: 'codex-hooks' });
    expect(review.title).toBe('apply_patch notes.txt');
    expect(review.files[0]!.hunks).toHaveLength(2);
    await api('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' });
    await api('submit', { reviewId: review.id, note: 'theta stays lowercase' });
    const answer = await answerOf(run);
    expect(answer.permissionDecision).toBe('allow');
    expect(replay(answer.updatedInput!.command)).toEqual({ 'notes.txt': BASE.replace('alpha', 'ALPHA') });
    expect(answer.additionalContext).toContain('Note from the reviewer: theta stays lowercase');
    expect(answer.additionalContext).toMatch(/only part of your patch.*Rejected: line 8/s);
    expect(readFileSync(ws('notes.txt'), 'utf8')).toBe(BASE);
  });

  it('all accepted: allow with the patch as Codex sent it (Codex refuses an allow without updatedInput)', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const run = hook(codexInput('apply_patch', TWO_HUNK_PATCH));
    const review = await waitForReview(t.runtime.core);
    await api('decideAll', { reviewId: review.id, decision: 'accepted' });
    await api('submit', { reviewId: review.id });
    expect(await answerOf(run)).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: { command: TWO_HUNK_PATCH },
    });
  });

  it('all rejected with a reason: deny, the reason for the model', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const run = hook(codexInput('apply_patch', TWO_HUNK_PATCH));
    const review = await waitForReview(t.runtime.core);
    await api('reject', { reviewId: review.id, reason: 'leave the notes alone' });
    expect(await answerOf(run)).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'leave the notes alone',
    });
  });

  it('a patch that adds one file and updates another: one review; the added file rejected, the update kept', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const patch = [
      '*** Begin Patch',
      '*** Add File: added.txt',
      '+new file',
      '*** Update File: notes.txt',
      '@@',
      '-alpha',
      '+ALPHA',
      '*** End Patch',
    ].join('\n');
    const run = hook(codexInput('apply_patch', patch));
    const review = await waitForReview(t.runtime.core);
    expect(review.files.map((file) => path.basename(file.path))).toEqual(['added.txt', 'notes.txt']);
    expect(review.title).toBe('apply_patch added.txt and 1 more');
    await api('decideFile', { reviewId: review.id, fileIndex: 0, decision: 'rejected' });
    await api('decideFile', { reviewId: review.id, fileIndex: 1, decision: 'accepted' });
    await api('submit', { reviewId: review.id });
    const answer = await answerOf(run);
    expect(answer.permissionDecision).toBe('allow');
    expect(replay(answer.updatedInput!.command)).toEqual({ 'notes.txt': BASE.replace('alpha', 'ALPHA') });
    expect(answer.additionalContext).toContain('Rejected whole: added.txt.');
    expect(existsSync(ws('added.txt'))).toBe(false);
  });

  it('a patch sent through the shell is answered through the shell, its `cd` kept', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const script = `cd . && apply_patch <<'EOF'\n${TWO_HUNK_PATCH}EOF\n`;
    const run = hook(codexInput('Bash', script));
    const review = await waitForReview(t.runtime.core);
    await api('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [0], decision: 'rejected' });
    await api('submit', { reviewId: review.id });
    const answer = await answerOf(run);
    const sent = patchFromShellScript(answer.updatedInput!.command);
    expect(sent?.prefix).toBe('cd . && ');
    expect(replay(sent!.patch)).toEqual({ 'notes.txt': BASE.replace('theta', 'THETA') });
  });
});

describe('difftray hook codex: commands and no decision', () => {
  it('a shell command is an approval card; Deny with a note answers deny with the note', async () => {
    const run = hook(codexInput('Bash', 'rm -rf build'));
    const card = await waitForReview(t.runtime.core);
    expect(card.approval).toMatchObject({ kind: 'command', toolName: 'Bash', command: 'rm -rf build' });
    await api('reject', { reviewId: card.id, reason: 'keep the build' });
    expect(await answerOf(run)).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'keep the build',
    });
  });

  it('DiffTray not running: nothing printed, exit 0, Codex asks as usual', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const { code, stdout, stderr } = await hook(codexInput('apply_patch', TWO_HUNK_PATCH), {
      DIFFTRAY_HOME: path.join(t.home, 'nowhere'),
    }).done;
    expect({ code, stdout }).toEqual({ code: 0, stdout: '' });
    expect(stderr).toMatch(/no decision \(.*\); Codex CLI asks as usual/);
  });

  it('a patch that does not apply, a tool not under review, another event: nothing printed, no review', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const silent = async (stdin: string) => {
      expect(await hook(stdin).done).toMatchObject({ code: 0, stdout: '' });
    };
    await silent(codexInput('apply_patch', TWO_HUNK_PATCH.replace('-alpha', '-omega')));
    await silent(codexInput('Read', 'notes.txt'));
    await silent(JSON.stringify({ hook_event_name: 'Stop', tool_name: 'apply_patch' }));
    await silent('not json');
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
  });

  it('a patch reaching outside the workspace, through ../ or a link, or huge or malformed stdin: nothing printed, no review', async () => {
    const outside = path.join(t.home, 'outside.txt');
    writeFileSync(outside, BASE);
    symlinkSync(outside, ws('link.txt'));
    const silent = async (stdin: string) => {
      expect(await hook(stdin).done).toMatchObject({ code: 0, stdout: '' });
    };
    const relative = path.relative(t.workspace, outside);
    await silent(codexInput('apply_patch', TWO_HUNK_PATCH.replace('notes.txt', relative)));
    await silent(codexInput('apply_patch', TWO_HUNK_PATCH.replace('notes.txt', 'link.txt')));
    await silent(
      codexInput('apply_patch', `*** Begin Patch\n*** Add File: ${outside}.new\n+x\n*** End Patch`),
    );
    await silent(
      JSON.stringify({ tool_name: 'apply_patch', tool_input: { command: 'x'.repeat(70 * 1024 * 1024) } }),
    );
    await silent('{"tool_name": "apply_patch", "tool_input": ');
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
    expect(readFileSync(outside, 'utf8')).toBe(BASE);
  });

  it('paused for Codex CLI: nothing printed, no review', async () => {
    writeFileSync(ws('notes.txt'), BASE);
    const first = hook(codexInput('Bash', 'true'));
    const card = await waitForReview(t.runtime.core);
    await api('setClientPaused', {
      key: clientPauseKey({ protocol: 'codex-hooks', name: 'Codex CLI' }),
      paused: true,
    });
    await api('submit', { reviewId: card.id });
    await first.done;
    expect(await hook(codexInput('apply_patch', TWO_HUNK_PATCH)).done).toMatchObject({ code: 0, stdout: '' });
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
  });
});
