/**
 * Copilot CLI's `/ide` way in: HTTP/1.1 on a Unix domain socket (MCP Streamable HTTP at `/mcp`), named
 * by the lock file `<copilot home>/ide/<uuid>.lock` with the nonce every request must carry as
 * `Authorization: Nonce <nonce>`.
 *
 * The socket lives in a folder of DiffTray's own, made 0700 by mkdtemp, so no other user can even
 * reach it; the nonce keeps out this user's other programs that do not read the lock file. Bodies,
 * sessions and the SSE answers are the shared MCP endpoint's (bridge/mcp-http-endpoint.ts), with
 * Copilot's flavor.
 */
import { rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { clientPort } from '../../core/clients/agent-session';
import type { AppCore } from '../../core/app-core';
import { generateToken, singleHeader, tokensEqual } from '../../loopback/auth';
import { AUTH_DEADLINE_MS } from '../../loopback/frame-limits';
import type { Log } from '../../loopback/socket-guard';
import type { OwnedLockFile } from '../lock-files';
import { McpHttpEndpoint } from '../mcp-http-endpoint';
import { copilotLockContent, writeCopilotLockFile } from './discovery';
import { COPILOT_ENDPOINT, COPILOT_FLAVOR } from './flavor';
import { makeSocketFolder } from './socket-folder';
import { messageOf } from '../../../shared/error-message';

/** sun_path holds 104 bytes on macOS (108 on Linux), the terminating NUL included. */
export const MAX_SOCKET_PATH_BYTES = 103;

/** Connections at once: each blocking open_diff holds one. */
const MAX_CONNECTIONS = 256;

const MCP_PATHS = new Set(['/mcp', '/']);

export interface CopilotCliOptions {
  core: AppCore;
  /** Where the lock file goes: `<copilot home>/ide`. */
  lockDir: string;
  /** Where the socket's own folder is made; os.tmpdir() by default (short, as sun_path needs). */
  socketParent?: string;
  log: Log;
  streamGraceMs?: number;
}

export class CopilotCliEndpoint {
  readonly nonce = generateToken();
  private lockFile: OwnedLockFile | undefined;
  private stopFollowing: (() => void) | undefined;
  private closed = false;

  private constructor(
    private readonly server: http.Server,
    private readonly mcp: McpHttpEndpoint,
    /** The socket's own folder; none for a Windows named pipe. */
    readonly socketDir: string | undefined,
    readonly socketPath: string,
  ) {}

  static async start(options: CopilotCliOptions): Promise<CopilotCliEndpoint> {
    const { socketDir, socketPath } = makeSocketFolder(options.socketParent ?? os.tmpdir());
    if (socketDir !== undefined && Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
      rmSync(socketDir, { recursive: true, force: true });
      throw new Error(`socket path too long for a Unix socket: ${socketPath}`);
    }
    const port = clientPort(options.core);
    const mcp = new McpHttpEndpoint({
      port,
      flavor: COPILOT_FLAVOR,
      log: options.log,
      ...(options.streamGraceMs !== undefined && { streamGraceMs: options.streamGraceMs }),
    });
    const server = http.createServer({ headersTimeout: AUTH_DEADLINE_MS });
    server.maxConnections = MAX_CONNECTIONS;
    const endpoint = new CopilotCliEndpoint(server, mcp, socketDir, socketPath);
    server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) =>
      endpoint.serve(request, response),
    );
    // A client that sends garbage or goes away mid-request: drop it, never crash.
    server.on('clientError', (_error, socket) => socket.destroy());
    server.on('connection', (socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => options.log(`copilot-cli: ${error.message}`));
    try {
      endpoint.lockFile = writeCopilotLockFile(options.lockDir, {
        socketPath,
        nonce: endpoint.nonce,
        workspaceFolders: port.workspaceFolders,
      });
      const lockFile = endpoint.lockFile;
      endpoint.stopFollowing = port.onWorkspaceFolders((workspaceFolders) => {
        try {
          lockFile.rewrite(copilotLockContent({ socketPath, nonce: endpoint.nonce, workspaceFolders }));
        } catch (error) {
          options.log(`bridge: ${lockFile.file} not updated: ${messageOf(error)}`);
        }
      });
      await lockFile.staleRemoved;
    } catch (error) {
      // ~/.copilot is another program's folder: without it Copilot CLI cannot find us, DiffTray runs on.
      options.log(`bridge: no lock file for Copilot CLI: ${messageOf(error)}`);
    }
    return endpoint;
  }

  get lockFilePath(): string | undefined {
    return this.lockFile?.file;
  }

  /**
   * Removes the lock file and the socket's folder at once (synchronously: on an unplanned exit nothing
   * after the first await runs), then ends the sessions and the server.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopFollowing?.();
    this.lockFile?.remove();
    if (this.socketDir !== undefined) rmSync(this.socketDir, { recursive: true, force: true });
    await this.mcp.close();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private serve(request: http.IncomingMessage, response: http.ServerResponse): void {
    response.on('error', () => {});
    const refusal = this.refusal(request);
    if (refusal) {
      // The body of a refused request is not read: the connection ends with the answer.
      response
        .writeHead(refusal.status, { 'content-type': 'application/json', connection: 'close' })
        .end(JSON.stringify({ error: refusal.reason }));
      return;
    }
    void this.mcp.handle(request, response, COPILOT_ENDPOINT);
  }

  /** Every request carries the nonce; only /mcp (or /) is served; no browser origin is ever served. */
  private refusal(request: http.IncomingMessage): { status: number; reason: string } | undefined {
    const match = /^Nonce +(\S+) *$/i.exec(singleHeader(request.headers.authorization) ?? '');
    if (!match || !tokensEqual(match[1], this.nonce)) return { status: 401, reason: 'Unauthorized' };
    if (request.headers.origin !== undefined) return { status: 403, reason: 'Origin not allowed' };
    const pathname = (request.url ?? '').split('?')[0]!;
    if (!MCP_PATHS.has(pathname)) return { status: 404, reason: 'Not found' };
    return undefined;
  }
}
