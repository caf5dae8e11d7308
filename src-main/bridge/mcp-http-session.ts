/**
 * One MCP session over Streamable HTTP (Gemini CLI, Qwen Code, Copilot CLI's `/ide`): an McpServer with
 * its protocol's tools (its flavor) over the SDK's Streamable HTTP server transport, and the client it
 * stands for in the registry.
 *
 * Notifications (the decisions, the context) travel on the CLI's GET event stream. The SDK drops a
 * notification when that stream is not open, so they wait in an outbox until it is: a decision made
 * while the CLI reconnects still arrives. The session ends on DELETE, on the person's "Disconnect", or
 * when it has been without its event stream longer than a grace period: the stream was lost (the CLI
 * exited: it sends no DELETE) or never opened (a client that only initialised would otherwise be kept,
 * with its reviews, forever). Its pending reviews are then cancelled and stay visible, marked so.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {
  Implementation,
  JSONRPCNotification,
  ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { ClientInfo, ClientProtocol } from '../../shared/app-api';
import type { AgentSession, ClientPort } from '../core/clients/agent-session';
import { SelectionError, type SelectionContext } from '../core/review/selection-context';
import { messageOf } from '../../shared/error-message';

/** A selection sent to a session ("Send to agent"), and when. */
export interface SentSelection extends SelectionContext {
  sentAt: number;
}

/**
 * What makes one MCP-over-Streamable-HTTP protocol differ from another: how the server calls itself,
 * its tools, and the context it pushes on the event stream (Gemini's `ide/contextUpdate`), if any.
 */
export interface McpFlavor {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  registerTools(server: McpServer, session: McpToolSession): void;
  context?: {
    method: string;
    /** The context now, from the queue and the last selection sent to the session, if any. */
    current(port: ClientPort, selection: SentSelection | undefined): Record<string, unknown>;
  };
  /**
   * "Send to agent": the notification that carries a selection to this protocol's client. A flavor
   * without one takes no selections. It goes out on the event stream at once, or not at all.
   */
  selectionNotification?(selection: SentSelection, port: ClientPort): JSONRPCNotification;
  /** What the `initialize` request's headers say about the client (Copilot CLI's `X-Copilot-PID`). */
  clientDetails?(
    request: http.IncomingMessage,
  ): Partial<Pick<ClientInfo, 'pid' | 'workspace' | 'claimed'>> | undefined;
}

/** Who a session is for: the name and protocol its client is registered under. */
export interface McpSessionEndpoint {
  protocol: ClientProtocol;
  displayName: string;
  /**
   * A client version this CLI reports whatever its real one (Qwen Code says "1.0.0"): not shown, as
   * a wrong version misleads more than none.
   */
  misreportedVersion?: string;
}

/** The session, as its tools see it. */
export interface McpToolSession {
  /** The connected client's session; read only from tool calls, which come after initialize. */
  readonly agent: AgentSession;
  /** Sends a notification to this client (queued until its event stream is open). */
  notify(method: string, params: Record<string, unknown>): void;
}

export interface SessionHost {
  port: ClientPort;
  log: (message: string) => void;
  /** How long the event stream may stay closed before the client counts as gone. */
  streamGraceMs: number;
  flavor: McpFlavor;
  sessionInitialized(session: McpHttpSession): void;
  sessionClosed(session: McpHttpSession): void;
}

/** Notifications kept for a client whose event stream is closed, oldest dropped first. */
const MAX_OUTBOX = 1000;

/** Live sessions per endpoint (each costs an McpServer); an initialize past this is refused until some end. */
export const MAX_MCP_SESSIONS = 64;

export class McpHttpSession implements McpToolSession {
  readonly transport: StreamableHTTPServerTransport;
  private readonly server: McpServer;
  private agentSession: AgentSession | undefined;
  private stream: http.ServerResponse | undefined;
  private readonly outbox: JSONRPCNotification[] = [];
  private graceTimer: NodeJS.Timeout | undefined;
  private lastContext: string | undefined;
  private lastSelection: SentSelection | undefined;
  private closed = false;

