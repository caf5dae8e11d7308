/**
 * What an adapter asks of core, as one small interface: the lifecycle every protocol repeats (connect,
 * queue a proposal and await the person's decision, note, gone), the workspace it checks paths against,
 * and the few named things some protocols also need (what is on screen, the writer through the disk
 * policy, asking the person to let a client in). Adapters hold a ClientPort and, per connection, an
 * AgentSession, instead of reaching into AppCore's queue, client registry or writer.
 */
import type {
  ClientInfo,
  ClientProtocol,
  ReviewFileContent,
  ReviewItem,
  ReviewSummary,
} from '../../../shared/app-api';
import type { AppCore } from '../app-core';
import {
  settleFile,
  type DiskFile,
  type FileDecision,
  type FileSettlement,
  type WhoWrites,
} from '../disk/disk-policy';
import type { ReviewOutcome, ReviewRequest } from '../review/review-record';
import type { ContextSink } from '../review/selection-context';
import { settleReview, type NamedDiskFile, type SettledReview } from '../review/settle-review';
import type { Pairing } from '../pairing/pairing';
import type { ConnectionPeer, PendingConnection } from './connection-requests';
import type { AgentTurns } from '../turns/agent-turns';
import type { Integration } from '../../../shared/native-protocol';
import {
  HOOK_AGENT_OF_INTEGRATION,
  turnSettingsOf,
  type AgentTurnSettings,
} from '../../../shared/turn-settings';

/** What a client may say about itself after connecting (MCP initialize, ide_connected, hello). */
export type ClientDetails = Partial<
  Pick<ClientInfo, 'name' | 'version' | 'pid' | 'workspace' | 'agentSession' | 'claimed'>
>;

/** A proposal as an adapter hands it over: the session fills in whose it is. */
export type Proposal = Omit<ReviewRequest, 'client'>;

/** A queued proposal: its review id, and the person's decision once made. */
export interface QueuedProposal {
  id: string;
  outcome: Promise<ReviewOutcome>;
  /** The request as queued: how ClientPort.cancelRequests finds it again. */
  request: ReviewRequest;
}

/** The review the person looks at now, and which of its files (undefined: the window did not say). */
export interface ReviewShown {
  review: ReviewSummary;
  fileIndex: number | undefined;
}

/** One connected client, from connect to gone. */
export interface AgentSession {
  readonly client: ClientInfo;
  /** The workspace folders now (real paths): read at the moment of use, never kept. */
  readonly workspaceFolders: readonly string[];
  describe(details: ClientDetails): void;
  /** A status line from the client ("running tests…"), shown without interrupting anything. */
  setStatus(text: string): void;
  /** "Send to agent" reaches this client through `sink` (its protocol can carry lines). */
  takeSelections(sink: ContextSink): void;
  /** Queues a proposal of this client; `outcome` settles with the person's decision. */
  propose(proposal: Proposal): QueuedProposal;
  /** A line in the review's notes (what the adapter could not do with the decision, say). */
  note(reviewId: string, text: string): void;
  /** A pending review's files as they stand now; undefined once it is decided or gone. */
  pendingContents(reviewId: string): ReviewFileContent[] | undefined;
  /** Cancels this client's pending reviews that `which` picks (every one without it); how many. */
  cancel(reason: string, which?: (request: ReviewRequest) => boolean): number;
  /** The connection ended: its pending reviews are cancelled and it leaves Connections. */
  gone(reason?: string): void;
  /**
   * It leaves Connections, its pending reviews stay (a native session whose socket is gone keeps its
   * reviews for a reconnect, and reaches them again as a new entry).
   */
  leave(): void;
}

