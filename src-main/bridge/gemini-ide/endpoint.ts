/**
 * Gemini CLI and Qwen Code on the loopback server: MCP over Streamable HTTP at /mcp. The bearer token
 * says which of the two a request comes from; the discovery file (Gemini) or lock file (Qwen) says
 * where the server is.
 */
import type http from 'node:http';
import type { ClientPort } from '../../core/clients/agent-session';
import { generateToken, singleHeader, tokensEqual } from '../../loopback/auth';
import type { AdmittedRequest, EndpointRefusal, LoopbackEndpoint } from '../../loopback/loopback-server';
import type { Log } from '../../loopback/socket-guard';
import type { OwnedLockFile } from '../lock-files';
import { McpHttpEndpoint } from '../mcp-http-endpoint';
import {
  geminiDiscoveryContent,
  qwenLockContent,
  writeGeminiDiscoveryFile,
  writeQwenLockFile,
  type DiscoveryDetails,
} from './discovery';
import { GEMINI_FLAVOR, type GeminiEndpoint } from './session';
import { messageOf } from '../../../shared/error-message';

export const MCP_PATH = '/mcp';

export interface GeminiIdeOptions {
  port: ClientPort;
  endpoints: GeminiEndpoint[];
  log: Log;
  /** How long a session may be without its event stream before it counts as gone. */
  streamGraceMs?: number;
}

export class GeminiIdeLoopback implements LoopbackEndpoint {
  readonly tokens = new Map<GeminiEndpoint, string>();
  /** Each file written, with what it says (kept to rewrite it when the workspace folders change). */
  private readonly written: Array<{
    file: OwnedLockFile;
    content: (details: DiscoveryDetails) => unknown;
    details: Omit<DiscoveryDetails, 'workspaceFolders'>;
  }> = [];
  private stopFollowing: (() => void) | undefined;
  readonly requests = { path: MCP_PATH, admit: (request: http.IncomingMessage) => this.admit(request) };
  private readonly mcp: McpHttpEndpoint;

  constructor(private readonly options: GeminiIdeOptions) {
    for (const endpoint of options.endpoints) this.tokens.set(endpoint, generateToken());
    this.mcp = new McpHttpEndpoint({
      port: options.port,
      flavor: GEMINI_FLAVOR,
      log: options.log,
      ...(options.streamGraceMs !== undefined && { streamGraceMs: options.streamGraceMs }),
    });
  }

  /**
   * Both files live in folders other programs share (the temp folder, ~/.qwen), so a failure to write
   * one is logged and the server runs on.
   */
  async open(port: number): Promise<void> {
    const { port: clients, log } = this.options;
    for (const [endpoint, authToken] of this.tokens) {
      const details = { port, authToken, workspaceFolders: clients.workspaceFolders };
      const gemini = endpoint.discovery === 'gemini';
      try {
        this.written.push({
          file: gemini
            ? writeGeminiDiscoveryFile(endpoint.dir, details)
            : writeQwenLockFile(endpoint.dir, details),
          content: gemini ? geminiDiscoveryContent : qwenLockContent,
          details: { port, authToken },
        });
      } catch (error) {
        log(`bridge: no discovery file for ${endpoint.displayName}: ${messageOf(error)}`);
      }
    }
    this.stopFollowing = clients.onWorkspaceFolders((workspaceFolders) => {
      for (const { file, content, details } of this.written) {
        try {
          file.rewrite(content({ ...details, workspaceFolders }));
        } catch (error) {
          log(`bridge: ${file.file} not updated: ${messageOf(error)}`);
        }
      }
    });
    await Promise.all(this.discoveryFiles.map((file) => file.staleRemoved));
  }

  /** The discovery files written. */
  get discoveryFiles(): OwnedLockFile[] {
    return this.written.map(({ file }) => file);
  }

  async close(): Promise<void> {
    this.stopFollowing?.();
    for (const file of this.discoveryFiles) file.remove();
    await this.mcp.close();
  }

  /**
   * `Authorization: Bearer <token>`: the token says which endpoint (Gemini CLI or Qwen Code). Every
   * token is compared, in constant time, whichever matches.
   */
  private admit(request: http.IncomingMessage): EndpointRefusal | AdmittedRequest {
    const match = /^Bearer +(\S+) *$/i.exec(singleHeader(request.headers.authorization) ?? '');
    if (!match) return { status: 401, reason: 'Missing auth token' };
    let admitted: GeminiEndpoint | undefined;
    for (const [endpoint, token] of this.tokens) {
      if (tokensEqual(match[1], token)) admitted ??= endpoint;
    }
    if (!admitted) return { status: 401, reason: 'Invalid auth token' };
    const endpoint = admitted;
    return { serve: (req, response) => void this.mcp.handle(req, response, endpoint) };
  }
}
