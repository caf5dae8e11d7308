/** The words and buttons of Connections' "Review before it writes" and of the hooks dialog. */
import { describe, expect, it } from 'vitest';
import type { AgentHookState, AgentHooksPlan } from '../../../shared/app-api';
import {
  dialogIntro,
  dialogTitle,
  errorText,
  hookActions,
  hookStatusText,
  stepText,
} from '../../../src-renderer/settings/agent-hooks-model';
import { HOOK_GUIDES } from '../../../src-renderer/settings/cli-guides';

const codex = (status: AgentHookState['status'], problem?: string): AgentHookState => ({
  agent: 'codex',
  label: 'Codex CLI',
  file: '/home/me/.codex/hooks.json',
  status,
  ...(problem !== undefined && { problem }),
});

const plan = (upToDate: boolean): AgentHooksPlan => ({
  agent: 'gemini',
  settingsPath: '/home/me/.gemini/settings.json',
  upToDate,
  changes: upToDate ? [] : ['Add a BeforeTool hook'],
  commands: [],
});

describe("an agent's hooks in Connections", () => {
  it('says each status in words, the trust step for Codex included', () => {
    expect(hookStatusText(codex('installed'))).toBe('Hooks installed');
    expect(hookStatusText(codex('untrusted'))).toBe(
      'Installed — not trusted yet: in Codex type /hooks, then t',
    );
    expect(hookStatusText(codex('disabled'))).toMatch(/turned off in Codex/);
    expect(hookStatusText(codex('outdated'))).toBe('Outdated — set up again');
    expect(hookStatusText(codex('not-installed'))).toBe('Not set up');
    expect(hookStatusText(codex('unreadable', 'hooks.json is not valid JSON'))).toBe(
      'Cannot use its file: hooks.json is not valid JSON',
    );
  });

  it('offers Set up, Update with Remove, or Remove, each naming the agent; nothing for a file it cannot use', () => {
    const offered = (status: AgentHookState['status']) =>
      hookActions(codex(status)).map(({ text, name, remove }) => [text, name, remove]);
    expect(offered('not-installed')).toEqual([['Set up', 'Set up Codex CLI hooks…', false]]);
    expect(offered('outdated')).toEqual([
      ['Update', 'Update Codex CLI hooks…', false],
      ['Remove', 'Remove Codex CLI hooks…', true],
    ]);
    for (const status of ['installed', 'untrusted', 'disabled'] as const) {
      expect(offered(status)).toEqual([['Remove', 'Remove Codex CLI hooks…', true]]);
    }
    expect(offered('unreadable')).toEqual([]);
  });
});

describe('the hooks dialog', () => {
  it('names the agent and the errand', () => {
    expect(dialogTitle({ agent: 'claude-code', remove: false })).toBe('Set up Claude Code hooks');
    expect(dialogTitle({ agent: 'qwen', remove: true })).toBe('Remove Qwen Code hooks');
    expect(dialogIntro({ agent: 'qwen', remove: true })).toMatch(/no longer asks DiffTray/);
    expect(errorText({ agent: 'copilot', remove: true }, 'read-only')).toBe(
      'Could not remove Copilot CLI hooks: read-only',
    );
  });

  it('says what applying does, that nothing is left to do, and what was done', () => {
    const setUp = { agent: 'gemini', remove: false } as const;
    const removal = { agent: 'gemini', remove: true } as const;
    expect(stepText({ kind: 'loading' }, setUp)).toBe('Reading Gemini CLI’s settings…');
    expect(stepText({ kind: 'plan', plan: plan(false) }, setUp)).toMatch(/^Applying makes these changes/);
    expect(stepText({ kind: 'plan', plan: plan(true) }, setUp)).toMatch(/already set up: nothing to change/);
    expect(stepText({ kind: 'plan', plan: plan(true) }, removal)).toMatch(
      /no DiffTray hooks: nothing to remove/,
    );
    expect(stepText({ kind: 'done', plan: plan(false) }, setUp)).toMatch(
      /^Done: Gemini CLI’s hooks are set up/,
    );
    expect(stepText({ kind: 'done', plan: plan(false) }, removal)).toMatch(
      /^Done: Gemini CLI’s hooks are removed/,
    );
  });
});

describe("the empty state's hook agents", () => {
  it('lists every agent setup knows, each with its one command from its descriptor', () => {
    expect(HOOK_GUIDES.map(({ agent, name, command }) => [agent, name, command])).toEqual([
      ['claude-code', 'Claude Code', 'difftray setup claude-code'],
      ['codex', 'Codex CLI', 'difftray setup codex'],
      ['gemini', 'Gemini CLI', 'difftray setup gemini'],
      ['copilot', 'Copilot CLI', 'difftray setup copilot'],
      ['qwen', 'Qwen Code', 'difftray setup qwen'],
    ]);
  });
});
