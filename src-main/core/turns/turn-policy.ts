/**
 * Which edits of an agent are reviewed one by one, before the write, and which are let through and
 * reviewed with the turn (shared/turn-settings.ts). 'mode' follows Claude Code's `permission_mode`: in
 * accept-edits or bypass mode the person asked not to be asked per edit, so those edits wait for the
 * turn. With the turn review off, every edit is reviewed before it is written: nothing goes unseen.
 */
import type { AgentTurnSettings } from '../../../shared/turn-settings';

/** Claude Code's permission modes in which its own flow writes edits without asking. */
const UNASKED_MODES: ReadonlySet<string> = new Set(['acceptEdits', 'bypassPermissions']);

export function reviewsEachEdit(settings: AgentTurnSettings, permissionMode: string | undefined): boolean {
  if (settings.review === 'off' || settings.edits === 'each') return true;
  if (settings.edits === 'turn') return false;
  return permissionMode === undefined || !UNASKED_MODES.has(permissionMode);
}
