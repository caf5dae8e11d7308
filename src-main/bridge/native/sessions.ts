/**
 * Native sessions (seed 002): a session outlives its connection. When the socket goes, the session's
 * pending reviews wait for a grace period (10 minutes by default); a `hello` with the session id from a
 * new connection re-attaches them, and results decided meanwhile are delivered there. When the grace
 * period ends, the pending reviews are cancelled ("client disconnected") and the session is forgotten.
 *
 * In DiffTray's Connections list a session shows as one client while it is connected, and, while its
 * socket is gone, as long as it still has reviews waiting (with a status line saying so). The person's
 * "Disconnect" ends the session at once: its pending reviews are cancelled.
 */
import { randomUUID } from 'node:crypto';
import type { ClientProtocol } from '../../../shared/app-api';
import type { StatusUpdate } from '../../../shared/native-context';
import type { ChangeSetResult, Integration } from '../../../shared/native-protocol';
import type { ClientPort } from '../../core/clients/agent-session';
import type { ReviewRequest } from '../../core/review/review-queue';
import type {
  ActiveTarget,
  ApprovalRecord,
  ReviewRecord,
  Session,
  SessionConnection,
  SessionIdentity,
  SessionPush,
} from './session-state';
import { sendSnippet } from './snippet';

export type {
  ActiveTarget,
  ApprovalRecord,
  ReviewRecord,
  Session,
  SessionConnection,
  SessionIdentity,
  SessionPush,
} from './session-state';

export const NATIVE_PROTOCOL_NAME = 'native';

/** Ended reviews a session remembers for list_reviews; the oldest go first. */
const MAX_ENDED_REVIEWS_PER_SESSION = 200;

function forgetOldestEnded(session: Session): void {
  let ended = 0;
  for (const record of session.reviews.values()) if (record.result) ended++;
  for (const [id, record] of session.reviews) {
    if (ended <= MAX_ENDED_REVIEWS_PER_SESSION) break;
    if (!record.result) continue;
    session.reviews.delete(id);
    ended--;
  }
}

/**
 * A result as a session keeps it for get_review / list_reviews: without the texts a client writes
 * (`final_text`), which go out once, with the push. Kept, 200 ended reviews of 5 files of 10 MB each
 * would hold gigabytes counted against nothing.
 */
function withoutTexts(result: ChangeSetResult): ChangeSetResult {
  if (!result.files.some((file) => file.final_text !== undefined)) return result;
  return { ...result, files: result.files.map(({ final_text: _text, ...file }) => file) };
}

export interface SessionsOptions {
  port: ClientPort;
  graceMs: number;
  log: (message: string) => void;
  /** Close code used when the person ends a session from DiffTray. */
  disconnectCode: number;
}

export class NativeSessions {
  private readonly sessions = new Map<string, Session>();
  /** Results being worked out (files written, reverted): closing waits for them. */
  private readonly settling = new Set<Promise<unknown>>();

  constructor(private readonly options: SessionsOptions) {}

