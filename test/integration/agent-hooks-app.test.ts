/**
 * Every agent's hooks set up, read and removed from the app, through the app API handler the window calls
 * and the real runtime, on real files in a temp home: the plan before anything is written, the write,
 * Codex's trust read from the config.toml Codex writes (never written by DiffTray), and a broken file.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { typedCall, type AgentHookState } from '../../shared/app-api';
import { CODEX_TRUST_STEP, SETUP_AGENTS } from '../../shared/hook-setup/agent-hooks';
import { codexHookKey, codexTrustHash } from '../../src-main/core/setup/codex-trust';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

let t: TestRuntime | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function start(): Promise<{ rt: TestRuntime; call: ReturnType<typeof typedCall> }> {
  t = await startTestRuntime();
  const rt = t;
  return { rt, call: typedCall((method, params) => rt.runtime.handler(method, params)) };
}

const statusOf = (states: AgentHookState[], agent: string) =>
  states.find((state) => state.agent === agent)?.status;

/** config.toml as Codex writes it once the person trusted the hooks of `events` in `/hooks`. */
function trustInCodex(codexHome: string, events: readonly string[]): void {
  const hooksFile = path.join(codexHome, 'hooks.json');
  const written = JSON.parse(readFileSync(hooksFile, 'utf8')) as {
    hooks: Record<string, Array<{ hooks: unknown[] }>>;
  };
  const records = events.map((event) => {
    const group = written.hooks[event]![0]!;
    const key = codexHookKey(hooksFile, event, 0, 0);
    return `[hooks.state."${key}"]\ntrusted_hash = "${codexTrustHash(event, group, group.hooks[0])}"\n`;
  });
  writeFileSync(path.join(codexHome, 'config.toml'), records.join('\n'));
}

describe("agents' hooks through the app API", () => {
  it('Codex: the plan first, nothing written; then the hook, not trusted until Codex records it', async () => {
    const { rt, call } = await start();
    const codexHome = path.join(rt.home, '.codex');
    const hooksFile = path.join(codexHome, 'hooks.json');

    const before = await call('agentHooksStatus', {});
    expect(before.map(({ agent, label, status }) => [agent, label, status])).toEqual([
      ['claude-code', 'Claude Code', 'not-installed'],
      ['codex', 'Codex CLI', 'not-installed'],
      ['gemini', 'Gemini CLI', 'not-installed'],
      ['copilot', 'Copilot CLI', 'not-installed'],
      ['qwen', 'Qwen Code', 'not-installed'],
    ]);
    expect(before.find((state) => state.agent === 'codex')?.file).toBe(hooksFile);

    const plan = await call('agentHooksSetup', { agent: 'codex', apply: false });
    expect(plan).toMatchObject({ agent: 'codex', settingsPath: hooksFile, upToDate: false });
    expect(plan.changes[0]).toBe(`Create ${hooksFile}`);
    expect(plan.changes.join('\n')).toMatch(/PreToolUse.*hook codex/);
    expect(plan.changes.join('\n')).toMatch(/UserPromptSubmit hook: .*hook codex \(timeout 30 s\)/);
    expect(plan.changes.join('\n')).toMatch(/Stop hook: .*hook codex \(timeout 3600 s\)/);
    expect(plan.commands).toEqual([expect.stringMatching(/cli\.cjs" hook codex$/)]);
    expect(plan.pendingStep).toBe(CODEX_TRUST_STEP);
    expect(existsSync(codexHome)).toBe(false);

    const applied = await call('agentHooksSetup', { agent: 'codex', apply: true });
    expect(applied.changes).toEqual(plan.changes);
    expect(applied.pendingStep).toBe(CODEX_TRUST_STEP);
    expect(readFileSync(hooksFile, 'utf8')).toContain('hook codex');
    // The trust record is the person's to give, in Codex.
    expect(existsSync(path.join(codexHome, 'config.toml'))).toBe(false);
    expect(statusOf(await call('agentHooksStatus', {}), 'codex')).toBe('untrusted');

    // Each hook is trusted on its own: the edit review's alone leaves the turn review's to trust.
    trustInCodex(codexHome, ['PreToolUse']);
    expect(statusOf(await call('agentHooksStatus', {}), 'codex')).toBe('untrusted');
    expect((await call('agentHooksSetup', { agent: 'codex', apply: false })).pendingStep).toBe(
      CODEX_TRUST_STEP,
    );
    trustInCodex(codexHome, ['PreToolUse', 'UserPromptSubmit', 'Stop']);
    expect(statusOf(await call('agentHooksStatus', {}), 'codex')).toBe('installed');
    const again = await call('agentHooksSetup', { agent: 'codex', apply: false });
    expect(again.upToDate).toBe(true);
    expect(again.pendingStep).toBeUndefined();
  });

  it('Copilot: four commands, one per event; removed again, its own file goes and the backup is named', async () => {
    const { rt, call } = await start();
    const file = path.join(rt.home, '.copilot', 'hooks', 'difftray.json');
    const plan = await call('agentHooksSetup', { agent: 'copilot', apply: true });
    expect(plan.settingsPath).toBe(file);
    expect(plan.backupPath).toBeUndefined();
    expect(plan.commands).toEqual([
      expect.stringMatching(/ hook copilot preToolUse$/),
      expect.stringMatching(/ hook copilot postToolUse$/),
      expect.stringMatching(/ hook copilot userPromptSubmitted$/),
      expect.stringMatching(/ hook copilot agentStop$/),
    ]);
    expect(plan.pendingStep).toBeUndefined();
    expect(statusOf(await call('agentHooksStatus', {}), 'copilot')).toBe('installed');

    const removal = await call('agentHooksSetup', { agent: 'copilot', apply: false, remove: true });
    expect(removal.commands).toEqual([]);
    expect(removal.changes.at(-1)).toBe(`Remove ${file} (nothing else is in it)`);
    expect(existsSync(file)).toBe(true);
    const removed = await call('agentHooksSetup', { agent: 'copilot', apply: true, remove: true });
    expect(removed.backupPath).toMatch(/difftray\.json\.difftray-backup-\d{8}$/);
    expect(existsSync(file)).toBe(false);
    expect(statusOf(await call('agentHooksStatus', {}), 'copilot')).toBe('not-installed');
  });

  it('a hook file that is not JSON: its status says why, the others are still read, and setup refuses it', async () => {
    const { rt, call } = await start();
    const file = path.join(rt.home, '.gemini', 'settings.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{ "theme": ');
    const states = await call('agentHooksStatus', {});
    expect(states.map((state) => state.agent)).toEqual([...SETUP_AGENTS]);
    expect(states.find((state) => state.agent === 'gemini')).toMatchObject({
      status: 'unreadable',
      problem: expect.stringMatching(/is not valid JSON/),
    });
    await expect(call('agentHooksSetup', { agent: 'gemini', apply: true })).rejects.toThrow(
      /is not valid JSON/,
    );
    expect(readFileSync(file, 'utf8')).toBe('{ "theme": ');
  });

  it('refuses an agent it does not know', async () => {
    const { rt } = await start();
    await expect(rt.runtime.handler('agentHooksSetup', { agent: 'cursor', apply: true })).rejects.toThrow(
      /Invalid parameters for agentHooksSetup/,
    );
  });
});
