/**
 * The turn review's requests in the native protocol (docs/protocols/native.md, "Turns"), sent by
 * `difftray hook <agent>` as the agent's turn goes on: the person's prompt begins a turn, each file the
 * turn is about to write is named before the write, and the end of the turn asks for its review. A turn
 * belongs to the hello's `agent_session_id`; without one there is no turn.
 */
import { z } from 'zod';
import { labelField, noteField, pathField } from './field-limits';

/** Paths named by one `turn_touch`: a patch names a few files, a whole turn more than this is odd. */
export const TURN_TOUCH_MAX_PATHS = 100;

export const turnRequestSchemas = {
  /** The person's prompt begins a turn; what the last turn followed is let go. */
  turn_begin: z.object({ prompt: noteField().optional() }),
  /**
   * The agent is about to write `paths` (absolute, or relative to the hello's workspace): DiffTray reads
   * each one it does not follow yet, as it is before the turn writes it. `permission_mode` is the agent's
   * (Claude Code's `permission_mode`), which decides with the settings whether this edit is reviewed now.
   */
  turn_touch: z.object({
    paths: z.array(pathField().min(1)).min(1).max(TURN_TOUCH_MAX_PATHS),
    permission_mode: labelField().optional(),
  }),
  /**
   * The agent's turn ended. What it wrote that the person has not seen goes up as one review; the answer
   * names it, and its `change_set_result` is pushed when the person decides.
   */
  turn_end: z.object({ stop_hook_active: z.boolean().optional() }),
} as const;

export interface TurnTouchResponse {
  /** Review this edit now (true), or let it be written and review it with the turn (false). */
  each_edit: boolean;
}

export interface TurnEndResponse {
  /** The turn review's id; null when there is nothing to review (the turn ends as it is). */
  review_id: string | null;
  /** How many files are in the review. */
  files: number;
}
