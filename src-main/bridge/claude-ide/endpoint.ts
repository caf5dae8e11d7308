/**
 * Claude Code and NEXUS3 on the loopback server: WebSocket upgrades with the `mcp` subprotocol, routed
 * to a protocol by the auth header they carry (each header's token compared in constant time), and
 * one `<port>.lock` file per protocol where that CLI looks for IDEs.
 */
import type http from 'node:http';
import path from 'node:path';
import type WebSocket from 'ws';
import type { ClientProtocol } from '../../../shared/app-api';
import type { ClientPort } from '../../core/clients/agent-session';
import { generateToken, singleHeader, tokensEqual } from '../../loopback/auth';
import { terminateSockets } from '../../loopback/close-sockets';
import { MAX_FRAME_BYTES } from '../../loopback/frame-limits';
import type { AdmittedUpgrade, EndpointRefusal, LoopbackEndpoint } from '../../loopback/loopback-server';
import { createSocketServer, type Log } from '../../loopback/socket-guard';
import { OwnedLockFile } from '../lock-files';
import { serveClaudeConnection } from './connection';
import { messageOf } from '../../../shared/error-message';

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

interface WrittenLock {
  lock: OwnedLockFile;
  authToken: string;
}

export interface ClaudeIdeOptions {
  port: ClientPort;
  endpoints: WsEndpoint[];
  /** Written into lock files as `ideName`. */
  ideName: string;
  log: Log;
  /** The user's extraLockFolders: more folders that get Claude Code's lock file (endpoints.ts). */
  userLockDirs?: readonly string[];
}

export class ClaudeIdeLoopback implements LoopbackEndpoint {
  readonly tokens = new Map<WsEndpoint, string>();
  /** Every lock file written, with the token it carries (rewritten when the workspace folders change). */
  private readonly written: WrittenLock[] = [];
  /** The lock files in the user's extraLockFolders, by folder: these come and go with the setting. */
  private readonly userLocks = new Map<string, WrittenLock>();
  private port: number | undefined;
  private stopFollowing: (() => void) | undefined;
  // The token comes in the upgrade's header: every socket here has proved it, so the full limit applies.
  private readonly sockets = createSocketServer(MAX_FRAME_BYTES, (protocols) =>
    protocols.has('mcp') ? 'mcp' : false,
  );

  constructor(private readonly options: ClaudeIdeOptions) {
    for (const endpoint of options.endpoints) this.tokens.set(endpoint, generateToken());
  }

  /** Every lock file, where it is now. */
  get lockFiles(): OwnedLockFile[] {
    return [...this.written, ...this.userLocks.values()].map(({ lock }) => lock);
  }

  async open(port: number): Promise<void> {
    this.port = port;
    for (const [endpoint, authToken] of this.tokens) {
      const content = this.lockContent(authToken);
      this.written.push({ lock: new OwnedLockFile(`${endpoint.lockDir}/${port}.lock`, content), authToken });
      for (const extra of endpoint.extraLockDirs ?? []) {
        const lock = this.tryLockFile(extra.dir, authToken, extra.keepExistingFolderMode ?? false);
        if (lock) this.written.push({ lock, authToken });
      }
    }
    this.setUserLockDirs(this.options.userLockDirs ?? []);
    this.stopFollowing = this.options.port.onWorkspaceFolders(() => this.rewriteLockFiles());
    // Stale lock files of crashed instances are gone once this resolves (lock-files.ts says which).
    await Promise.all(this.lockFiles.map((lock) => lock.staleRemoved));
  }

  /**
   * The user's extraLockFolders changed: Claude Code's lock file is written in each folder now named
   * and removed from each no longer named.
   */
  setUserLockDirs(dirs: readonly string[]): void {
    const token = this.claudeToken();
    if (this.port === undefined || token === undefined) return;
    const wanted = new Set(dirs.map((dir) => path.resolve(dir)));
    for (const [dir, { lock }] of this.userLocks) {
      if (wanted.has(dir)) continue;
      lock.remove();
      this.userLocks.delete(dir);
    }
    for (const dir of wanted) {
      if (this.userLocks.has(dir)) continue;
      // The user's folders keep their mode when they exist.
      const lock = this.tryLockFile(dir, token, true);
      if (lock) this.userLocks.set(dir, { lock, authToken: token });
    }
  }

  private tryLockFile(
    dir: string,
    authToken: string,
    keepExistingFolderMode: boolean,
  ): OwnedLockFile | undefined {
    try {
      return new OwnedLockFile(path.join(dir, `${this.port}.lock`), this.lockContent(authToken), {
        keepExistingFolderMode,
      });
    } catch (error) {
      this.options.log(`bridge: no lock file in ${dir}: ${messageOf(error)}`);
      return undefined;
    }
  }

  private claudeToken(): string | undefined {
    for (const [endpoint, token] of this.tokens) if (endpoint.protocol === 'claude-ide') return token;
    return undefined;
  }

  /** What the CLIs read: the workspace folders as they are now. */
  private lockContent(authToken: string) {
    return {
      pid: process.pid,
      workspaceFolders: [...this.options.port.workspaceFolders],
      ideName: this.options.ideName,
      transport: 'ws',
      authToken,
      runningInWindows: process.platform === 'win32',
    };
  }

  private rewriteLockFiles(): void {
    for (const { lock, authToken } of [...this.written, ...this.userLocks.values()]) {
      try {
        lock.rewrite(this.lockContent(authToken));
      } catch (error) {
        this.options.log(`bridge: ${lock.file} not updated: ${messageOf(error)}`);
      }
    }
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
    this.stopFollowing?.();
    // No lock file is written after this, whatever the settings say.
    this.port = undefined;
    for (const lock of this.lockFiles) lock.remove();
    terminateSockets(this.sockets);
  }

  private serve(ws: WebSocket, endpoint: WsEndpoint): void {
    serveClaudeConnection(ws, this.options.port, endpoint.protocol, endpoint.displayName).catch((error) => {
      this.options.log(`bridge: connection failed: ${messageOf(error)}`);
      ws.terminate();
    });
  }
}
