/**
 * `openDiff {filePath, newContent}`: returns at once with empty content; the person's decision reaches
 * the CLI later as a notification (open-diffs.ts).
 */
import { fileTextField, pathField } from '../../../../shared/field-limits';
import type { DiskSnapshot } from '../../../core/disk/disk-snapshot';
import { readProposalBase } from '../../../core/review/proposal-base';
import { resolveInsideWorkspace } from '../../../core/workspace/workspace-paths';
import { displayPath } from '../../display-path';
import { toolError } from '../../mcp-tools';
import { defineGeminiTool } from './context';
import { messageOf } from '../../../../shared/error-message';

export const openDiff = defineGeminiTool({
  name: 'openDiff',
  description:
    '(IDE Tool) Open a diff view to create or modify a file. Returns a notification once the diff has been accepted or rejected.',
  inputSchema: {
    filePath: pathField().describe('The absolute path to the file to be diffed.'),
    newContent: fileTextField().describe('The proposed new content for the file.'),
  },
  async handle({ filePath, newContent }, { session, diffs }) {
    const { agent } = session;
    let realPath: string;
    let base: DiskSnapshot;
    try {
      realPath = resolveInsideWorkspace(filePath, agent.workspaceFolders);
      base = await readProposalBase(realPath, agent.workspaceFolders);
    } catch (error) {
      return toolError(messageOf(error));
    }
    const { id, outcome } = agent.propose({
      title: displayPath(realPath, agent.workspaceFolders),
      // A second openDiff for the same file supersedes the first, as a new diff replaces the old one.
      tabName: realPath,
      files: [{ path: realPath, base, proposedText: newContent }],
    });
    diffs.track(realPath, { reviewId: id, clientPath: filePath }, outcome);
    return { content: [] };
  },
});
