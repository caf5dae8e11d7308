/**
 * The turn review through the real `difftray hook codex|gemini|copilot|qwen` (bin/difftray.cjs, built
 * first) against the real runtime, with the stdin each real CLI sends for its prompt, edit and end-of-turn
 * events (captured from Codex 0.171.0, Gemini CLI 0.61.0, Copilot CLI 1.0.102 and Qwen Code 0.24.4;
 * docs/protocols/). DiffTray's settings let each agent's edits through to wait for the turn; the person
 * decides through the app API as the window does. The real CLIs run the same flow in
 * e2e/real-clients/{codex,gemini,copilot}-turn.e2e.ts and qwen-hooks.e2e.ts.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HookAgentName } from '../../shared/hooks/hook-tables';
import { BUILD_TIMEOUT_MS, buildMain } from '../support/build';
import { runCli } from '../support/hook-cli';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview } from '../support/wait';

beforeAll(buildMain, BUILD_TIMEOUT_MS);

const AGENTS = ['codex', 'gemini', 'copilot', 'qwen'] as const;

let t: TestRuntime;
beforeEach(async () => {
  t = await startTestRuntime({
    beforeStart: (home) => {
      mkdirSync(path.join(home, '.difftray'), { recursive: true });
      const turnReview = Object.fromEntries(AGENTS.map((agent) => [agent, { edits: 'turn' }]));
      writeFileSync(path.join(home, '.difftray', 'settings.json'), JSON.stringify({ turnReview }));
    },
  });
});
afterEach(async () => {
  await t.close();
});

const api = (method: string, params: Record<string, unknown>) => t.runtime.handler(method, params);
const notes = () => path.join(t.workspace, 'notes.txt');

const BASE = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n';
const NEW = BASE.replace('alpha', 'ALPHA').replace('theta', 'THETA');
const HUNK_1_ONLY = BASE.replace('alpha', 'ALPHA');
const SESSION = '5e55-10n';
const PROMPT = 'Capitalise the letters\nand count them';
const NOTE = 'Keep theta lowercase: it is a variable name.';

/** One hook call: the words after `difftray hook <agent>`, and the stdin. */
interface HookCall {
  args: string[];
  stdin: unknown;
}

/** Each agent's events as its real CLI sends them. */
interface AgentWire {
  client: string;
  prompt(prompt: string): HookCall;
  /** The edit of notes.txt from BASE to NEW, before it is written. */
  edit(): HookCall;
  end(stopHookActive: boolean): HookCall;
}

const claudeStyle = (event: string, fields: Record<string, unknown>): HookCall => ({
  args: [],
  stdin: { session_id: SESSION, cwd: t.workspace, hook_event_name: event, ...fields },
});

const WIRES: Record<(typeof AGENTS)[number], AgentWire> = {
  codex: {
    client: 'Codex CLI',
    prompt: (prompt) => claudeStyle('UserPromptSubmit', { turn_id: 't1', prompt }),
    edit: () =>
      claudeStyle('PreToolUse', {
        turn_id: 't1',
        permission_mode: 'bypassPermissions',
        tool_name: 'apply_patch',
        tool_input: {
          command:
            '*** Begin Patch\n*** Update File: notes.txt\n@@\n-alpha\n+ALPHA\n@@\n-theta\n+THETA\n*** End Patch\n',
        },
        tool_use_id: 'call_1',
      }),
    end: (active) =>
      claudeStyle('Stop', { turn_id: 't1', stop_hook_active: active, last_assistant_message: 'Done.' }),
  },
  gemini: {
    client: 'Gemini CLI',
    prompt: (prompt) => claudeStyle('BeforeAgent', { prompt }),
    edit: () =>
      claudeStyle('BeforeTool', {
        tool_name: 'replace',
        tool_input: { file_path: notes(), old_string: BASE, new_string: NEW, instruction: 'Capitalise' },
      }),
    end: (active) =>
      claudeStyle('AfterAgent', {
        prompt: PROMPT,
        prompt_response: 'Done.',
        stop_hook_active: active,
      }),
  },
  copilot: {
    client: 'GitHub Copilot CLI',
    prompt: (prompt) => ({
      args: ['userPromptSubmitted'],
      stdin: { sessionId: SESSION, timestamp: 1795846413721, cwd: t.workspace, prompt },
    }),
    edit: () => ({
      args: ['preToolUse'],
      stdin: {
        sessionId: SESSION,
        timestamp: 1795846413800,
        cwd: t.workspace,
        toolName: 'edit',
        toolArgs: JSON.stringify({ path: notes(), old_str: BASE, new_str: NEW }),
      },
    }),
    end: (active) => ({
      args: ['agentStop'],
      stdin: {
        sessionId: SESSION,
        timestamp: 1795846414064,
        cwd: t.workspace,
        transcriptPath: '/tmp/events.jsonl',
        stopReason: 'end_turn',
        stop_hook_active: active,
      },
    }),
  },
  qwen: {
    client: 'Qwen Code',
    prompt: (prompt) =>
      claudeStyle('UserPromptSubmit', {
        permission_mode: 'auto_edit',
        prompt,
        ...(prompt !== '' && { submitted_prompt: prompt }),
      }),
    // In auto-edit Qwen asks nobody: PreToolUse is the one hook before the write.
    edit: () =>
      claudeStyle('PreToolUse', {
        permission_mode: 'auto-edit',
        tool_name: 'edit',
        tool_input: { file_path: notes(), old_string: BASE, new_string: NEW },
        tool_use_id: 'toolu_1',
      }),
    end: (active) =>
      claudeStyle('Stop', {
        permission_mode: 'auto_edit',
        stop_hook_active: active,
        last_assistant_message: 'Done.',
      }),
  },
};

