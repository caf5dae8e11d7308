/**
 * The turn review's two hooks, the same for every agent (docs/TURN-REVIEW.md): the person's prompt tells
 * DiffTray a turn begins (`turn_begin`, with the prompt's first line for the review's title); the end of
 * the turn (`turn_end`) puts up what the turn wrote unseen and waits for the person. When they reverted
 * something, commented or wrote a note, the answer `{"decision":"block","reason":…}` makes the agent go on
 * with it; otherwise nothing is printed and the turn ends.
 */
import { z } from 'zod';
import type { ChangeSetResult } from '../../../shared/native-protocol';
import type { TurnEndResponse } from '../../../shared/native-turns';
import { TURN_REASON_OPENING, turnBlock } from '../../../shared/hooks/turn-answer';
import type { HookAgentIdentity } from './hook-agents';
import { noDecision, type HookIo } from './hook-input';
import { connectHook } from './hook-review';

/** Characters of the prompt sent to DiffTray, which titles the review with its first line. */
const MAX_PROMPT_CHARS = 2_000;

/** The fields of a prompt or end-of-turn hook's stdin, in each agent's spelling. */
const turnInputSchema = z.looseObject({
  session_id: z.string().max(200).optional(),
  sessionId: z.string().max(200).optional(),
  cwd: z.string().max(4096).optional(),
  prompt: z.string().optional(),
  stop_hook_active: z.boolean().optional(),
  stopHookActive: z.boolean().optional(),
});

export async function runTurnHook(
  agent: HookAgentIdentity,
  step: 'prompt' | 'end',
  stdin: unknown,
  io: HookIo,
): Promise<unknown> {
  const parsed = turnInputSchema.safeParse(stdin);
  if (!parsed.success)
    return noDecision(io, agent, `unexpected hook input: ${parsed.error.issues[0]?.message}`);
  const input = parsed.data;
  if (step === 'prompt' && !isPersonsPrompt(input.prompt)) return undefined;
  const sessionId = input.session_id ?? input.sessionId;
  if (sessionId === undefined || sessionId === '') {
    return noDecision(io, agent, 'no session id in the hook input: the turn is not followed');
  }
  const client = await connectHook({ agent, sessionId, cwd: input.cwd ?? io.cwd }, io);
  try {
    if (step === 'prompt') {
      // Only its first line is shown: a long prompt is cut well below the protocol's bound.
      const prompt = input.prompt?.slice(0, MAX_PROMPT_CHARS);
      await client.request('turn_begin', prompt === undefined ? {} : { prompt });
      return undefined;
    }
    const active = input.stop_hook_active ?? input.stopHookActive;
    const ended = await client.request<TurnEndResponse>(
      'turn_end',
      active === undefined ? {} : { stop_hook_active: active },
    );
    if (ended.review_id === null) return undefined;
    const result = await client.waitForPush<ChangeSetResult>(
      'change_set_result',
      (pushed) => pushed.review_id === ended.review_id,
    );
    return turnBlock(result);
  } finally {
    client.close();
  }
}

/**
 * Whether a prompt event carries what the person typed, which begins a turn. Not so when the agent goes on
 * by itself (a new turn would forget what the person reviewed): Gemini CLI fires BeforeAgent again with
 * the reason our end-of-turn answer gave, and Qwen Code fires UserPromptSubmit with an empty prompt each
 * time it sends the model its tool results.
 */
function isPersonsPrompt(prompt: string | undefined): boolean {
  if (prompt === undefined) return true;
  return prompt.trim() !== '' && !prompt.startsWith(TURN_REASON_OPENING);
}
