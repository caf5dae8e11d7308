/**
 * Claude Code and NEXUS3 on the loopback server: WebSocket upgrades with the `mcp` subprotocol, routed
 * to a protocol by the auth header they carry (each header's token compared in constant time), and
 * one `<port>.lock` file per protocol where that CLI looks for IDEs.
 */
import type http from 'node:http';
import path from 'node:path';
import type WebSocket from 'ws';
import type { ClientProtocol } from '../../../shared/app-api';
import type { AppCore } from '../../core/app-core';
import { generateToken, singleHeader, tokensEqual } from '../../loopback/auth';
import { terminateSockets } from '../../loopback/close-sockets';
import { MAX_FRAME_BYTES } from '../../loopback/frame-limits';
import type { AdmittedUpgrade, EndpointRefusal, LoopbackEndpoint } from '../../loopback/loopback-server';
import { createSocketServer, type Log } from '../../loopback/socket-guard';
import { OwnedLockFile } from '../lock-files';
import { serveClaudeConnection } from './connection';

/** One way in over WebSocket: a protocol, the header that carries its token, and where its lock file goes. */
export interface WsEndpoint {
  transport?: 'ws';
  protocol: ClientProtocol;
  displayName: string;
  authHeader: string;
  lockDir: string;
  /**
   * More folders that get the same lock file (Claude Code forks that read their own folder, the
   * user's extraLockFolders). Unlike lockDir's, a failure to write one is logged, not fatal.
   */
  extraLockDirs?: readonly ExtraLockDir[];
}

export interface ExtraLockDir {
  dir: string;
  /** A folder the user named: created 0700 when missing, its mode left alone when it exists. */
  keepExistingFolderMode?: boolean;
}

export interface ClaudeIdeOptions {
  core: AppCore;
  endpoints: WsEndpoint[];
  /** Written into lock files as `ideName`. */
  ideName: string;
  log: Log;
}

export class ClaudeIdeLoopback implements LoopbackEndpoint {
  readonly tokens = new Map<WsEndpoint, string>();
  readonly lockFiles: OwnedLockFile[] = [];
  // The token comes in the upgrade's header: every socket here has proved it, so the full limit applies.
  private readonly sockets = createSocketServer(MAX_FRAME_BYTES, (protocols) =>
    protocols.has('mcp') ? 'mcp' : false,
  );

  constructor(private readonly options: ClaudeIdeOptions) {
    for (const endpoint of options.endpoints) this.tokens.set(endpoint, generateToken());
  }

  async open(port: number): Promise<void> {
    for (const [endpoint, authToken] of this.tokens) {
      const content = {
        pid: process.pid,
        workspaceFolders: this.options.core.workspaceFolders,
        ideName: this.options.ideName,
        transport: 'ws',
        authToken,
        runningInWindows: process.platform === 'win32',
      };
      this.lockFiles.push(new OwnedLockFile(`${endpoint.lockDir}/${port}.lock`, content));
      for (const extra of endpoint.extraLockDirs ?? []) {
        try {
          this.lockFiles.push(
            new OwnedLockFile(path.join(extra.dir, `${port}.lock`), content, {
              keepExistingFolderMode: extra.keepExistingFolderMode ?? false,
            }),
          );
        } catch (error) {
          this.options.log(`bridge: no lock file in ${extra.dir}: ${(error as Error).message}`);
        }
      }
    }
    // Stale lock files of crashed instances are gone once this resolves (lock-files.ts says which).
    await Promise.all(this.lockFiles.map((lock) => lock.staleRemoved));
  }

  admitUpgrade(request: http.IncomingMessage): EndpointRefusal | AdmittedUpgrade {
    const protocols = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    if (!protocols.includes('mcp')) return { status: 400, reason: 'Subprotocol mcp required' };
    for (const [endpoint, token] of this.tokens) {
      const given = singleHeader(request.headers[endpoint.authHeader]);
      if (given === undefined) continue;
      if (!tokensEqual(given, token)) return { status: 401, reason: 'Invalid auth token' };
      return { sockets: this.sockets, label: endpoint.displayName, serve: (ws) => this.serve(ws, endpoint) };
    }
    return { status: 401, reason: 'Missing auth token' };
  }

  async close(): Promise<void> {
    for (const lock of this.lockFiles) lock.remove();
    terminateSockets(this.sockets);
  }

  private serve(ws: WebSocket, endpoint: WsEndpoint): void {
    serveClaudeConnection(ws, this.options.core, endpoint.protocol, endpoint.displayName).catch((error) => {
      this.options.log(`bridge: connection failed: ${(error as Error).message}`);
      ws.terminate();
    });
  }
}
