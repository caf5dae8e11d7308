/**
 * `closeDiff {filePath, suppressNotification?}`: the person answered in the terminal. Closes the review
 * and returns text JSON `{"content": <the proposed text as edited so far> | null}`, announcing
 * `ide/diffClosed` unless told not to.
 */
import path from 'node:path';
import { z } from 'zod';
import { pathField } from '../../../../shared/field-limits';
import { resolveRealPath } from '../../../core/workspace/workspace-paths';
import { textResult } from '../../mcp-tools';
import { defineGeminiTool } from './context';
import { DIFF_CLOSED } from './notifications';

export const CLOSED_BY_CLIENT = 'closed by the client';

export const closeDiff = defineGeminiTool({
  name: 'closeDiff',
  description: '(IDE Tool) Close an open diff view for a specific file.',
  inputSchema: {
    filePath: pathField().describe('The absolute path to the file to be diffed.'),
    suppressNotification: z.boolean().optional(),
  },
  async handle({ filePath, suppressNotification }, { session, diffs }) {
    const realPath = path.isAbsolute(filePath) ? resolveRealPath(filePath) : undefined;
    const entry = realPath === undefined ? undefined : diffs.get(realPath);
    let content: string | null = null;
    const pending = entry && session.agent.pendingContents(entry.reviewId);
    if (pending) {
      const proposed = pending[0]?.proposedText ?? '';
      content = proposed;
      session.agent.cancel(CLOSED_BY_CLIENT, (request) => request.tabName === realPath);
      if (!suppressNotification) session.notify(DIFF_CLOSED, { filePath, content: proposed });
    }
    return textResult(JSON.stringify({ content }));
  },
});
