/**
 * "Send to agent" for Claude Code and NEXUS3: the lines arrive as the IDE's selection
 * (`selection_changed`, which the CLI shows as "N lines selected" and adds to the next prompt) and then
 * as an `at_mentioned`, which the CLI types into its prompt as `@path#L<start>-<end>`.
 *
 * Lines on this wire are 0-based, as in SelectionContext: Claude Code adds one to `lineStart` and
 * `lineEnd` of `at_mentioned`, and to the selection's start line, before it shows them.
 */
import type { JSONRPCNotification } from '@modelcontextprotocol/sdk/types.js';
import type { SelectionContext } from '../../core/review/selection-context';
import { selectionChangedNotification } from '../selection-changed';

export const AT_MENTIONED = 'at_mentioned';

/** The two notifications, in the order an editor sends them. */
export function claudeSelectionNotifications(selection: SelectionContext): JSONRPCNotification[] {
  return [
    selectionChangedNotification(selection),
    {
      jsonrpc: '2.0',
      method: AT_MENTIONED,
      params: { filePath: selection.path, lineStart: selection.startLine, lineEnd: selection.endLine },
    },
  ];
}
