/**
 * What is set up for an agent, read from its own files (for Connections and `difftray setup`): DiffTray's
 * hooks installed as setup would write them now; for Codex, also trusted by the person (codex-trust.ts);
 * or outdated (setup would change them: a new path, timeout or matcher, a hook missing); or not there.
 * Reads only; a file setup would refuse (not JSON, a FIFO) throws HooksSetupError as setup does.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import {
  AGENT_HOOK_SHAPES,
  CODEX_HOOK_OFF_STEP,
  CODEX_TRUST_STEP,
  type HookStatus,
  type SetupAgent,
} from '../../../shared/hook-setup/agent-hooks';
import { endsInHookWords, updateHooks } from '../../../shared/hook-setup/hook-entries';
import { isRecord } from '../../../shared/is-record';
import { readRegularFile } from '../disk/regular-file';
import { agentHookFile, codexHome, type AgentHooksContext } from './agent-setup';
import { codexHookKey, codexTrustHash, readCodexHookStates, type CodexHookState } from './codex-trust';
import { readHookSettings } from './hook-file';

export function agentHookStatus(agent: SetupAgent, context: AgentHooksContext): HookStatus {
  const file = agentHookFile(agent, context.env, context.home);
  const settings = readHookSettings(file);
  const shape = AGENT_HOOK_SHAPES[agent];
  if (!updateHooks(settings, shape, context.command).unchanged) {
    const anyOfOurs = !updateHooks(settings, shape, context.command, { remove: true }).unchanged;
    return anyOfOurs ? 'outdated' : 'not-installed';
  }
  return agent === 'codex' ? codexTrust(file, settings, context) : 'installed';
}

/**
 * What the person still has to do in the agent, after setup, for the hook to run: only Codex asks (it
 * runs a hook once trusted as it is now); none once it will run.
 */
export function pendingAgentStep(agent: SetupAgent, context: AgentHooksContext): string | undefined {
  if (agent !== 'codex') return undefined;
  switch (agentHookStatus(agent, context)) {
    case 'installed':
      return undefined;
    case 'disabled':
      return CODEX_HOOK_OFF_STEP;
    default:
      return CODEX_TRUST_STEP;
  }
}

/**
 * Codex runs a hook only once the person trusted it as it is now, each of ours on its own (the edit
 * review, and the turn review's prompt and end-of-turn hooks): installed only when all are trusted.
 */
function codexTrust(hooksFile: string, settings: unknown, context: AgentHooksContext): HookStatus {
  const stateOf = trustStates(hooksFile, context);
  const hooks = isRecord(settings) && isRecord(settings.hooks) ? settings.hooks : {};
  const statuses = AGENT_HOOK_SHAPES.codex.slots.map((slot): HookStatus => {
    const groups = Array.isArray(hooks[slot.event]) ? (hooks[slot.event] as unknown[]) : [];
    // Up to date, so our hook is the only one of its group.
    const index = groups.findIndex(
      (group) => isRecord(group) && Array.isArray(group.hooks) && isOurs(group.hooks[0], slot.hookWords),
    );
    const group = groups[index] as { hooks: unknown[] };
    const state = stateOf((file) => codexHookKey(file, slot.event, index, 0));
    if (state?.enabled === false) return 'disabled';
    return state?.trustedHash === codexTrustHash(slot.event, group, group.hooks[0])
      ? 'installed'
      : 'untrusted';
  });
  if (statuses.includes('disabled')) return 'disabled';
  return statuses.every((status) => status === 'installed') ? 'installed' : 'untrusted';
}

function isOurs(hook: unknown, words: readonly string[]): boolean {
  return isRecord(hook) && endsInHookWords(hook.command, words);
}

/**
 * Our hooks' entries in config.toml: a lookup by key, under the path as given or as Codex may have
 * resolved it.
 */
function trustStates(
  hooksFile: string,
  context: AgentHooksContext,
): (keyFor: (file: string) => string) => CodexHookState | undefined {
  let text: string;
  try {
    text = readRegularFile(path.join(codexHome(context.env, context.home), 'config.toml'));
  } catch {
    return () => undefined;
  }
  const states = readCodexHookStates(text);
  const candidates = [hooksFile];
  try {
    candidates.push(path.join(realpathSync(path.dirname(hooksFile)), path.basename(hooksFile)));
  } catch {
    // No folder to resolve: the path as given is all there is.
  }
  return (keyFor) => {
    for (const file of candidates) {
      const state = states.get(keyFor(file));
      if (state) return state;
    }
    return undefined;
  };
}
