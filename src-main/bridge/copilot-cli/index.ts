/** What runtime.ts needs to serve Copilot CLI's `/ide`. */
import type { CopilotCliOptions } from './endpoint';
import { CopilotCliEndpoint } from './endpoint';

export { copilotLockDir } from './discovery';
export { CopilotCliEndpoint, type CopilotCliOptions } from './endpoint';

export function startCopilotCliEndpoint(options: CopilotCliOptions): Promise<CopilotCliEndpoint> {
  return CopilotCliEndpoint.start(options);
}
