/**
 * `open_diff {original_file_path, new_file_contents, tab_name}`: blocks until the person decides, and
 * answers `{success, result: "SAVED" | "REJECTED", trigger, tab_name, message}` as VS Code does.
 *
 * After SAVED the CLI writes its own proposal, whole: VS Code shows it in a read-only
 * `copilot-cli-readonly:` buffer and returns no text (captures in sailro/CopilotCliIde), and that
 * project's Visual Studio server answers SAVED without touching the file. So DiffTray writes nothing,
 * and a review that kept only part of the proposal (or an edited one) must not be answered SAVED: the
 * renderer disables Submit for it (shared/app-api.ts protocolAppliesPartialDecisions), and should one
 * arrive anyway it is answered REJECTED with a message saying why, and History notes it.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { lstatSync } from 'node:fs';
import { fileTextField, labelField, pathField } from '../../../../shared/field-limits';
import type { QueuedProposal } from '../../../core/clients/agent-session';
import type { DiskSnapshot } from '../../../core/disk/disk-snapshot';
import { readProposalBase } from '../../../core/review/proposal-base';
import type { ReviewOutcome } from '../../../core/review/review-record';
import { resolveInsideWorkspace } from '../../../core/workspace/workspace-paths';
import { displayPath } from '../../display-path';
import { tabLabel } from '../../tab-label';
import { copilotJson, defineCopilotTool } from './context';
import { messageOf } from '../../../../shared/error-message';

/** Why a review ended when close_diff closed it: open_diff then answers trigger `closed_via_tool`. */
export const CLOSED_VIA_TOOL = 'closed by Copilot CLI (close_diff)';

export const PARTIAL_NOT_SENT =
  'Copilot CLI applies its proposal whole: the partial decision was sent back as a rejection, nothing was written';

export const MOVED_NOT_SENT =
  'The file is no longer where it was proposed (a link was swapped in or a folder moved): not answered SAVED';

export type DiffTrigger =
  'accepted_via_button' | 'rejected_via_button' | 'closed_via_tab' | 'closed_via_tool';

export interface DiffAnswer {
  success: true;
  result: 'SAVED' | 'REJECTED';
  trigger: DiffTrigger;
  tab_name: string;
  message: string;
}

export const openDiff = defineCopilotTool({
  name: 'open_diff',
  description:
    'Opens a diff view comparing original file content with new content. Blocks until user accepts, rejects, or closes the diff.',
  inputSchema: {
    original_file_path: pathField().describe('Path to the original file'),
    new_file_contents: fileTextField().describe('The new file contents to compare against'),
    tab_name: labelField().describe('Name for the diff tab'),
  },
  async handle(args, { session }) {
    const { agent } = session;
    let filePath: string;
    let base: DiskSnapshot;
    try {
      filePath = resolveInsideWorkspace(args.original_file_path, agent.workspaceFolders);
      // Read from the path that was checked, never from the one given.
      base = await readProposalBase(filePath, agent.workspaceFolders);
    } catch (error) {
      return failed(args.tab_name, messageOf(error));
    }
    let added: QueuedProposal;
    try {
      added = agent.propose({
        title: displayPath(filePath, agent.workspaceFolders),
        description: tabLabel(args.tab_name),
        // A new open_diff with the same tab name replaces the old one (answered closed_via_tool).
        tabName: args.tab_name,
        files: [{ path: filePath, base, proposedText: args.new_file_contents }],
      });
    } catch (error) {
      return failed(args.tab_name, messageOf(error));
    }
    const outcome = await added.outcome;
    const answer = diffAnswer(outcome, args.new_file_contents, args.tab_name, args.original_file_path);
    if (
      answer.result === 'SAVED' &&
      !stillConfined(args.original_file_path, filePath, agent.workspaceFolders)
    ) {
      agent.note(added.id, MOVED_NOT_SENT);
      return copilotJson({
        ...answer,
        result: 'REJECTED',
        trigger: 'rejected_via_button',
        message: MOVED_NOT_SENT,
      });
    }
    if (outcome.kind === 'accepted' && answer.result === 'REJECTED') agent.note(added.id, PARTIAL_NOT_SENT);
    return copilotJson(answer);
  },
});

/** The answer for a decided review: SAVED only when what was accepted is the proposal itself. */
export function diffAnswer(
  outcome: ReviewOutcome,
  proposedText: string,
  tabName: string,
  clientPath: string,
): DiffAnswer {
  const rejected = (trigger: DiffTrigger, why?: string): DiffAnswer => ({
    success: true,
    result: 'REJECTED',
    trigger,
    tab_name: tabName,
    message: `User rejected changes for ${clientPath}${why ? `: ${why}` : ''}`,
  });
  switch (outcome.kind) {
    case 'accepted':
      if (outcome.files[0]?.finalText !== proposedText) {
        return rejected(
          'rejected_via_button',
          'only part of the proposal was accepted, and a proposal is applied whole; propose just the wanted change',
        );
      }
      return {
        success: true,
        result: 'SAVED',
        trigger: 'accepted_via_button',
        tab_name: tabName,
        message: `User accepted changes for ${clientPath}`,
      };
    case 'rejected':
      return rejected('rejected_via_button', outcome.reason);
    case 'superseded':
      return rejected('closed_via_tool');
    case 'cancelled':
      return outcome.reason === CLOSED_VIA_TOOL
        ? rejected('closed_via_tool')
        : rejected('closed_via_tab', outcome.reason);
  }
}

/**
 * SAVED lets the CLI write the path it gave: checked again at that moment, it must still lead to the
 * same real file inside a workspace folder, and the file must not be a link.
 */
export function stillConfined(clientPath: string, realPath: string, folders: readonly string[]): boolean {
  try {
    if (resolveInsideWorkspace(clientPath, folders) !== realPath) return false;
    return !lstatSync(realPath, { throwIfNoEntry: false })?.isSymbolicLink();
  } catch {
    return false;
  }
}

function failed(tabName: string, error: string): CallToolResult {
  return { ...copilotJson({ success: false, tab_name: tabName, error }), isError: true };
}
