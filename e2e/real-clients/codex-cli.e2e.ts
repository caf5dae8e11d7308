/**
 * The real Codex CLI (`codex exec`) offline against the Responses API stand-in: the harness the
 * DiffTray-hook tests build on. It proves the stand-in's apply_patch and shell calls really write, and
 * pins the PreToolUse hook wire that DiffTray's hook relies on (docs/protocols/codex.md): the stdin a
 * hook gets, a rewrite through `updatedInput`, `additionalContext` and a deny reaching the model, and an
 * untrusted hook being skipped. Skipped, saying why, where the CLI's platform package is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_VERSION, findCodexBinary, writeCodexHooks } from '../../test/support/codex-cli';
import {
  makeCodexSandbox,
  runCodexTurn,
  writeRecordingHook,
  type CodexSandbox,
  type CodexTurn,
} from '../../test/support/codex-turn';
import {
  SHELL_TOOL,
  applyPatchTurn,
  messagesIn,
  shellTurn,
  textTurn,
  toolOutputsIn,
} from '../../test/support/responses-stand-in';
import { lines } from '../../test/support/fixtures';
import { TWO_HUNKS } from './support/review-in-browser';

const codex = findCodexBinary();
if (codex.skipReason) console.warn(`Skipping the real Codex CLI (codex exec) tests: ${codex.skipReason}`);

const FILE_NAME = 'notes.md';

/** A patch of `FILE_NAME` with the given hunks (paths relative to the workspace, as Codex writes them). */
const patchOf = (...hunks: Array<[string, string]>) =>
  [
    '*** Begin Patch',
    `*** Update File: ${FILE_NAME}`,
    ...hunks.flatMap(([from, to]) => ['@@', `-${from}`, `+${to}`]),
    '*** End Patch',
    '',
  ].join('\n');
const HUNK_1: [string, string] = ['first draft', 'first FINAL'];
const HUNK_2: [string, string] = ['last draft', 'last FINAL'];
const TWO_HUNK_PATCH = patchOf(HUNK_1, HUNK_2);
const HUNK_1_PATCH = patchOf(HUNK_1);

const allowRewritten = (command: string, note: string) => ({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'allow',
    updatedInput: { command },
    additionalContext: note,
  },
});

