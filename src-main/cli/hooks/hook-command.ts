/**
 * `difftray hook <agent> [<event>]`: the one hook entry every agent's configuration runs, on every tool
 * call. The lean first step (hook-prefilter.ts) settles most calls in plain Node; only a call DiffTray
 * must review loads the full hook (`loadFull`: hook.cjs in the bundle, hook-main.ts unbundled). It always
 * exits 0: a hook that cannot decide prints nothing and the agent asks as it would without DiffTray —
 * never an `allow` DiffTray did not get from the person.
 */
import { messageOf } from '../../../shared/error-message';
import { HOOK_TABLES, type HookAgentName } from '../../../shared/hooks/hook-tables';
import { CliError } from '../errors';
import { HOOK_AGENT_IDENTITIES } from './hook-agents';
import type { HookIo } from './hook-input';
import { prefilterHook } from './hook-prefilter';
import { passThrough, readHookStdin } from './hook-stdin';

/** The full hook, loaded only when needed. */
export interface FullHook {
  runHookOn(agent: HookAgentName, event: string | undefined, stdin: unknown, io: HookIo): Promise<number>;
}

export const HOOK_AGENT_NAMES = Object.keys(HOOK_TABLES) as HookAgentName[];

export const HOOK_USAGE = `usage: difftray hook <${HOOK_AGENT_NAMES.join('|')}> [<event>] (the hook an agent runs; JSON on stdin)`;

/** Checks the words after `hook`: an agent DiffTray knows and at most an event name. */
export function hookAgentOf(words: readonly string[]): { agent: HookAgentName; event?: string } {
  const [agent, event, ...extra] = words;
  if (agent === undefined || !Object.hasOwn(HOOK_TABLES, agent) || extra.length > 0) {
    throw new CliError(HOOK_USAGE);
  }
  const known = agent as HookAgentName;
  return event === undefined ? { agent: known } : { agent: known, event };
}

export async function runHookCommand(
  words: readonly string[],
  io: HookIo,
  loadFull: () => FullHook,
): Promise<number> {
  const { agent, event } = hookAgentOf(words);
  const agentName = HOOK_AGENT_IDENTITIES[agent].clientName;
  let prefiltered;
  try {
    prefiltered = prefilterHook(agent, event, await readHookStdin(io.stdin), io.env);
  } catch (error) {
    return passThrough(io, agentName, messageOf(error));
  }
  if (prefiltered.kind === 'done') {
    return prefiltered.why === undefined ? 0 : passThrough(io, agentName, prefiltered.why);
  }
  return loadFull().runHookOn(agent, event, prefiltered.stdin, io);
}
