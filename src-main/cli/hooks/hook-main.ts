/**
 * The full hook (bundled as hook.cjs): a call the first step (hook-command.ts) passed on goes to its
 * agent's runner, and the answer is printed. It always exits 0: a hook that cannot decide (DiffTray not
 * answering, the agent paused, the file outside the workspace, an edit it cannot replay exactly) prints
 * nothing, and the agent asks the person as it would without DiffTray.
 */
import { HOOK_CODECS } from '../../../shared/hooks/codecs';
import { HOOK_TABLES, hookStep } from '../../../shared/hooks/hook-tables';
import { runClaudeCodeHook } from './claude-code-hook';
import { runCodecHook } from './codec-hook';
import { runCodexHook } from './codex-hook';
import { HOOK_AGENT_IDENTITIES, type HookAgentName } from './hook-agents';
import { passThrough, reasonOf, type HookIo } from './hook-input';
import { runTurnHook } from './turn-hook';

export async function runHookOn(
  agent: HookAgentName,
  event: string | undefined,
  stdin: unknown,
  io: HookIo,
): Promise<number> {
  const identity = HOOK_AGENT_IDENTITIES[agent];
  const step = hookStep(HOOK_TABLES[agent], stdin, event);
  try {
    const answer =
      step === 'prompt' || step === 'end'
        ? await runTurnHook(identity, step, stdin, io)
        : agent === 'claude-code'
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
