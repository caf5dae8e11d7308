/** What every Claude Code tool works with: the core and the client that called it. */
import type { ClientInfo } from '../../../../shared/app-api';
import type { AppCore } from '../../../core/app-core';
import { toolDefiner } from '../../mcp-tools';

export interface ClaudeToolContext {
  readonly core: AppCore;
  readonly client: ClientInfo;
}

export const defineClaudeTool = toolDefiner<ClaudeToolContext>();
