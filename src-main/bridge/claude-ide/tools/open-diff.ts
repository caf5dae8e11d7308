/**
 * `openDiff`: blocks until the person decides. The CLI writes the file itself, with exactly the text
 * answered after FILE_SAVED; DIFF_REJECTED (with the tab name) when nothing changed or it was refused.
 */
import { fileTextField, labelField, pathField } from '../../../../shared/field-limits';
import type { DiskSnapshot } from '../../../core/disk/disk-snapshot';
import { readProposalBase } from '../../../core/review/proposal-base';
import { resolveInsideWorkspace } from '../../../core/workspace/workspace-paths';
import { displayPath } from '../../display-path';
import { tabLabel } from '../../tab-label';
import { textResult, toolError } from '../../mcp-tools';
import { defineClaudeTool } from './context';
import { messageOf } from '../../../../shared/error-message';

export const FILE_SAVED = 'FILE_SAVED';
export const DIFF_REJECTED = 'DIFF_REJECTED';

export const openDiff = defineClaudeTool({
  name: 'openDiff',
  description: 'Open a diff view comparing old file content with new file content',
  inputSchema: {
    old_file_path: pathField().describe('Path to the old file to compare'),
    new_file_path: pathField().describe('Path to the new file to compare'),
    new_file_contents: fileTextField().describe('Contents for the new file version'),
    tab_name: labelField().describe('Name for the diff tab/view'),
  },
  async handle(args, session) {
    let filePath: string;
    let base: DiskSnapshot;
    try {
      // The base is read from the path that was checked, never from the one given: the kernel would
      // climb a `..` from a symlink's target (`<ws>/link-to-home/../.ssh/id_rsa`), the check did not.
      const oldPath = resolveInsideWorkspace(args.old_file_path, session.workspaceFolders);
      // Claude Code names the same file twice: one walk of the path checks both.
      filePath =
        args.new_file_path === args.old_file_path
          ? oldPath
          : resolveInsideWorkspace(args.new_file_path, session.workspaceFolders);
      base = await readProposalBase(oldPath, session.workspaceFolders);
    } catch (error) {
      return toolError(messageOf(error));
    }
    const { outcome } = session.propose({
      title: displayPath(filePath, session.workspaceFolders),
      description: tabLabel(args.tab_name),
      tabName: args.tab_name,
      files: [{ path: filePath, base, proposedText: args.new_file_contents }],
    });
    const result = await outcome;
    // The CLI writes the file itself, with exactly the text we return; unchanged text means "rejected".
    if (result.kind === 'accepted') {
      const file = result.files[0];
      if (file?.changed) return textResult(FILE_SAVED, file.finalText);
    }
    return textResult(DIFF_REJECTED, args.tab_name);
  },
});
