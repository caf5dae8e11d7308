/**
 * What is set up for each agent, read from real files in a temp home; for Codex, its trust record as
 * Codex 0.171.0 wrote it (the PreToolUse hash below was recorded by the real binary, `/hooks` then `t`;
 * all three are what its app server's `hooks/list` reports as each hook's `currentHash`).
 */
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SETUP_AGENTS, type SetupAgent } from '../../../shared/hook-setup/agent-hooks';
import {
  agentHookFile,
  applyAgentHooks,
  type AgentHooksContext,
} from '../../../src-main/core/setup/agent-setup';
import { codexHookKey, codexTrustHash, readCodexHookStates } from '../../../src-main/core/setup/codex-trust';
import { agentHookStatus } from '../../../src-main/core/setup/hook-status';
import { makeTempDir } from '../../support/temp';

const BASE = '"/usr/bin/node" "/opt/difftray/cli.cjs"';
/** Recorded by Codex 0.171.0 for `${BASE} hook codex`, matcher apply_patch|Bash, timeout 3600. */
const RECORDED_HASH = 'sha256:ce5c686c0ad3eb86963368827ec3c55582d5e239b58b5da2ab13fa8e81c21b96';
/** The turn review's hooks, in groups without a matcher: UserPromptSubmit (timeout 30) and Stop (3600). */
const PROMPT_HASH = 'sha256:3fb618d49cb16f0bf1df39e59903d72de80891b8840c20de5d8c1a139fb7622c';
const STOP_HASH = 'sha256:af6fae9079a7dfa12bb35c30dc4d776fcc72a412d4f61fb1b0bba4562ef4f31b';

let root: string;
let cleanup: () => void;
let context: AgentHooksContext;

beforeEach(() => {
  const temp = makeTempDir('hook-status');
  root = realpathSync(temp.dir);
  cleanup = temp.cleanup;
  context = {
    env: { CODEX_HOME: path.join(root, 'codex') },
    home: path.join(root, 'home'),
    command: (words) => `${BASE} ${words.join(' ')}`,
  };
});
afterEach(() => cleanup());

const moved: AgentHooksContext['command'] = (words) => `"/new/node" "/new/cli.cjs" ${words.join(' ')}`;

/** config.toml as Codex writes it once the person trusted the PreToolUse hook in `/hooks`. */
function codexConfig(hash: string, extra = ''): string {
  const hooksFile = path.join(root, 'codex', 'hooks.json');
  return (
    'model = "gpt-5.5"\n\n[tui]\nscreen_reader_detection_done = true\n\n[hooks.state]\n\n' +
    `[hooks.state."${hooksFile}:pre_tool_use:0:0"]\ntrusted_hash = "${hash}"\n${extra}`
  );
}

/** The records of the turn review's two hooks, trusted as they are (`extra` in the Stop hook's table). */
function turnHooksTrusted(extra = ''): string {
  const hooksFile = path.join(root, 'codex', 'hooks.json');
  return (
    `\n[hooks.state."${hooksFile}:user_prompt_submit:0:0"]\ntrusted_hash = "${PROMPT_HASH}"\n` +
    `\n[hooks.state."${hooksFile}:stop:0:0"]\ntrusted_hash = "${STOP_HASH}"\n${extra}`
  );
}

function writeCodexConfig(text: string): void {
  mkdirSync(path.join(root, 'codex'), { recursive: true });
  writeFileSync(path.join(root, 'codex', 'config.toml'), text);
}

