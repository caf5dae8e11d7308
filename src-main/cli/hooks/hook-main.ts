/**
 * `difftray hook <agent> [<event>]`: the one hook entry every agent's hook configuration runs. It reads
 * the JSON on stdin, hands it to that agent's runner, and prints the answer. It always exits 0: a hook
 * that cannot decide (DiffTray not running, the agent paused, the file outside the workspace, an edit it
 * cannot replay exactly) prints nothing, and the agent asks the person as it would without DiffTray —
 * never an `allow` DiffTray did not get from the person.
 */
import { HOOK_CODECS } from '../../../shared/hooks/codecs';
import { CliError } from '../errors';
import { runClaudeCodeHook } from './claude-code-hook';
import { runCodecHook } from './codec-hook';
import { runCodexHook } from './codex-hook';
import { HOOK_AGENT_IDENTITIES, HOOK_AGENT_NAMES, isHookAgentName, type HookAgentName } from './hook-agents';
import { passThrough, readHookInput, reasonOf, type HookIo } from './hook-input';

export const HOOK_USAGE = `usage: difftray hook <${HOOK_AGENT_NAMES.join('|')}> [<event>] (the hook an agent runs; JSON on stdin)`;

/** Checks the words after `hook`: an agent DiffTray knows and at most an event name. */
export function hookAgentOf(words: readonly string[]): { agent: HookAgentName; event?: string } {
  const [agent, event, ...extra] = words;
  if (agent === undefined || !isHookAgentName(agent) || extra.length > 0) throw new CliError(HOOK_USAGE);
  return event === undefined ? { agent } : { agent, event };
}

export async function runHook(agent: HookAgentName, event: string | undefined, io: HookIo): Promise<number> {
  const identity = HOOK_AGENT_IDENTITIES[agent];
  try {
    const stdin = await readHookInput(io.stdin);
    const answer =
      agent === 'claude-code'
        ? await runClaudeCodeHook(identity, stdin, io)
        : agent === 'codex'
          ? await runCodexHook(identity, stdin, io)
          : await runCodecHook(HOOK_CODECS[agent], identity, event, stdin, io);
    if (answer !== undefined) io.out(JSON.stringify(answer));
    return 0;
  } catch (error) {
    return passThrough(io, identity.clientName, reasonOf(error));
  }
}