  private get port(): ClientPort {
    return this.options.port;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  create(
    name: string,
    version: string | undefined,
    connection: SessionConnection,
    identity: SessionIdentity = {},
  ): Session {
    const session: Session = {
      id: randomUUID(),
      name,
      version,
      agent: undefined,
      connection,
      reviews: new Map(),
      approvals: new Map(),
      undelivered: [],
      identity,
      graceTimer: undefined,
      ended: false,
      farewell: undefined,
      target: undefined,
    };
    this.sessions.set(session.id, session);
    this.refreshPresence(session);
    return session;
  }

  /** A new connection said hello with this session's id; a connection still attached is let go. */
  attach(session: Session, connection: SessionConnection, name: string, version: string | undefined): void {
    const previous = session.connection;
    session.connection = connection;
    if (previous && previous !== connection) previous.end(4010, 'session resumed on another connection');
    if (session.graceTimer) clearTimeout(session.graceTimer);
    session.graceTimer = undefined;
    const renamed = session.name !== name;
    session.name = name;
    session.version = version ?? session.version;
    if (renamed && session.agent) {
      session.agent.leave();
      session.agent = undefined;
    }
    this.refreshPresence(session);
    if (session.agent && session.version !== undefined) session.agent.describe({ version: session.version });
    session.agent?.setStatus('reconnected');
  }

  /** Results that waited for this connection. */
  takeUndelivered(session: Session): SessionPush[] {
    return session.undelivered.splice(0);
  }

  /** The session's socket went away: its pending reviews wait for a reconnect, for a while. */
  detach(session: Session, connection: SessionConnection): void {
    if (session.connection !== connection || session.ended) return;
    session.connection = undefined;
    if (session.identity.one_shot) {
      this.end(session, 'client disconnected');
      return;
    }
    if (session.graceTimer) clearTimeout(session.graceTimer);
    session.graceTimer = setTimeout(() => this.end(session, 'client disconnected'), this.options.graceMs);
    session.graceTimer.unref?.();
    this.refreshPresence(session);
  }

  /** Ends the session: pending reviews cancelled, socket (if any) closed, forgotten. */
  end(session: Session, reason: string, close?: { code: number; reason: string }): void {
    if (session.ended) return;
    session.ended = true;
    if (session.graceTimer) clearTimeout(session.graceTimer);
    session.graceTimer = undefined;
    this.sessions.delete(session.id);
    this.cancelPending(session, reason);
    const connection = session.connection;
    session.connection = undefined;
    if (connection && close) connection.end(close.code, close.reason);
    else session.farewell = connection;
    session.agent?.leave();
    session.agent = undefined;
  }

  endAll(reason: string): void {
    for (const session of [...this.sessions.values()]) this.end(session, reason);
  }

  /** Ends every session of a paired client (revoked): pending reviews cancelled, sockets closed. */
  endPaired(pairedId: string, reason: string, close: { code: number; reason: string }): void {
    for (const session of [...this.sessions.values()]) {
      if (session.pairedId === pairedId) this.end(session, reason, close);
    }
  }

  cancelPending(session: Session, reason: string): number {
    const requests = new Set<ReviewRequest | undefined>([
      ...[...session.reviews.values()].map((record) => record.request),
      ...[...session.approvals.values()].map((record) => record.request),
    ]);
    return this.port.cancelRequests(requests, reason);
  }

  /** A review or approval of this session ended: its result goes to the connection, or waits for one. */
  deliver(session: Session, record: ReviewRecord | ApprovalRecord, push: SessionPush): void {
    if (push.command === 'change_set_result' && 'planned' in record) {
      record.result = withoutTexts(push.payload);
      // Settled: the texts it was planned from are no longer needed; the result (no texts) is what is asked for.
      record.planned = [];
      forgetOldestEnded(session);
    } else session.approvals.delete(record.id);
    record.request = undefined;
    if (session.ended) {
      session.farewell?.deliver(push);
      return;
    }
    if (session.connection) session.connection.deliver(push);
    else session.undelivered.push(push);
    this.refreshPresence(session);
  }

  /** Keeps track of a result being settled, so that closing can wait for it. */
  track(work: Promise<unknown>): void {
    this.settling.add(work);
    void work.finally(() => this.settling.delete(work));
  }

  /** Resolves when every result being settled now is done, or after `timeoutMs`. */
  async settled(timeoutMs: number): Promise<void> {
    // Results of reviews cancelled just now start settling a few microtasks later.
    await new Promise((resolve) => setImmediate(resolve));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.settling]),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
  }

  pendingCount(session: Session): number {
    let count = session.approvals.size;
    for (const record of session.reviews.values()) if (record.request && !record.result) count++;
    return count;
  }

  /** `connection` receives the session's pushes from now on (register_active_target). */
  registerTarget(session: Session, target: ActiveTarget): void {
    session.target = target;
  }

  /** A connection closed: it is nobody's target any more. */
  dropTarget(connection: SessionConnection): void {
    for (const session of this.sessions.values()) {
      if (session.target?.connection === connection) session.target = undefined;
    }
  }

  /** seed 003 §3.3.2: a status_update to every registered target (each connection once). */
  pushStatus(update: StatusUpdate): void {
    const targets = new Set<SessionConnection>();
    for (const session of this.sessions.values()) if (session.target) targets.add(session.target.connection);
    for (const connection of targets) connection.deliver({ command: 'status_update', payload: update });
  }

  /**
   * Listed under Connections while connected, or while reviews still wait for it; otherwise not (a
   * finished `difftray review` leaves no ghost behind).
   */
  private refreshPresence(session: Session): void {
    if (session.ended) return;
    const listed = session.connection !== undefined || this.pendingCount(session) > 0;
    if (listed && !session.agent) {
      const agent = this.port.connect(session.name, protocolOf(session), () =>
        this.end(session, 'disconnected by the user', {
          code: this.options.disconnectCode,
          reason: 'disconnected by the user',
        }),
      );
      session.agent = agent;
      // Claude Code's hooks live for one edit: lines sent there would reach no one.
      if (protocolOf(session) === NATIVE_PROTOCOL_NAME) {
        agent.takeSelections((selection) => sendSnippet(session, selection, this.port.workspaceFolders));
      }
      const { agent_session_id, workspace, pid } = session.identity;
      agent.describe({
        ...(session.version !== undefined && { version: session.version }),
        ...(agent_session_id !== undefined && { agentSession: agent_session_id }),
        ...(workspace !== undefined && { workspace }),
        ...(pid !== undefined && { pid }),
      });
    } else if (!listed && session.agent) {
      session.agent.leave();
      session.agent = undefined;
    }
    if (session.agent && !session.connection) {
      const minutes = Math.max(1, Math.round(this.options.graceMs / 60_000));
      session.agent.setStatus(`connection lost; its pending reviews wait ${minutes} min for it to reconnect`);
    }
  }
}

/** An agent's hooks speak the native protocol but are shown (and paused) as their own program. */
const INTEGRATION_PROTOCOLS: Record<Integration, ClientProtocol> = {
  'claude-code-hooks': 'claude-hooks',
  'codex-hooks': 'codex-hooks',
  'gemini-hooks': 'gemini-hooks',
  'copilot-hooks': 'copilot-hooks',
  'qwen-hooks': 'qwen-hooks',
};

function protocolOf(session: Session): ClientProtocol {
  const { integration } = session.identity;
  return integration === undefined ? NATIVE_PROTOCOL_NAME : INTEGRATION_PROTOCOLS[integration];
}
