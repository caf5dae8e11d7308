/**
 * Settings → Turn review, as plain functions: one row per agent reviewed through its hooks, the words of
 * each choice, and the `turnReview` setting after a change (only what differs from the defaults is kept,
 * as settings.json holds it; main validates the whole).
 */
import { AGENT_LABELS } from '../../shared/hook-setup/agent-hooks';
import { HOOK_TABLES, type HookAgentName } from '../../shared/hooks/hook-tables';
import {
  defaultTurnSettings,
  EDITS_CHOICES,
  MAX_TURN_TIMEOUT_MINUTES,
  turnSettingsOf,
  type AgentTurnSettings,
  type EditsChoice,
  type TurnReviewChoice,
  type TurnReviewSettings,
} from '../../shared/turn-settings';

export interface TurnReviewRow {
  agent: HookAgentName;
  name: string;
  settings: AgentTurnSettings;
}

/** Every agent with hooks, in the order the hooks table lists them, with its settings now. */
export function turnReviewRows(settings: TurnReviewSettings): TurnReviewRow[] {
  return (Object.keys(HOOK_TABLES) as HookAgentName[]).map((agent) => ({
    agent,
    name: AGENT_LABELS[agent],
    settings: turnSettingsOf(settings, agent),
  }));
}

export const EDITS_LABELS: Record<EditsChoice, string> = {
  each: 'One by one',
  turn: 'With the whole turn',
  mode: 'As Claude Code’s mode',
};

/** The choices of "Review edits" for `agent`: following the agent's mode is Claude Code's alone. */
export function editsChoices(agent: HookAgentName): EditsChoice[] {
  return EDITS_CHOICES.filter((choice) => choice !== 'mode' || agent === 'claude-code');
}

export const TURN_REVIEW_LABELS: Record<TurnReviewChoice, string> = {
  unreviewed: 'When something was written unseen',
  always: 'Always',
  off: 'Off',
};

export const TURN_REVIEW_HELP =
  'When an agent’s turn ends, one review of what it wrote. Edits reviewed with the turn are written ' +
  'without asking and reviewed at its end; “As Claude Code’s mode” does so in its accept-edits and ' +
  'bypass modes (shift+tab). “Always” shows the whole turn, even edits you already decided. With the ' +
  'turn review off, every edit is reviewed one by one.';

export const TIMEOUT_HELP =
  'Time limit: with none, the agent waits for you; past it, the turn review ends as if you kept everything.';

/** The `turnReview` setting with `agent`'s settings changed by `change`; defaults are left out. */
export function withAgentTurnSettings(
  settings: TurnReviewSettings,
  agent: HookAgentName,
  change: Partial<AgentTurnSettings>,
): TurnReviewSettings {
  const next = { ...turnSettingsOf(settings, agent), ...change };
  const defaults = defaultTurnSettings(agent);
  const changed: Partial<AgentTurnSettings> = {};
  if (next.edits !== defaults.edits) changed.edits = next.edits;
  if (next.review !== defaults.review) changed.review = next.review;
  if (next.timeoutMinutes !== defaults.timeoutMinutes) changed.timeoutMinutes = next.timeoutMinutes;
  const { [agent]: _left, ...others } = settings;
  return Object.keys(changed).length > 0 ? { ...others, [agent]: changed } : others;
}

/** A typed time limit: empty for none, else whole minutes from 1 to a day; or why not. */
export function parseTimeout(raw: string): { minutes: number | null } | { problem: string } {
  const typed = raw.trim();
  if (typed === '') return { minutes: null };
  const minutes = Number(typed);
  if (!/^\d+$/.test(typed) || minutes < 1 || minutes > MAX_TURN_TIMEOUT_MINUTES) {
    return {
      problem: `A time limit is whole minutes, from 1 to ${MAX_TURN_TIMEOUT_MINUTES}, or empty for none.`,
    };
  }
  return { minutes };
}

const EDITS_SAID: Record<EditsChoice, string> = {
  each: 'edits reviewed one by one',
  turn: 'edits reviewed with the whole turn',
  mode: 'edits reviewed as Claude Code’s mode says',
};

const REVIEW_SAID: Record<TurnReviewChoice, string> = {
  unreviewed: 'a turn review when something was written unseen',
  always: 'a turn review after every turn that wrote something',
  off: 'no turn review, every edit reviewed one by one',
};

/** What a change did, read out: "Codex CLI: edits reviewed with the whole turn". */
export function describeTurnChange(name: string, change: Partial<AgentTurnSettings>): string {
  if (change.edits !== undefined) return `${name}: ${EDITS_SAID[change.edits]}`;
  if (change.review !== undefined) return `${name}: ${REVIEW_SAID[change.review]}`;
  const minutes = change.timeoutMinutes;
  return minutes === null || minutes === undefined
    ? `${name}: no time limit on the turn review`
    : `${name}: the turn review ends after ${minutes} minute${minutes === 1 ? '' : 's'}`;
}
