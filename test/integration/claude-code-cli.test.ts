/**
 * The real Claude Code CLI (`claude -p`) against the loopback model stand-in, with a tiny PreToolUse
 * hook: proves the harness, and pins down what DiffTray's hook can rely on — the JSON it gets on stdin,
 * and what allow + updatedInput + additionalContext, deny + reason, and no decision do to the tool call
 * and to what the model receives. Skipped, saying why, where the CLI's native binary is missing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import {
  startAnthropicStandIn,
  type AnthropicStandIn,
  type ScriptedTurn,
} from '../support/anthropic-stand-in';
import {
  CLAUDE_CODE_VERSIONS,
  HOOK_CONTEXT_PLACEMENT,
  findClaudeBinary,
  makeClaudeSandbox,
  runClaudePrint,
  type ClaudeCodeVersion,
  type ClaudeSandbox,
} from '../support/claude-code';

const binaries = CLAUDE_CODE_VERSIONS.map((version) => findClaudeBinary(version));
for (const { version, skipReason } of binaries) {
  if (skipReason) console.warn(`Skipping the real Claude Code ${version} CLI tests: ${skipReason}`);
}

/** Records its stdin JSON and prints the reply the test left for it (nothing when the reply is empty). */
const HOOK_SCRIPT = `
const fs = require('node:fs');
const path = require('node:path');
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  fs.appendFileSync(path.join(__dirname, 'hook-inputs.jsonl'), input.trim() + '\\n');
  process.stdout.write(fs.readFileSync(path.join(__dirname, 'hook-reply.json'), 'utf8'));
});
`;

interface HookInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
  hook_event_name: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
}

