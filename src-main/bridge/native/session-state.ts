/**
 * What a native session holds (sessions.ts keeps them): its connection, its reviews and approvals, the
 * results waiting for its next hello, and the connection registered as its target (seed 003).
 */
import type {
  ApprovalResult,
  ChangeSetResult,
  PushSnippet,
  RequestPayload,
} from '../../../shared/native-protocol';
import type { StatusUpdate } from '../../../shared/native-context';
import type { AgentSession } from '../../core/clients/agent-session';
import type { ReviewRequest } from '../../core/review/review-queue';
import type { PlannedFile } from './change-set';

/** A result pushed to the session's client: now, or on its next hello; a snippet only now. */
export type SessionPush =
  | { command: 'change_set_result'; payload: ChangeSetResult }
  | { command: 'approval_result'; payload: ApprovalResult }
  | { command: 'push_snippet'; payload: PushSnippet }
  | { command: 'status_update'; payload: StatusUpdate };

/** How the client introduced itself (hello), beyond its name and version. */
export type SessionIdentity = Pick<
  RequestPayload<'hello'>,
  'integration' | 'agent_session_id' | 'workspace' | 'pid' | 'one_shot'
>;

/** What a session's live connection must offer. */
export interface SessionConnection {
  deliver(push: SessionPush): void;
  /** Close the socket, without the session entering its grace period (it is over or has moved). */
  end(code: number, reason: string): void;
}

export interface ReviewRecord {
  id: string;
  title: string;
  createdAt: number;
  /** The request as queued (QueuedProposal.request): how the review is found again to cancel it. */
  request: ReviewRequest | undefined;
  planned: PlannedFile[];
  result?: ChangeSetResult;
}

/** An approval card this session asked for (request_approval). */
export interface ApprovalRecord {
  id: string;
  /** The request as queued; undefined once answered. */
  request: ReviewRequest | undefined;
}

export interface Session {
  id: string;
  name: string;
  version: string | undefined;
  /** Its entry with core, while the session is listed under Connections. */
  agent: AgentSession | undefined;
  connection: SessionConnection | undefined;
  reviews: Map<string, ReviewRecord>;
  /** Approval cards still waiting for the person. */
  approvals: Map<string, ApprovalRecord>;
  /** Results decided while no connection was attached, delivered on the next hello. */
  undelivered: SessionPush[];
  identity: SessionIdentity;
  graceTimer: NodeJS.Timeout | undefined;
  ended: boolean;
  /** The connection still open when the session ended without closing it (DiffTray closing): it gets the last results. */
  farewell: SessionConnection | undefined;
  /** The connection that registered to receive the session's pushes (register_active_target). */
  target: ActiveTarget | undefined;
  /** The paired client (id) that opened it: only that client's connections may resume it. */
  pairedId?: string;
}

/** seed 003's "active target": where push_snippet and status_update go. */
export interface ActiveTarget {
  connection: SessionConnection;
  tabId: number | undefined;
  llmHost: string | undefined;
}