/** What an adapter's endpoint needs of core: the workspace, and a session per client that connects. */
export interface ClientPort {
  /** The agents' turns, followed through their hooks for the turn review (core/turns/agent-turns.ts). */
  readonly turns: AgentTurns;
  /** The turn review's settings now for the agent whose hooks speak as `integration`. */
  turnSettings(integration: Integration): AgentTurnSettings;
  readonly workspaceFolders: readonly string[];
  /** Called with the workspace folders each time they change; returns the way to stop. */
  onWorkspaceFolders(listener: (folders: readonly string[]) => void): () => void;
  /** Called with watch mode's folders each time they change; returns the way to stop. */
  onWatchedFolders(listener: (folders: readonly string[]) => void): () => void;
  /** A client connected; `close` is how the person's "Disconnect" ends its connection. */
  connect(name: string, protocol: ClientProtocol, close?: () => void): AgentSession;
  /** Every connected client, as Connections lists them. */
  connectedClients(): ClientInfo[];
  /** Every pending review (what an IDE context lists as open). */
  pendingReviews(): ReviewItem[];
  /** How many reviews wait for the person. */
  pendingCount(): number;
  /** Called when a review is added, changes or leaves the queue; returns the way to stop. */
  onReviewsChange(listener: () => void): () => void;
  /** A review as it stands (pending, or in History); undefined once it is gone. */
  review(reviewId: string): ReviewSummary | undefined;
  /** The review a window shows now, if any. */
  reviewShown(): ReviewShown | undefined;
  /** Called when the review or file on screen changes; returns the way to stop. */
  onReviewShown(listener: () => void): () => void;
  /**
   * Cancels those of `requests` still pending, whichever client entry queued them (a native session
   * outlives its entries under Connections); how many.
   */
  cancelRequests(requests: ReadonlySet<ReviewRequest | undefined>, reason: string): number;
  /** A decided review carried out on disk by the writer, in one call (core/review/settle-review.ts). */
  settleReview(
    reviewId: string,
    outcome: ReviewOutcome,
    files: readonly NamedDiskFile[],
    who: WhoWrites,
  ): Promise<SettledReview>;
  /** One file of review `reviewId` carried out on disk by the writer, through the disk policy. */
  settleFile(
    reviewId: string,
    file: DiskFile,
    decision: FileDecision,
    who: WhoWrites,
  ): Promise<FileSettlement>;
  /** The person allowed this program always: it comes in without being asked. */
  isTrustedPeer(peer: ConnectionPeer): boolean;
  /** Asks the person whether `peer`, which sent no token, may connect. */
  askToConnect(peer: ConnectionPeer): PendingConnection;
}

/**
 * What an adapter that pairs remote agents uses of pairing: the host key its handshake signs with,
 * `pair` (a code for a token), `authenticate` (a paired client's token), revocations, and the port it
 * listens on (the one a tunnel must forward).
 */
export type PairingPort = Pick<Pairing, 'hostKey' | 'pair' | 'authenticate' | 'onRevoked' | 'setPort'>;

/** The port AppCore offers adapters. */
export function clientPort(core: AppCore): ClientPort {
  return {
    get workspaceFolders() {
      return core.workspaceFolders;
    },
    turns: core.turns,
    turnSettings: (integration) =>
      turnSettingsOf(core.settings?.settings.turnReview ?? {}, HOOK_AGENT_OF_INTEGRATION[integration]),
    onWorkspaceFolders: (listener) => core.onWorkspaceFolders(listener),
    onWatchedFolders: (listener) => core.onWatchedFolders(listener),
    connect: (name, protocol, close) => agentSession(core, core.clients.connect(name, protocol, close)),
    connectedClients: () => core.clients.list(),
    pendingReviews: () => core.queue.pendingItems(),
    pendingCount: () => core.queue.pendingCount(),
    onReviewsChange: (listener) => core.queue.onChange(() => listener()),
    review: (reviewId) => core.queue.find(reviewId),
    reviewShown: () => {
      const shown = core.onScreen.get();
      const review = shown ? core.queue.find(shown.reviewId) : undefined;
      return shown && review ? { review, fileIndex: shown.fileIndex } : undefined;
    },
    onReviewShown: (listener) => core.onScreen.onChange(listener),
    cancelRequests: (requests, reason) => core.queue.cancelWhere((request) => requests.has(request), reason),
    settleReview: (reviewId, outcome, files, who) => settleReview(core, reviewId, outcome, files, who),
    settleFile: (reviewId, file, decision, who) => settleFile(core.writer, file, decision, who, { reviewId }),
    isTrustedPeer: (peer) => core.connectionRequests.isTrusted(peer),
    askToConnect: (peer) => core.connectionRequests.ask(peer),
  };
}

function agentSession(core: AppCore, client: ClientInfo): AgentSession {
  const ofClient = (request: ReviewRequest) => request.client.id === client.id;
  return {
    client,
    get workspaceFolders() {
      return core.workspaceFolders;
    },
    describe: (details) => core.clients.describe(client.id, details),
    setStatus: (text) => core.clients.setStatus(client.id, text),
    takeSelections: (sink) => core.clients.setContextSink(client.id, sink),
    propose: (proposal) => {
      const request = { ...proposal, client };
      return { ...core.queue.add(request), request };
    },
    note: (reviewId, text) => core.queue.addNote(reviewId, text),
    pendingContents: (reviewId) =>
      core.queue.find(reviewId)?.state === 'pending' ? core.queue.contents(reviewId) : undefined,
    cancel: (reason, which) =>
      core.queue.cancelWhere((request) => ofClient(request) && (which?.(request) ?? true), reason),
    gone: (reason) => core.clientGone(client.id, reason),
    leave: () => core.clients.disconnect(client.id),
  };
}