describe.each(binaries)('the real Claude Code CLI $version', (claude) => {
  describe.skipIf(claude.skipReason !== undefined)('with a PreToolUse hook', () => {
    let sandbox: ClaudeSandbox;
    let standIn: AnthropicStandIn | undefined;
    let hookDir: string;
    let file: string;
    const original = 'alpha\nbeta\ngamma\n';

    beforeAll(() => {
      sandbox = makeClaudeSandbox('claude-cli');
      hookDir = sandbox.home;
      const hook = path.join(hookDir, 'hook.cjs');
      writeFileSync(hook, HOOK_SCRIPT);
      sandbox.writeSettings({
        hooks: {
          PreToolUse: [
            {
              matcher: 'Edit|Write|Bash',
              hooks: [{ type: 'command', command: `"${process.execPath}" "${hook}"`, timeout: 30 }],
            },
          ],
        },
      });
      file = path.join(sandbox.workspace, 'notes.txt');
    });

    afterEach(async () => {
      await standIn?.close();
      standIn = undefined;
    });

    afterAll(() => sandbox?.cleanup());

    /** One `claude -p` run: the stand-in plays `script`, the hook answers `hookReply`. */
    async function runWithHook(script: ScriptedTurn[], hookReply: unknown): Promise<HookInput[]> {
      writeFileSync(file, original);
      writeFileSync(
        path.join(hookDir, 'hook-reply.json'),
        hookReply === undefined ? '' : JSON.stringify(hookReply),
      );
      writeFileSync(path.join(hookDir, 'hook-inputs.jsonl'), '');
      standIn = await startAnthropicStandIn(script);
      const run = await runClaudePrint({
        binary: claude.path!,
        sandbox,
        baseUrl: standIn.baseUrl,
        prompt: 'Go on.',
      });
      console.info(`claude -p ran in ${run.elapsedMs} ms`);
      expect(run.exitCode, `claude -p failed\n${run.stdout}\n${run.stderr}`).toBe(0);
      expect(standIn.turnsServed(), 'every scripted turn was asked for').toBe(script.length);
      return readFileSync(path.join(hookDir, 'hook-inputs.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as HookInput);
    }

    const readThenEdit = (): ScriptedTurn[] => [
      { tool: 'Read', input: { file_path: file } },
      { tool: 'Edit', input: { file_path: file, old_string: 'beta\ngamma', new_string: 'BETA\nGAMMA' } },
      { text: 'Done.' },
    ];

    it('allow with updatedInput writes exactly the narrowed edit, and additionalContext reaches the model', async () => {
      const hookInputs = await runWithHook(readThenEdit(), {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          updatedInput: { file_path: file, old_string: 'beta\ngamma', new_string: 'BETA\ngamma' },
          additionalContext: 'The reviewer rejected hunk 2 (line 3): keep gamma lower-case.',
        },
      });

      expect(readFileSync(file, 'utf8')).toBe('alpha\nBETA\ngamma\n');
      const editResult = standIn!.toolResultOfTurn(1);
      expect(editResult).toMatchObject({ tool: 'Edit', isError: false });
      expect(standIn!.lastMessageText()).toContain(
        'The reviewer rejected hunk 2 (line 3): keep gamma lower-case.',
      );
      // Where the note reaches the model changed between versions; it reaches it either way.
      const context =
        'PreToolUse:Edit hook additional context: The reviewer rejected hunk 2 (line 3): keep gamma lower-case.';
      const received: Record<ClaudeCodeVersion, string> = {
        '2.1.332': context,
        '2.1.197': `<system-reminder>\n${context}\n</system-reminder>`,
      };
      expect(standIn!.contextAfterTurn(1)).toEqual([
        { placement: HOOK_CONTEXT_PLACEMENT[claude.version], text: received[claude.version] },
      ]);

      // What DiffTray's hook gets: only the Edit (Read is not matched), with these fields.
      expect(hookInputs).toHaveLength(1);
      const [input] = hookInputs as [HookInput];
      expect(input).toMatchObject({
        cwd: sandbox.workspace,
        permission_mode: 'default',
        hook_event_name: 'PreToolUse',
        tool_name: 'Edit',
        tool_input: {
          file_path: file,
          old_string: 'beta\ngamma',
          new_string: 'BETA\nGAMMA',
          replace_all: false,
        },
        tool_use_id: standIn!.toolUseIdOfTurn(1),
        // Both versions also send these; the hook ignores them.
        prompt_id: expect.any(String),
        effort: { level: expect.any(String) },
      });
      // The same session the model API sees.
      const mainRequest = standIn!.requests.find((request) => request.main)!;
      expect(input.session_id).toBe(mainRequest.headers['x-claude-code-session-id']);
      expect(input.transcript_path).toContain(input.session_id);
    });

    it('deny with a reason leaves the file alone and the model gets the reason as the tool error', async () => {
      const hookInputs = await runWithHook(readThenEdit(), {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'The reviewer rejected this edit: keep the list lower-case.',
        },
      });

      expect(readFileSync(file, 'utf8')).toBe(original);
      const editResult = standIn!.toolResultOfTurn(1);
      expect(editResult).toMatchObject({ tool: 'Edit', isError: true });
      expect(editResult!.text).toContain('The reviewer rejected this edit: keep the list lower-case.');
      // 2.1.332 names the hook before the reason.
      const reason = 'The reviewer rejected this edit: keep the list lower-case.';
      const received: Record<ClaudeCodeVersion, string> = {
        '2.1.332': `PreToolUse:Edit hook error: ${reason}`,
        '2.1.197': reason,
      };
      expect(editResult!.text).toBe(received[claude.version]);
      expect(hookInputs.map((input) => input.tool_name)).toEqual(['Edit']);
    });

    it('a Bash command denied with a reason does not run, and the model gets the reason', async () => {
      const marker = path.join(sandbox.workspace, 'command-ran');
      const command = `touch "${marker}"`;
      const hookInputs = await runWithHook(
        [{ tool: 'Bash', input: { command, description: 'Create a marker file' } }, { text: 'Done.' }],
        {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: 'Not now: the reviewer denied this command.',
          },
        },
      );

      expect(existsSync(marker)).toBe(false);
      const bashResult = standIn!.toolResultOfTurn(0);
      expect(bashResult).toMatchObject({ tool: 'Bash', isError: true });
      expect(bashResult!.text).toContain('Not now: the reviewer denied this command.');
      expect(hookInputs).toHaveLength(1);
      expect(hookInputs[0]).toMatchObject({
        tool_name: 'Bash',
        tool_input: { command, description: 'Create a marker file' },
      });
    });

    it('a hook that prints nothing leaves the decision to Claude Code, which in -p refuses the edit', async () => {
      const hookInputs = await runWithHook(readThenEdit(), undefined);

      expect(readFileSync(file, 'utf8')).toBe(original);
      const editResult = standIn!.toolResultOfTurn(1);
      expect(editResult).toMatchObject({ tool: 'Edit', isError: true });
      expect(editResult!.text).toContain(`Claude requested permissions to write to ${file}`);
      expect(hookInputs).toHaveLength(1);
    });
  });
});
