/**
 * `close_diff {tab_name}`: the CLI closes its diff (the person answered in the terminal). A pending
 * open_diff of that tab ends as REJECTED with trigger `closed_via_tool`; the answer says whether there
 * was one, worded as VS Code words it.
 */
import { labelField } from '../../../../shared/field-limits';
import { copilotJson, defineCopilotTool } from './context';
import { CLOSED_VIA_TOOL } from './open-diff';

export const closeDiff = defineCopilotTool({
  name: 'close_diff',
  description:
    'Closes a diff tab by its tab name. Use this when the client rejects an edit to close the corresponding diff view.',
  inputSchema: {
    tab_name: labelField().describe(
      'The tab name of the diff to close (must match the tab_name used when opening the diff)',
    ),
  },
  async handle({ tab_name }, { session }) {
    const closed = session.agent.cancel(CLOSED_VIA_TOOL, (request) => request.tabName === tab_name);
    return copilotJson({
      success: true,
      already_closed: closed === 0,
      tab_name,
      message:
        closed === 0
          ? `No active diff found with tab name "${tab_name}" (may already be closed)`
          : `Diff "${tab_name}" closed successfully`,
    });
  },
});