  private constructor(
    readonly endpoint: McpSessionEndpoint,
    private readonly host: SessionHost,
  ) {
    this.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: () => this.initialized(),
    });
    // Set before connect(): the SDK chains its own handlers after these.
    this.transport.onclose = () => this.cleanUp();
    this.transport.onerror = (error) => host.log(`${endpoint.displayName}: ${error.message}`);
    this.server = new McpServer(host.flavor.serverInfo, { capabilities: host.flavor.capabilities });
    host.flavor.registerTools(this.server, this);
    this.server.server.oninitialized = () => {
      const version = this.server.server.getClientVersion()?.version;
      if (!version || version === endpoint.misreportedVersion || !this.agentSession) return;
      this.agentSession.describe({ version });
    };
  }

  /** A session for an `initialize` request; it counts only once the transport accepts that request. */
  static async open(endpoint: McpSessionEndpoint, host: SessionHost): Promise<McpHttpSession> {
    const session = new McpHttpSession(endpoint, host);
    await session.server.connect(session.transport);
    return session;
  }

  get id(): string | undefined {
    return this.transport.sessionId;
  }

  get agent(): AgentSession {
    if (!this.agentSession) throw new Error('The MCP session is not initialized');
    return this.agentSession;
  }

  get client(): ClientInfo {
    return this.agent.client;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  notify(method: string, params: Record<string, unknown>): void {
    if (this.closed) return;
    this.outbox.push({ jsonrpc: '2.0', method, params });
    if (this.outbox.length > MAX_OUTBOX) this.outbox.shift();
    if (this.stream) this.flush();
  }

  /** Sends the context if it differs from the last one sent (or always, when `force`). */
  sendContext(force = false): void {
    const flavorContext = this.host.flavor.context;
    if (flavorContext === undefined) return;
    const context = flavorContext.current(this.host.port, this.lastSelection);
    const method = flavorContext.method;
    const json = JSON.stringify(context);
    if (!force && json === this.lastContext) return;
    this.lastContext = json;
    this.notify(method, context);
  }

  /**
   * A GET is about to be answered by the transport. Once its headers go out with 200, the SDK has
   * registered it as the session's event stream: deliver what waited, then the current context.
   */
  watchEventStream(response: http.ServerResponse): void {
    afterHeaders(response, () => {
      if (response.statusCode !== 200 || this.closed) return;
      this.stream = response;
      clearTimeout(this.graceTimer);
      this.graceTimer = undefined;
      response.once('close', () => this.streamClosed(response));
      const context = this.host.flavor.context;
      // A fresh context replaces any queued one.
      for (let i = this.outbox.length - 1; context && i >= 0; i--) {
        if (this.outbox[i]!.method === context.method) this.outbox.splice(i, 1);
      }
      this.flush();
      this.sendContext(true);
    });
  }

  /**
   * Sends a selection to the client now. Refused when its event stream is closed: lines the person
   * points at are for now, not for whenever the client comes back.
   */
  async sendSelection(selection: SelectionContext): Promise<void> {
    const toNotification = this.host.flavor.selectionNotification;
    if (!toNotification) throw new SelectionError(`${this.endpoint.displayName} takes no selections`);
    if (!this.stream || this.closed) {
      throw new SelectionError(
        `${this.endpoint.displayName} is not listening for context right now (its event stream is closed); ` +
          'try again once it reconnects',
      );
    }
    this.lastSelection = { ...selection, sentAt: Date.now() };
    const notification = toNotification(this.lastSelection, this.host.port);
    if (notification.method === this.host.flavor.context?.method) {
      this.lastContext = JSON.stringify(notification.params);
    }
    try {
      await this.transport.send(notification);
    } catch (error) {
      throw new SelectionError(`${this.endpoint.displayName} could not be reached: ${messageOf(error)}`);
    }
  }

  /** Ends the session; the transport's close runs the clean-up. */
  async close(): Promise<void> {
    await this.transport.close();
  }

  private initialized(): void {
    const agent = this.host.port.connect(this.endpoint.displayName, this.endpoint.protocol, () => {
      void this.close();
    });
    this.agentSession = agent;
    if (this.host.flavor.selectionNotification) {
      agent.takeSelections((selection) => this.sendSelection(selection));
    }
    this.host.sessionInitialized(this);
    // The client opens its event stream next; one that never does must not be kept.
    this.startGrace();
  }

  private flush(): void {
    for (const message of this.outbox.splice(0)) {
      this.transport.send(message).catch((error: Error) => {
        this.host.log(`${this.endpoint.displayName}: notification not sent: ${error.message}`);
      });
    }
  }

  private streamClosed(response: http.ServerResponse): void {
    if (this.stream !== response) return;
    this.stream = undefined;
    this.startGrace();
  }

  /** Without an event stream the session lives only this long; a stream that opens stops the clock. */
  private startGrace(): void {
    if (this.closed || this.stream) return;
    clearTimeout(this.graceTimer);
    this.graceTimer = setTimeout(() => {
      this.host.log(`${this.endpoint.displayName}: session ${this.id} ended: no event stream`);
      void this.close();
    }, this.host.streamGraceMs);
    this.graceTimer.unref();
  }

  private cleanUp(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.graceTimer);
    this.outbox.length = 0;
    this.agentSession?.gone();
    this.host.sessionClosed(this);
  }
}

/**
 * Runs `listener` right after the response's status line and headers are written. The SDK answers
 * through Hono's Node adapter, which awaits a stream's whole body: the header write is the one moment
 * that says the stream is open.
 */
function afterHeaders(response: http.ServerResponse, listener: () => void): void {
  const writeHead = response.writeHead as (...args: unknown[]) => http.ServerResponse;
  response.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    const result = writeHead.apply(this, args);
    response.writeHead = writeHead as typeof response.writeHead;
    listener();
    return result;
  } as typeof response.writeHead;
}
