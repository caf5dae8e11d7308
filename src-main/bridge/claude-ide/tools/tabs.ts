/** `close_tab` and `closeAllDiffTabs`: the CLI closes diffs it no longer waits for (every user turn). */
import { labelField } from '../../../../shared/field-limits';
import { textResult } from '../../mcp-tools';
import { defineClaudeTool } from './context';

export const closeTab = defineClaudeTool({
  name: 'close_tab',
  description: 'Close a tab by name',
  inputSchema: { tab_name: labelField().describe('Name of the tab to close') },
  async handle(args, session) {
    session.cancel('closed by the client', (request) => request.tabName === args.tab_name);
    return textResult('TAB_CLOSED');
  },
});

export const closeAllDiffTabs = defineClaudeTool({
  name: 'closeAllDiffTabs',
  description: 'Close all diff tabs in the editor',
  async handle(_args, session) {
    const closed = session.cancel('closed by the client');
    return textResult(`CLOSED_${closed}_DIFF_TABS`);
  },
});
