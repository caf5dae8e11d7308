/**
 * Fuzz driver for Copilot CLI's `/ide`: the Gemini driver's MCP Streamable HTTP, spoken over the Unix
 * socket named in `~/.copilot/ide/<uuid>.lock`, with `Authorization: Nonce <nonce>` and the protocol
 * version the CLI sends.
 */
import { GeminiDriver, type HttpTarget } from './gemini';

export class CopilotDriver extends GeminiDriver {
  protected override target(): HttpTarget {
    const { socketPath, token } = this.options.endpoints.copilot;
    return {
      connect: { socketPath },
      host: 'localhost',
      authorization: `Nonce ${token}`,
      protocolVersion: '2025-11-25',
      diffTool: 'open_diff',
    };
  }
}
