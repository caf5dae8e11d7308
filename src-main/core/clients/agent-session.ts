/**
 * What an adapter asks of core, as one small interface: the lifecycle every protocol repeats (connect,
 * queue a proposal and await the person's decision, note, gone) and the workspace it checks paths
 * against. Adapters hold a ClientPort and, per connection, an AgentSession, instead of reaching into
 * AppCore's queue and client registry.
 */
import type { ClientInfo, ClientProtocol, ReviewFileContent, ReviewItem } from '../../../shared/app-api';
import type { AppCore } from '../app-core';
import type { ReviewOutcome, ReviewRequest } from '../review/review-record';
import type { ContextSink } from '../review/selection-context';

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
}

/** What an adapter's endpoint needs of core: the workspace, and a session per client that connects. */
export interface ClientPort {
  readonly workspaceFolders: readonly string[];
  /** Called with the workspace folders each time they change; returns the way to stop. */
  onWorkspaceFolders(listener: (folders: readonly string[]) => void): () => void;
  /** A client connected; `close` is how the person's "Disconnect" ends its connection. */
  connect(name: string, protocol: ClientProtocol, close?: () => void): AgentSession;
  /** Every pending review (what an IDE context lists as open). */
  pendingReviews(): ReviewItem[];
  /** Called when a review is added, changes or leaves the queue; returns the way to stop. */
  onReviewsChange(listener: () => void): () => void;
}

/** The port AppCore offers adapters. */
export function clientPort(core: AppCore): ClientPort {
  return {
    get workspaceFolders() {
      return core.workspaceFolders;
    },
    onWorkspaceFolders: (listener) => core.onWorkspaceFolders(listener),
    connect: (name, protocol, close) => agentSession(core, core.clients.connect(name, protocol, close)),
    pendingReviews: () => core.queue.pendingItems(),
    onReviewsChange: (listener) => core.queue.onChange(() => listener()),
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
    propose: (proposal) => core.queue.add({ ...proposal, client }),
    note: (reviewId, text) => core.queue.addNote(reviewId, text),
    pendingContents: (reviewId) =>
      core.queue.find(reviewId)?.state === 'pending' ? core.queue.contents(reviewId) : undefined,
    cancel: (reason, which) =>
      core.queue.cancelWhere((request) => ofClient(request) && (which?.(request) ?? true), reason),
    gone: (reason) => core.clientGone(client.id, reason),
  };
}