function hook(agent: HookAgentName, call: HookCall) {
  return runCli(t, ['hook', agent, ...call.args], JSON.stringify(call.stdin));
}

/** Runs a hook that must answer at once with nothing: the agent goes on as its own flow says. */
async function silent(agent: HookAgentName, call: HookCall): Promise<void> {
  const { code, stdout, stderr } = await hook(agent, call).done;
  expect(code, stderr).toBe(0);
  expect(stdout).toBe('');
}

describe.each(AGENTS)('difftray hook %s: the whole turn', (agent) => {
  const wire = WIRES[agent];

  it('the edit lands unasked; the end of the turn puts it up; hunk 2 reverted and a note: block with both', async () => {
    writeFileSync(notes(), BASE);
    await silent(agent, wire.prompt(PROMPT));
    await silent(agent, wire.edit());
    // The agent writes it.
    writeFileSync(notes(), NEW);
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
    // Qwen says "prompt" with nothing in it each time it sends the model its tool results: no new turn.
    if (agent === 'qwen') await silent(agent, wire.prompt(''));

    const end = hook(agent, wire.end(false));
    const review = await waitForReview(t.runtime.core);
    expect(review.title).toBe(`${wire.client} · ${path.basename(t.workspace)}: ${PROMPT.split('\n')[0]}`);
    expect(review.files.map((file) => path.basename(file.path))).toEqual(['notes.txt']);
    await api('decideHunks', { reviewId: review.id, fileIndex: 0, hunkIndexes: [1], decision: 'rejected' });
    await api('submit', { reviewId: review.id, note: NOTE });

    const { code, stdout, stderr } = await end.done;
    expect(code, stderr).toBe(0);
    const answer = JSON.parse(stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('block');
    expect(answer.reason).toMatch(/notes\.txt: line 8/);
    expect(answer.reason).toContain(NOTE);
    expect(readFileSync(notes(), 'utf8')).toBe(HUNK_1_ONLY);

    // Gemini, Copilot and Qwen hand the reason back as the next prompt: the same turn goes on, so what
    // the agent writes next is reviewed against what the person kept, under the person's prompt.
    await silent(agent, wire.prompt(answer.reason));
    writeFileSync(notes(), HUNK_1_ONLY.replace('gamma', 'GAMMA'));
    const second = hook(agent, wire.end(true));
    const again = await waitForReview(t.runtime.core, (r) => r.state === 'pending' && r.id !== review.id);
    expect(again.title).toBe(review.title);
    expect(again.files.map((file) => file.hunks.length)).toEqual([1]);
    await api('submit', { reviewId: again.id });
    expect((await second.done).stdout).toBe('');
    // Nothing new written: the next end of the turn ends silently, no review.
    await silent(agent, wire.end(true));
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
  });

  it('kept without a word: the end of the turn prints nothing and the file stays as written', async () => {
    writeFileSync(notes(), BASE);
    await silent(agent, wire.prompt(PROMPT));
    await silent(agent, wire.edit());
    writeFileSync(notes(), NEW);

    const end = hook(agent, wire.end(false));
    const review = await waitForReview(t.runtime.core);
    await api('submit', { reviewId: review.id });
    const { code, stdout, stderr } = await end.done;
    expect(code, stderr).toBe(0);
    expect(stdout).toBe('');
    expect(readFileSync(notes(), 'utf8')).toBe(NEW);
  });
});

describe('difftray hook codex: edits reviewed each, then the end of the turn', () => {
  it('a new file rejected whole and an update accepted in the per-edit review: the turn ends silently', async () => {
    await api('updateSettings', { turnReview: { codex: { edits: 'each' } } });
    writeFileSync(notes(), BASE);
    await silent('codex', WIRES.codex.prompt(PROMPT));
    const patch =
      '*** Begin Patch\n*** Add File: added.txt\n+new\n*** Update File: notes.txt\n@@\n-alpha\n+ALPHA\n*** End Patch\n';
    const edit = hook('codex', {
      args: [],
      stdin: {
        session_id: SESSION,
        cwd: t.workspace,
        hook_event_name: 'PreToolUse',
        tool_name: 'apply_patch',
        tool_input: { command: patch },
      },
    });
    const review = await waitForReview(t.runtime.core);
    await api('decideFile', { reviewId: review.id, fileIndex: 0, decision: 'rejected' });
    await api('decideFile', { reviewId: review.id, fileIndex: 1, decision: 'accepted' });
    await api('submit', { reviewId: review.id });
    const answer = JSON.parse((await edit.done).stdout) as {
      hookSpecificOutput: { updatedInput: { command: string } };
    };
    // Codex writes the rewritten patch: the update only.
    expect(answer.hookSpecificOutput.updatedInput.command).not.toContain('added.txt');
    writeFileSync(notes(), HUNK_1_ONLY);

    // What the person decided is what they saw: nothing to review again, no new file taken for deleted.
    await silent('codex', WIRES.codex.end(false));
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
  });
});

describe('difftray hook gemini: a prompt far longer than the protocol takes', () => {
  it('still begins the turn, titled with its first line', async () => {
    writeFileSync(notes(), BASE);
    const long = `Capitalise the letters\n${'and more '.repeat(20_000)}`;
    await silent('gemini', WIRES.gemini.prompt(long));
    await silent('gemini', WIRES.gemini.edit());
    writeFileSync(notes(), NEW);
    const end = hook('gemini', WIRES.gemini.end(false));
    const review = await waitForReview(t.runtime.core);
    expect(review.title).toBe(`Gemini CLI · ${path.basename(t.workspace)}: Capitalise the letters`);
    await api('submit', { reviewId: review.id });
    expect((await end.done).stdout).toBe('');
  });
});
