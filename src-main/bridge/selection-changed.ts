/**
 * The editor's `selection_changed` notification, as VS Code's extensions send it to Claude Code (and
 * NEXUS3) and to Copilot CLI alike: `{text, filePath, fileUrl, selection: {start, end, isEmpty}}`, lines
 * and characters 0-based, as in SelectionContext. DiffTray selects whole lines: from the start of the
 * first to the end of the last.
 */
import type { JSONRPCNotification } from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import type { SelectionContext } from '../core/review/selection-context';

export const SELECTION_CHANGED = 'selection_changed';

export function selectionChangedNotification(selection: SelectionContext): JSONRPCNotification {
  return {
    jsonrpc: '2.0',
    method: SELECTION_CHANGED,
    params: {
      text: selection.text,
      filePath: selection.path,
      fileUrl: pathToFileURL(selection.path).href,
      selection: {
        start: { line: selection.startLine, character: 0 },
        end: { line: selection.endLine, character: selection.endCharacter },
        // One empty line selects nothing: the CLIs then attach nothing.
        isEmpty: selection.text === '',
      },
    },
  };
}
