/** The hooks setup writes for each agent, as that agent reads them; pure, on settings objects. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGENT_HOOK_SHAPES, SETUP_AGENTS, type SetupAgent } from '../../../shared/hook-setup/agent-hooks';
import { updateHooks, type JsonObject } from '../../../shared/hook-setup/hook-entries';

const BASE = '"/usr/bin/node" "/opt/difftray/cli.cjs"';
const MOVED = '"/usr/local/bin/node" "/home/me/difftray/cli.cjs"';
const command = (base: string) => (words: readonly string[]) => `${base} ${words.join(' ')}`;

const setUp = (agent: SetupAgent, settings: unknown, base = BASE) =>
  updateHooks(settings, AGENT_HOOK_SHAPES[agent], command(base));
const remove = (agent: SetupAgent, settings: unknown) =>
  updateHooks(settings, AGENT_HOOK_SHAPES[agent], command(BASE), { remove: true });

const hook = (words: string, timeout: number) => ({
  type: 'command',
  command: `${BASE} ${words}`,
  timeout,
});

describe('the hooks setup writes, agent by agent', () => {
  it('Codex: PreToolUse for apply_patch and Bash, an hour in seconds; the turn review: UserPromptSubmit (30 s) and Stop', () => {
    const { settings, changes } = setUp('codex', {});
    expect(settings).toEqual({
      hooks: {
        PreToolUse: [{ matcher: 'apply_patch|Bash', hooks: [hook('hook codex', 3600)] }],
        UserPromptSubmit: [{ hooks: [hook('hook codex', 30)] }],
        Stop: [{ hooks: [hook('hook codex', 3600)] }],
      },
    });
    expect(changes).toEqual([
      `Add a PreToolUse hook for apply_patch|Bash: ${BASE} hook codex (timeout 3600 s)`,
      `Add a UserPromptSubmit hook: ${BASE} hook codex (timeout 30 s)`,
      `Add a Stop hook: ${BASE} hook codex (timeout 3600 s)`,
    ]);
  });

  it('Gemini CLI: BeforeTool and AfterTool for edits and the shell, BeforeAgent and AfterAgent; timeouts in milliseconds', () => {
    expect(setUp('gemini', {}).settings).toEqual({
      hooks: {
        BeforeTool: [
          { matcher: 'replace|write_file|run_shell_command', hooks: [hook('hook gemini', 3_600_000)] },
        ],
        AfterTool: [
          { matcher: 'replace|write_file|run_shell_command', hooks: [hook('hook gemini', 3_600_000)] },
        ],
        BeforeAgent: [{ hooks: [hook('hook gemini', 30_000)] }],
        AfterAgent: [{ hooks: [hook('hook gemini', 3_600_000)] }],
      },
    });
  });

  it('Copilot CLI: a version 1 file, bash commands that name their event, timeoutSec', () => {
    const { settings, changes } = setUp('copilot', {});
    expect(settings).toEqual({
      version: 1,
      hooks: {
        preToolUse: [{ type: 'command', bash: `${BASE} hook copilot preToolUse`, timeoutSec: 3600 }],
        postToolUse: [{ type: 'command', bash: `${BASE} hook copilot postToolUse`, timeoutSec: 3600 }],
        userPromptSubmitted: [
          { type: 'command', bash: `${BASE} hook copilot userPromptSubmitted`, timeoutSec: 30 },
        ],
        agentStop: [{ type: 'command', bash: `${BASE} hook copilot agentStop`, timeoutSec: 3600 }],
      },
    });
    expect(Object.keys(settings)).toEqual(['version', 'hooks']);
    expect(changes).toEqual([
      'Set "version" to 1',
      `Add a preToolUse hook: ${BASE} hook copilot preToolUse (timeout 3600 s)`,
      `Add a postToolUse hook: ${BASE} hook copilot postToolUse (timeout 3600 s)`,
      `Add a userPromptSubmitted hook: ${BASE} hook copilot userPromptSubmitted (timeout 30 s)`,
      `Add a agentStop hook: ${BASE} hook copilot agentStop (timeout 3600 s)`,
    ]);
  });

  it('Qwen Code: PermissionRequest, PreToolUse and PostToolUse, UserPromptSubmit and Stop; an hour as 3600000 (its millisecond form)', () => {
    const both = 'edit|write_file|run_shell_command';
    expect(setUp('qwen', {}).settings).toEqual({
      hooks: {
        PermissionRequest: [{ matcher: both, hooks: [hook('hook qwen', 3_600_000)] }],
        PreToolUse: [{ matcher: both, hooks: [hook('hook qwen', 3_600_000)] }],
        PostToolUse: [
          { matcher: 'edit|write_file|run_shell_command', hooks: [hook('hook qwen', 3_600_000)] },
        ],
        // 30000 is 30 s to Qwen: 1000 or more is milliseconds.
        UserPromptSubmit: [{ hooks: [hook('hook qwen', 30_000)] }],
        Stop: [{ hooks: [hook('hook qwen', 3_600_000)] }],
      },
    });
  });

  it('Claude Code: the PreToolUse entry says onFailure: block', () => {
    const settings = setUp('claude-code', {}).settings as { hooks: { PreToolUse: JsonObject[] } };
    expect(settings.hooks.PreToolUse[0]!.hooks).toEqual([
      { ...hook('hook claude-code', 3600), onFailure: 'block' },
    ]);
  });
});

describe('every agent alike', () => {
  /** The person's own settings and hooks, on the same events as ours and others. */
  function persons(agent: SetupAgent): JsonObject {
    const events = AGENT_HOOK_SHAPES[agent].slots.map((slot) => slot.event);
    const flat = AGENT_HOOK_SHAPES[agent].slots[0]!.tools === undefined;
    const theirs = flat
      ? { type: 'command', bash: './guard.sh' }
      : { matcher: 'Other', hooks: [{ type: 'command', command: './guard.sh' }] };
    return {
      ...(flat && { version: 1 }),
      model: 'x',
      hooks: { [events[0]!]: [theirs], Stop: [theirs] },
    };
  }

  it.each(SETUP_AGENTS)('%s: idempotent; removal gives the settings back; other hooks kept', (agent) => {
    const before = persons(agent);
    const once = setUp(agent, before);
    expect(once.unchanged).toBe(false);
    expect(before).toEqual(persons(agent));
    expect(setUp(agent, once.settings).unchanged).toBe(true);
    const removed = remove(agent, once.settings);
    expect(removed.settings).toEqual(persons(agent));
    expect(remove(agent, removed.settings).unchanged).toBe(true);
    // Nothing there before: removal leaves nothing but what the file needs (Copilot's version, which
    // may have been there before; setup deletes its own file then).
    const required = AGENT_HOOK_SHAPES[agent].required ?? {};
    expect(remove(agent, setUp(agent, {}).settings).settings).toEqual(required);
  });

  it.each(SETUP_AGENTS)('%s: a moved DiffTray updates its hooks in place, nothing added', (agent) => {
    const installed = setUp(agent, persons(agent)).settings;
    const moved = setUp(agent, installed, MOVED);
    const slots = AGENT_HOOK_SHAPES[agent].slots.length;
    expect(moved.changes).toHaveLength(slots);
    expect(moved.changes.every((line) => line.includes(`command from ${BASE}`))).toBe(true);
    const text = JSON.stringify(moved.settings);
    expect(text.split(JSON.stringify(MOVED).slice(1, -1))).toHaveLength(slots + 1);
    expect(text).not.toContain(JSON.stringify(BASE).slice(1, -1));
    expect(setUp(agent, moved.settings, MOVED).unchanged).toBe(true);
  });

  it('brings an old timeout up to date, and takes a second copy of ours out of a flat list', () => {
    const old = {
      version: 1,
      hooks: {
        preToolUse: [
          { type: 'command', bash: `${BASE} hook copilot preToolUse`, timeoutSec: 30 },
          { type: 'command', bash: './mine.sh' },
          { type: 'command', bash: `${MOVED} hook copilot preToolUse`, timeoutSec: 3600 },
        ],
      },
    };
    const result = setUp('copilot', old);
    expect(result.changes).toEqual([
      'Remove a second DiffTray preToolUse hook',
      'Change the preToolUse hook timeout from 30 s to 3600 s',
      `Add a postToolUse hook: ${BASE} hook copilot postToolUse (timeout 3600 s)`,
      `Add a userPromptSubmitted hook: ${BASE} hook copilot userPromptSubmitted (timeout 30 s)`,
      `Add a agentStop hook: ${BASE} hook copilot agentStop (timeout 3600 s)`,
    ]);
    expect((result.settings.hooks as JsonObject).preToolUse).toEqual([
      { type: 'command', bash: `${BASE} hook copilot preToolUse`, timeoutSec: 3600 },
      { type: 'command', bash: './mine.sh' },
    ]);
  });

  it("tells one agent's hooks from another's: Codex's command is not Qwen's", () => {
    const codex = setUp('codex', {}).settings;
    const qwen = setUp('qwen', codex);
    const pre = (qwen.settings.hooks as JsonObject).PreToolUse as JsonObject[];
    expect(pre.map((group) => group.matcher)).toEqual([
      'apply_patch|Bash',
      'edit|write_file|run_shell_command',
    ]);
    expect(remove('qwen', qwen.settings).settings).toEqual(codex);
  });

  it.each(SETUP_AGENTS)('%s: removal gives back any settings as they were (property)', (agent) => {
    const events = [...AGENT_HOOK_SHAPES[agent].slots.map((slot) => slot.event), 'Stop'];
    const item = fc.record({
      matcher: fc.constantFrom('a', 'b|c'),
      hooks: fc.array(fc.record({ type: fc.constant('command'), command: fc.constantFrom('x', 'y') }), {
        minLength: 1,
        maxLength: 2,
      }),
    });
    const settings = fc.record(
      {
        model: fc.string(),
        // An empty `hooks` or event list that was there before is not restored (agents read both the same).
        hooks: fc.dictionary(fc.constantFrom(...events), fc.array(item, { minLength: 1, maxLength: 3 }), {
          minKeys: 1,
        }),
      },
      { requiredKeys: [] },
    );
    // Copilot's file needs its version: one setup adds is never taken out.
    const required = AGENT_HOOK_SHAPES[agent].required ?? {};
    fc.assert(
      fc.property(settings, (generated) => {
        const before = { ...required, ...generated };
        expect(remove(agent, setUp(agent, before).settings).settings).toEqual(before);
      }),
    );
  });
});
