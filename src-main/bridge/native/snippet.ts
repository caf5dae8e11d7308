/**
 * "Send to agent" for native clients: a selection becomes seed 003's `push_snippet` payload
 * (shared/native-protocol.ts PushSnippet), sent to the session's target. Core's lines are 0-based; the
 * snippet's are 1-based, as its label.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { languageIdOf } from '../../../shared/language-id';
import type { PushSnippet } from '../../../shared/native-protocol';
import { SelectionError, type SelectionContext } from '../../core/review/selection-context';
import { folderOf } from './context-answers';
import type { Session } from './session-state';

export function pushSnippet(selection: SelectionContext, workspaceFolders: readonly string[]): PushSnippet {
  const startLine = selection.startLine + 1;
  const endLine = selection.endLine + 1;
  const proposed = selection.side === 'proposed';
  const fileUrl = pathToFileURL(selection.path).href;
  return {
    snippet: selection.text,
    language: languageIdOf(selection.path),
    filePath: selection.path,
    startLine,
    endLine,
    side: selection.side,
    metadata: {
      unique_block_id: randomUUID(),
      content_source_id: `${fileUrl}::snippet::${startLine}-${endLine}${proposed ? '::proposed' : ''}`,
      type: 'code_snippet',
      label: `${path.basename(selection.path)} (${startLine}-${endLine}${proposed ? ', proposed' : ''})`,
      ...folderOf(selection.path, workspaceFolders),
    },
  };
}

/**
 * The lines go to the session's registered target, else to the connection holding the session now.
 * Never kept for a later hello: a snippet arriving after the agent moved on would mislead, so the
 * person is told instead.
 */
export function sendSnippet(
  session: Session,
  selection: SelectionContext,
  workspaceFolders: readonly string[],
): void {
  const target = session.target;
  const connection = target?.connection ?? session.connection;
  if (!connection) {
    throw new SelectionError(
      `${session.name} is between connections (its connection was lost); try again once it reconnects`,
    );
  }
  const payload = pushSnippet(selection, workspaceFolders);
  if (target?.tabId !== undefined) payload.targetTabId = target.tabId;
  connection.deliver({ command: 'push_snippet', payload });
}
