/**
 * The turn review's settings, per agent reviewed through its hooks (docs/TURN-REVIEW.md), as kept in
 * settings.json under `turnReview`: only what the person changed; the rest is the defaults here.
 * - `edits`: which edits are reviewed one by one before the write ('each'), which are let through and
 *   reviewed with the turn ('turn'); 'mode' (Claude Code only) follows the mode the person chose there
 *   with shift+tab: accept-edits and bypass modes wait for the turn.
 * - `review`: a turn review when the turn wrote something the person has not seen ('unreviewed'), whenever
 *   it wrote anything ('always', the whole turn against its start), or never ('off': then every edit is
 *   reviewed one by one, so nothing is written unseen).
 * - `timeoutMinutes`: a turn review not decided in time ends as if everything were kept; null: it waits.
 */
import { z } from 'zod';
import { HOOK_TABLES, type HookAgentName } from './hooks/hook-tables';
import type { Integration } from './native-protocol';

export const EDITS_CHOICES = ['each', 'turn', 'mode'] as const;
export type EditsChoice = (typeof EDITS_CHOICES)[number];
export const TURN_REVIEW_CHOICES = ['unreviewed', 'always', 'off'] as const;
export type TurnReviewChoice = (typeof TURN_REVIEW_CHOICES)[number];

export interface AgentTurnSettings {
  edits: EditsChoice;
  review: TurnReviewChoice;
  timeoutMinutes: number | null;
}

/** What settings.json holds: per agent, the fields the person changed. */
export type TurnReviewSettings = Partial<Record<HookAgentName, Partial<AgentTurnSettings>>>;

/** A day: longer than any agent waits for its hook anyway. */
export const MAX_TURN_TIMEOUT_MINUTES = 24 * 60;

const agentTurnSettingsSchema = z
  .object({
    edits: z.enum(EDITS_CHOICES),
    review: z.enum(TURN_REVIEW_CHOICES),
    timeoutMinutes: z.number().int().min(1).max(MAX_TURN_TIMEOUT_MINUTES).nullable(),
  })
  .strict()
  .partial();

export const turnReviewSettingsSchema = z
  .object(
    Object.fromEntries(
      (Object.keys(HOOK_TABLES) as HookAgentName[]).map((agent) => [agent, agentTurnSettingsSchema]),
    ) as Record<HookAgentName, typeof agentTurnSettingsSchema>,
  )
  .strict()
  .partial();

/** Claude Code follows its own mode; the others' modes say nothing of the person's wish: each edit. */
export function defaultTurnSettings(agent: HookAgentName): AgentTurnSettings {
  return { edits: agent === 'claude-code' ? 'mode' : 'each', review: 'unreviewed', timeoutMinutes: null };
}

export function turnSettingsOf(settings: TurnReviewSettings, agent: HookAgentName): AgentTurnSettings {
  return { ...defaultTurnSettings(agent), ...settings[agent] };
}

/** The agent whose hooks speak as `integration`. */
export const HOOK_AGENT_OF_INTEGRATION: Record<Integration, HookAgentName> = {
  'claude-code-hooks': 'claude-code',
  'codex-hooks': 'codex',
  'gemini-hooks': 'gemini',
  'copilot-hooks': 'copilot',
  'qwen-hooks': 'qwen',
};
