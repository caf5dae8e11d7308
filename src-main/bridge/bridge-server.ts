/**
 * The bridge port: one loopback server (loopback-server.ts) shared by the protocols whose discovery
 * files name it. WebSocket upgrades (Claude Code, NEXUS3) are routed by the auth header they carry;
 * HTTP requests to /mcp (Gemini CLI, Qwen Code) by the bearer token they carry. A protocol that joins
 * this port is one more endpoint in the list below.
 */
import type { ClientProtocol } from '../../shared/app-api';
import { clientPort } from '../core/clients/agent-session';
import type { AppCore } from '../core/app-core';
import { LoopbackServer } from '../loopback/loopback-server';
import { ClaudeIdeLoopback } from './claude-ide/endpoint';
import { GeminiIdeLoopback } from './gemini-ide/endpoint';
import type { BridgeEndpoint, GeminiEndpoint, WsEndpoint } from './bridge-endpoint';
import { userLockDirs } from './endpoints';

export type { BridgeEndpoint, GeminiEndpoint, WsEndpoint };

export interface BridgeOptions {
  core: AppCore;
  endpoints: BridgeEndpoint[];
  /** Written into lock files as `ideName`. */
  ideName?: string;
  log?: (message: string) => void;
  /** How long a Gemini/Qwen session may be without its event stream before it counts as gone. */
  mcpStreamGraceMs?: number;
  /** The user's extraLockFolders: more folders that get Claude Code's lock file. */
  extraLockFolders?: readonly string[];
}

export class BridgeServer {
  private constructor(
    private readonly server: LoopbackServer,
    private readonly claude: ClaudeIdeLoopback,
    private readonly gemini: GeminiIdeLoopback | undefined,
    private readonly options: BridgeOptions,
  ) {}

  get port(): number {
    return this.server.port;
  }

  static async start(options: BridgeOptions): Promise<BridgeServer> {
    const port = clientPort(options.core);
    const log = options.log ?? (() => {});
    const httpEndpoints = options.endpoints.filter((e): e is GeminiEndpoint => e.transport === 'http');
    const claude = new ClaudeIdeLoopback({
      port,
      endpoints: options.endpoints.filter((e): e is WsEndpoint => e.transport !== 'http'),
      ideName: options.ideName ?? 'DiffTray',
      log,
      userLockDirs: userLockDirs(options.endpoints, options.extraLockFolders ?? [], log),
    });
    // Without a Gemini or Qwen endpoint /mcp is not served at all.
    const gemini =
      httpEndpoints.length > 0
        ? new GeminiIdeLoopback({
            port,
            endpoints: httpEndpoints,
            log,
            ...(options.mcpStreamGraceMs !== undefined && { streamGraceMs: options.mcpStreamGraceMs }),
          })
        : undefined;
    const server = await LoopbackServer.start({
      name: 'bridge',
      notFound: 'DiffTray bridge: not found\n',
      endpoints: gemini ? [claude, gemini] : [claude],
      log,
    });
    return new BridgeServer(server, claude, gemini, options);
  }

  /** The user changed extraLockFolders: Claude Code's lock file follows at once. */
  setExtraLockFolders(folders: readonly string[]): void {
    this.claude.setUserLockDirs(userLockDirs(this.options.endpoints, folders, this.options.log));
  }

  tokenFor(protocol: ClientProtocol): string {
    for (const [endpoint, token] of [...this.claude.tokens, ...(this.gemini?.tokens ?? [])]) {
      if (endpoint.protocol === protocol) return token;
    }
    throw new Error(`No endpoint for ${protocol}`);
  }

  /** Claude Code's and NEXUS3's `<port>.lock` files. */
  lockFilePaths(): string[] {
    return this.claude.lockFiles.map((lock) => lock.file);
  }

  /** Gemini CLI's discovery file and Qwen Code's lock file (where they could be written). */
  discoveryFilePaths(): string[] {
    return (this.gemini?.discoveryFiles ?? []).map((file) => file.file);
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
