/**
 * "Send to agent" for Copilot CLI: the `selection_changed` notification VS Code pushes on the event
 * stream when the person selects text (sailro/CopilotCliIde doc/protocol.md §4 and its captures). The
 * CLI (1.0.102) shows it beside its prompt (`@notes.txt:2-3`) and puts a non-empty one, its text as
 * sent, in an `<ide_selection>` block before the person's next prompt (not a prompt queued while a turn
 * runs). Lines and characters are 0-based there, as in DiffTray's SelectionContext.
 *
 * `diagnostics_changed`, the other push, is never sent: DiffTray has no language service, and
 * `get_diagnostics` answers `[]`, as VS Code does with no diagnostics.
 */
import type { JSONRPCNotification } from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import type { SelectionContext } from '../../core/selection-context';

export const SELECTION_CHANGED = 'selection_changed';

export function selectionChanged(selection: SelectionContext): JSONRPCNotification {
  return {
    jsonrpc: '2.0',
    method: SELECTION_CHANGED,
    params: {
      text: selection.text,
      filePath: selection.path,
      fileUrl: pathToFileURL(selection.path).href,
      selection: {
        // Whole lines: from the start of the first to the end of the last.
        start: { line: selection.startLine, character: 0 },
        end: { line: selection.endLine, character: selection.endCharacter },
        // One empty line selects nothing: the CLI then attaches nothing.
        isEmpty: selection.text === '',
      },
    },
  };
}