describe.skipIf(codex.path === undefined)(`the real Codex CLI ${CODEX_VERSION} (codex exec) offline`, () => {
  const binary = codex.path ?? '';
  let sandbox: CodexSandbox | undefined;
  afterEach(() => {
    sandbox?.cleanup();
    sandbox = undefined;
  });

  /** A fresh sandbox whose workspace holds the two-hunk base text. */
  const newSandbox = (): CodexSandbox => {
    sandbox = makeCodexSandbox('codex-e2e');
    sandbox.writeFiles({ [FILE_NAME]: TWO_HUNKS.base });
    return sandbox;
  };

  /** The run ended well, or the failure shows Codex's transcript. */
  const expectExited = ({ result }: CodexTurn) =>
    expect(result.exitCode, `codex exec failed:\n${result.stdout}\n${result.stderr}`).toBe(0);

  it('applies a two-hunk apply_patch from the model and reports success to it', async () => {
    const box = newSandbox();
    const turn = await runCodexTurn(box, {
      binary,
      script: [applyPatchTurn(TWO_HUNK_PATCH), textTurn('Edited.')],
    });

    expectExited(turn);
    expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.proposed);
    expect(turn.standIn.turnsServed()).toBe(2);
    expect(turn.standIn.toolsOffered()).toEqual(expect.arrayContaining(['apply_patch', SHELL_TOOL]));
    const [output] = toolOutputsIn(turn.standIn.requestsReceived()[1]);
    expect(output).toMatchObject({ tool: 'apply_patch' });
    expect(output?.text).toContain(`Success. Updated the following files:\nM ${FILE_NAME}`);
    expect(turn.result.stdout).toContain('Edited.');
  });

  it('applies a patch that adds one file and updates another', async () => {
    const box = newSandbox();
    const added = lines('# added', 'by the patch');
    const patch = [
      '*** Begin Patch',
      '*** Add File: docs/added.md',
      '+# added',
      '+by the patch',
      `*** Update File: ${FILE_NAME}`,
      '@@',
      `-${HUNK_2[0]}`,
      `+${HUNK_2[1]}`,
      '*** End Patch',
      '',
    ].join('\n');
    const turn = await runCodexTurn(box, { binary, script: [applyPatchTurn(patch)] });

    expectExited(turn);
    expect(box.readFile('docs/added.md')).toBe(added);
    expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.base.replace('last draft', 'last FINAL'));
    const [output] = toolOutputsIn(turn.standIn.requestsReceived()[1]);
    expect(output?.text).toContain(`A docs/added.md\nM ${FILE_NAME}`);
  });

  it('applies exactly the patch a trusted-for-the-run PreToolUse hook rewrites, and tells the model its note', async () => {
    const box = newSandbox();
    const hook = writeRecordingHook(box, 'rewrite', {
      answers: { apply_patch: allowRewritten(HUNK_1_PATCH, 'kept hunk 1') },
    });
    writeCodexHooks(box.codexHome, [{ matcher: 'apply_patch', command: hook.command }]);
    const turn = await runCodexTurn(box, {
      binary,
      script: [applyPatchTurn(TWO_HUNK_PATCH)],
      bypassHookTrust: true,
    });

    expectExited(turn);
    expect(hook.inputs()).toHaveLength(1);
    expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.composed);
    const next = turn.standIn.requestsReceived()[1];
    expect(messagesIn(next, 'developer')).toContain('kept hunk 1');
    // The model's own history keeps its original call: the note has to say what was kept.
    expect(next?.input).toContainEqual(
      expect.objectContaining({ type: 'custom_tool_call', input: TWO_HUNK_PATCH }),
    );
  });

  it('skips a hook nobody trusted: the patch is applied whole and the hook never runs', async () => {
    const box = newSandbox();
    const hook = writeRecordingHook(box, 'untrusted', {
      answers: { apply_patch: allowRewritten(HUNK_1_PATCH, 'kept hunk 1') },
    });
    writeCodexHooks(box.codexHome, [{ matcher: 'apply_patch', command: hook.command }]);
    const turn = await runCodexTurn(box, { binary, script: [applyPatchTurn(TWO_HUNK_PATCH)] });

    expectExited(turn);
    expect(hook.inputs()).toEqual([]);
    expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.proposed);
  });

  it('gives the hook the patch and the shell command on stdin, with the session and the cwd', async () => {
    const box = newSandbox();
    const hook = writeRecordingHook(box, 'capture');
    writeCodexHooks(box.codexHome, [{ matcher: 'apply_patch|Bash', command: hook.command }]);
    const turn = await runCodexTurn(box, {
      binary,
      script: [applyPatchTurn(TWO_HUNK_PATCH), shellTurn('printf shell-ran > shell.txt')],
      bypassHookTrust: true,
    });

    expectExited(turn);
    const [patchInput, shellInput] = hook.inputs();
    const common = {
      hook_event_name: 'PreToolUse',
      cwd: box.workspace,
      session_id: expect.stringMatching(/\S/),
      turn_id: expect.stringMatching(/\S/),
      model: 'gpt-5.5',
      permission_mode: 'bypassPermissions',
    };
    expect(patchInput).toMatchObject({
      ...common,
      tool_name: 'apply_patch',
      tool_input: { command: TWO_HUNK_PATCH },
      tool_use_id: 'call_1',
    });
    expect(shellInput).toMatchObject({
      ...common,
      tool_name: 'Bash',
      tool_input: { command: 'printf shell-ran > shell.txt' },
      tool_use_id: 'call_2',
    });
    expect(shellInput?.session_id).toBe(patchInput?.session_id);
    // The session's transcript, which a hook may read.
    expect(existsSync(String(patchInput?.transcript_path))).toBe(true);
    expect(readFileSync(path.join(box.workspace, 'shell.txt'), 'utf8')).toBe('shell-ran');
    expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.proposed);
  });

  it('gives the prompt and end-of-turn hooks the session, the prompt and stop_hook_active; a Stop block makes Codex go on with the reason', async () => {
    const box = newSandbox();
    const reason = 'The reviewer reverted line 9 in DiffTray.';
    const hook = writeRecordingHook(box, 'turn', { blockFirstStop: reason });
    writeCodexHooks(box.codexHome, [{ matcher: 'apply_patch', command: hook.command }], {
      UserPromptSubmit: hook.command,
      Stop: hook.command,
    });
    const prompt = 'Finalise the notes\nand count them';
    const turn = await runCodexTurn(box, {
      binary,
      prompt,
      script: [applyPatchTurn(HUNK_1_PATCH), textTurn('Done.'), textTurn('Done again.')],
      bypassHookTrust: true,
    });

    expectExited(turn);
    const inputs = hook.inputs();
    expect(inputs.map((input) => input.hook_event_name)).toEqual([
      'UserPromptSubmit',
      'PreToolUse',
      'Stop',
      'Stop',
    ]);
    const [promptInput, patchInput, firstStop, secondStop] = inputs;
    const session = { session_id: patchInput?.session_id, cwd: box.workspace };
    expect(promptInput).toMatchObject({ ...session, prompt });
    expect(firstStop).toMatchObject({ ...session, stop_hook_active: false, last_assistant_message: 'Done.' });
    // Codex goes on, in the same turn, with the reason as a user message wrapped in a <hook_prompt>.
    const told = messagesIn(turn.standIn.requestsReceived()[2], 'user').at(-1);
    expect(told).toMatch(new RegExp(`^<hook_prompt hook_run_id="stop:[^"]*">${reason}</hook_prompt>$`));
    expect(secondStop?.turn_id).toBe(firstStop?.turn_id);
    expect(secondStop).toMatchObject({
      ...session,
      stop_hook_active: true,
      last_assistant_message: 'Done again.',
    });
    expect(turn.standIn.requestsReceived()).toHaveLength(3);
  });

  it('leaves the file untouched on a deny and gives the model the reason', async () => {
    const box = newSandbox();
    const reason = 'The person rejected this edit in DiffTray: keep the drafts.';
    const deny = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: reason,
      },
    };
    const hook = writeRecordingHook(box, 'deny', { answers: { apply_patch: deny } });
    writeCodexHooks(box.codexHome, [{ matcher: 'apply_patch', command: hook.command }]);
    const turn = await runCodexTurn(box, {
      binary,
      script: [applyPatchTurn(TWO_HUNK_PATCH)],
      bypassHookTrust: true,
    });

    expectExited(turn);
    expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.base);
    const [output] = toolOutputsIn(turn.standIn.requestsReceived()[1]);
    expect(output).toMatchObject({ tool: 'apply_patch' });
    expect(output?.text).toContain(`Command blocked by PreToolUse hook: ${reason}`);
  });
  it('blocks on a hook exiting 2, its stderr the reason, and lets a hook failing with 1 through', async () => {
    const box = newSandbox();
    const blocking = writeRecordingHook(box, 'exit-2', { exitCode: 2, stderr: 'DiffTray is not running.' });
    writeCodexHooks(box.codexHome, [{ matcher: 'apply_patch', command: blocking.command }]);
    const blocked = await runCodexTurn(box, {
      binary,
      script: [applyPatchTurn(TWO_HUNK_PATCH)],
      bypassHookTrust: true,
    });

    expectExited(blocked);
    expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.base);
    const [output] = toolOutputsIn(blocked.standIn.requestsReceived()[1]);
    expect(output?.text).toContain('Command blocked by PreToolUse hook: DiffTray is not running.');

    // Any other failure is not a decision: Codex goes on and writes (a hook must fail closed with 2).
    const failing = writeRecordingHook(box, 'exit-1', { exitCode: 1, stderr: 'crashed' });
    writeCodexHooks(box.codexHome, [{ matcher: 'apply_patch', command: failing.command }]);
    const through = await runCodexTurn(box, {
      binary,
      script: [applyPatchTurn(TWO_HUNK_PATCH)],
      bypassHookTrust: true,
    });

    expectExited(through);
    expect(failing.inputs()).toHaveLength(1);
    expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.proposed);
  });

  it('treats a deny without a reason as a failed hook, and writes', async () => {
    const box = newSandbox();
    const deny = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } };
    const hook = writeRecordingHook(box, 'deny-no-reason', { answers: { apply_patch: deny } });
    writeCodexHooks(box.codexHome, [{ matcher: 'apply_patch', command: hook.command }]);
    const turn = await runCodexTurn(box, {
      binary,
      script: [applyPatchTurn(TWO_HUNK_PATCH)],
      bypassHookTrust: true,
    });

    expectExited(turn);
    expect(hook.inputs()).toHaveLength(1);
    expect(turn.result.stderr).toContain('hook: PreToolUse Failed');
    expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.proposed);
  });

  it('treats an allow without updatedInput as a failed hook, and takes additionalContext without a decision', async () => {
    const box = newSandbox();
    const bareAllow = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } };
    const allowing = writeRecordingHook(box, 'bare-allow', { answers: { apply_patch: bareAllow } });
    writeCodexHooks(box.codexHome, [{ matcher: 'apply_patch', command: allowing.command }]);
    const failed = await runCodexTurn(box, {
      binary,
      script: [applyPatchTurn(HUNK_1_PATCH)],
      bypassHookTrust: true,
    });

    expectExited(failed);
    expect(failed.result.stderr).toContain('hook: PreToolUse Failed');
    expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.composed);

    box.writeFiles({ [FILE_NAME]: TWO_HUNKS.base });
    const contextOnly = {
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'looks good' },
    };
    const noting = writeRecordingHook(box, 'context-only', { answers: { apply_patch: contextOnly } });
    writeCodexHooks(box.codexHome, [{ matcher: 'apply_patch', command: noting.command }]);
    const noted = await runCodexTurn(box, {
      binary,
      script: [applyPatchTurn(TWO_HUNK_PATCH)],
      bypassHookTrust: true,
    });

    expectExited(noted);
    expect(noted.result.stderr).toContain('hook: PreToolUse Completed');
    expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.proposed);
    expect(messagesIn(noted.standIn.requestsReceived()[1], 'developer')).toContain('looks good');
  });

  it('runs the shell command a hook rewrites (tool Bash) and tells the model its note', async () => {
    const box = newSandbox();
    const hook = writeRecordingHook(box, 'shell-rewrite', {
      answers: { Bash: allowRewritten('printf rewritten > shell.txt', 'command rewritten') },
    });
    writeCodexHooks(box.codexHome, [{ matcher: 'Bash', command: hook.command }]);
    const turn = await runCodexTurn(box, {
      binary,
      script: [shellTurn('printf original > shell.txt')],
      bypassHookTrust: true,
    });

    expectExited(turn);
    expect(readFileSync(path.join(box.workspace, 'shell.txt'), 'utf8')).toBe('rewritten');
    const next = turn.standIn.requestsReceived()[1];
    expect(messagesIn(next, 'developer')).toContain('command rewritten');
    expect(toolOutputsIn(next)).toEqual([expect.objectContaining({ tool: SHELL_TOOL })]);
  });

  it('shows a patch sent through the shell (apply_patch heredoc) to the hook as Bash, and applies it', async () => {
    const box = newSandbox();
    const hook = writeRecordingHook(box, 'heredoc');
    writeCodexHooks(box.codexHome, [{ matcher: 'apply_patch|Bash', command: hook.command }]);
    const command = `apply_patch <<'EOF'\n${HUNK_1_PATCH}EOF\n`;
    const turn = await runCodexTurn(box, { binary, script: [shellTurn(command)], bypassHookTrust: true });

    expectExited(turn);
    expect(hook.inputs()).toEqual([expect.objectContaining({ tool_name: 'Bash', tool_input: { command } })]);
    expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.composed);
    const [output] = toolOutputsIn(turn.standIn.requestsReceived()[1]);
    expect(output?.text).toContain(`Success. Updated the following files:\nM ${FILE_NAME}`);
  });
});