describe("Codex's trust record", () => {
  it('hashes our hook as Codex 0.171.0 does', () => {
    const group = {
      matcher: 'apply_patch|Bash',
      hooks: [{ type: 'command', command: `${BASE} hook codex`, timeout: 3600 }],
    };
    expect(codexTrustHash('PreToolUse', group, group.hooks[0])).toBe(RECORDED_HASH);
    // Another command, another hash: Codex asks again.
    expect(codexTrustHash('PreToolUse', group, { ...group.hooks[0], command: 'x hook codex' })).not.toBe(
      RECORDED_HASH,
    );
    // Groups without a matcher: no matcher in what is hashed.
    const hook = (timeout: number) => ({ type: 'command', command: `${BASE} hook codex`, timeout });
    expect(codexTrustHash('UserPromptSubmit', { hooks: [hook(30)] }, hook(30))).toBe(PROMPT_HASH);
    expect(codexTrustHash('Stop', { hooks: [hook(3600)] }, hook(3600))).toBe(STOP_HASH);
  });

  it('reads the tables Codex writes, quoted keys and all, and nothing else', () => {
    const states = readCodexHookStates(
      codexConfig(RECORDED_HASH, 'enabled = false\n') +
        '\n[hooks.state.\'/lit/hooks.json:stop:1:0\']\ntrusted_hash = "sha256:ab"\n' +
        '\n[other]\ntrusted_hash = "sha256:not-ours"\n',
    );
    const key = codexHookKey(path.join(root, 'codex', 'hooks.json'), 'PreToolUse', 0, 0);
    expect(key.endsWith('/codex/hooks.json:pre_tool_use:0:0')).toBe(true);
    expect(states.get(key)).toEqual({ trustedHash: RECORDED_HASH, enabled: false });
    expect(states.get('/lit/hooks.json:stop:1:0')).toEqual({ trustedHash: 'sha256:ab' });
    expect(states.size).toBe(2);
  });
});

describe('the status of each agent', () => {
  it.each(SETUP_AGENTS)('%s: not installed, installed, then outdated when DiffTray moved', (agent) => {
    expect(agentHookStatus(agent, context)).toBe('not-installed');
    applyAgentHooks(agent, context);
    const installed = agent === 'codex' ? 'untrusted' : 'installed';
    expect(agentHookStatus(agent, context)).toBe(installed);
    expect(agentHookStatus(agent, { ...context, command: moved })).toBe('outdated');
    applyAgentHooks(agent, context, { remove: true });
    expect(agentHookStatus(agent, context)).toBe('not-installed');
  });

  it('outdated: a timeout changed by hand, or one of several hooks missing', () => {
    applyAgentHooks('gemini', context);
    const file = agentHookFile('gemini', context.env, context.home);
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          BeforeTool: [
            {
              matcher: 'replace|write_file|run_shell_command',
              hooks: [{ type: 'command', command: `${BASE} hook gemini`, timeout: 60000 }],
            },
          ],
        },
      }),
    );
    expect(agentHookStatus('gemini', context)).toBe('outdated');
  });

  it('Codex: installed once all three hooks are trusted as they are now, untrusted after a change, disabled when one is turned off', () => {
    applyAgentHooks('codex', context);
    expect(agentHookStatus('codex', context)).toBe('untrusted');
    // The edit review's hook alone, trusted before setup added the turn review's: not enough.
    writeCodexConfig(codexConfig(RECORDED_HASH));
    expect(agentHookStatus('codex', context)).toBe('untrusted');
    writeCodexConfig(codexConfig(RECORDED_HASH) + turnHooksTrusted());
    expect(agentHookStatus('codex', context)).toBe('installed');
    writeCodexConfig(codexConfig('sha256:0000') + turnHooksTrusted());
    expect(agentHookStatus('codex', context)).toBe('untrusted');
    writeCodexConfig(codexConfig(RECORDED_HASH, 'enabled = false\n') + turnHooksTrusted());
    expect(agentHookStatus('codex', context)).toBe('disabled');
    writeCodexConfig(codexConfig(RECORDED_HASH) + turnHooksTrusted('enabled = false\n'));
    expect(agentHookStatus('codex', context)).toBe('disabled');
  });

  it('Codex: a CODEX_HOME reached through a link matches the record under the resolved path', () => {
    mkdirSync(path.join(root, 'codex'));
    symlinkSync(path.join(root, 'codex'), path.join(root, 'codex-link'));
    const linked = { ...context, env: { CODEX_HOME: path.join(root, 'codex-link') } };
    applyAgentHooks('codex', linked);
    writeCodexConfig(codexConfig(RECORDED_HASH) + turnHooksTrusted());
    expect(agentHookStatus('codex', linked)).toBe('installed');
  });

  it.runIf(process.platform !== 'win32')('reads a read-only file without complaint', () => {
    const agent: SetupAgent = 'qwen';
    applyAgentHooks(agent, context);
    chmodSync(agentHookFile(agent, context.env, context.home), 0o444);
    expect(agentHookStatus(agent, context)).toBe('installed');
    expect(agentHookStatus(agent, { ...context, command: moved })).toBe('outdated');
  });
});
