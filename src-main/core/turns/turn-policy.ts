/**
 * Which edits of an agent are reviewed one by one, before the write, and which are let through and
 * reviewed with the turn. Claude Code says which mode the person chose (shift+tab, `permission_mode` in
 * its hook's stdin): in accept-edits or bypass mode the person asked not to be asked per edit, so those
 * edits wait for the turn review. The other agents' modes say nothing of the person's wish (their
 * non-interactive modes offer edit tools only when edits are auto-approved): each edit, by default.
 */
import type { Integration } from '../../../shared/native-protocol';

/** Claude Code's permission modes in which its own flow writes edits without asking. */
const CLAUDE_UNASKED_MODES: ReadonlySet<string> = new Set(['acceptEdits', 'bypassPermissions']);

export function reviewsEachEdit(
  integration: Integration | undefined,
  permissionMode: string | undefined,
): boolean {
  if (integration === 'claude-code-hooks') {
    return permissionMode === undefined || !CLAUDE_UNASKED_MODES.has(permissionMode);
  }
  return true;
}
