/**
 * The tools that describe the IDE: `get_vscode_info` (the CLI matches that exact name, whatever the
 * IDE), `get_selection` and `get_diagnostics`. DiffTray has no editor and no language service: no
 * selection (`null`, which VS Code answers with no editor open) and no diagnostics (`[]`).
 */
import { randomUUID } from 'node:crypto';
import { DIFFTRAY_VERSION } from '../../../../shared/version';
import { labelField, pathField } from '../../../../shared/field-limits';
import { SESSION_SEPARATOR } from '../../../core/review/auto-apply';
import { DIFFTRAY_IDE_NAME } from '../../lock-files';
import { copilotJson, defineCopilotTool } from './context';

/** The client's name in Connections and the queue, before and beside its session name. */
export const COPILOT_CLI_NAME = 'Copilot CLI';

/** One per run, as VS Code's `sessionId` is one per window. */
const IDE_SESSION_ID = randomUUID();

export const getVscodeInfo = defineCopilotTool({
  name: 'get_vscode_info',
  description: 'Get information about the current IDE instance',
  async handle() {
    return copilotJson({
      version: DIFFTRAY_VERSION,
      appName: DIFFTRAY_IDE_NAME,
      appRoot: __dirname,
      language: 'en',
      // Not a machine fingerprint: nothing here identifies the machine beyond this run.
      machineId: IDE_SESSION_ID,
      sessionId: IDE_SESSION_ID,
      uriScheme: 'difftray',
      shell: process.env.SHELL ?? process.env.ComSpec ?? '',
    });
  },
});

export const getSelection = defineCopilotTool({
  name: 'get_selection',
  description: 'Get text selection. DiffTray has no editor: the answer is null (no file open in an editor).',
  async handle() {
    return copilotJson(null);
  },
});

export const getDiagnostics = defineCopilotTool({
  name: 'get_diagnostics',
  description: 'Gets language diagnostics (errors, warnings, hints) from the IDE: DiffTray has none.',
  inputSchema: {
    uri: pathField()
      .optional()
      .describe(
        'File URI to get diagnostics for. Optional. If not provided, returns diagnostics for all files.',
      ),
  },
  async handle() {
    // VS Code with no diagnostics answers the text `[]` (capture vscode-0.41, seq 34). Having none ever,
    // DiffTray never pushes `diagnostics_changed` either.
    return copilotJson([]);
  },
});

export const updateSessionName = defineCopilotTool({
  name: 'update_session_name',
  description: 'Update the display name for the current CLI session',
  inputSchema: { name: labelField().describe('The new session name') },
  async handle({ name }, { session }) {
    const trimmed = name.trim();
    // Shown where the client is listed (Connections, the queue): "Copilot CLI · fix the parser".
    session.agent.describe({
      name: trimmed ? `${COPILOT_CLI_NAME}${SESSION_SEPARATOR}${trimmed}` : COPILOT_CLI_NAME,
    });
    return copilotJson({ success: true });
  },
});
