/**
 * The one contract between the main process and the renderer.
 *
 * The renderer sees main only through `AppApi`. Two carriers implement it: the Electron preload
 * (contextBridge + IPC) and the headless WebSocket client. Both move the same `AppApiCall`s, whose
 * parameters main validates with the schemas below before anything reaches core.
 */
import type { Hunk, HunkDecision } from './hunks';

export type ReviewState = 'pending' | 'accepted' | 'rejected' | 'superseded' | 'cancelled';

export type ClientProtocol = 'claude-ide' | 'nexus3-ide';

export interface ClientInfo {
  /** Unique per connection. */
  id: string;
  /** What the person sees, e.g. "Claude Code". */
  name: string;
  protocol: ClientProtocol;
  version?: string;
  pid?: number;
  connectedAt: number;
  connected: boolean;
}

export interface HunkView extends Hunk {
  decision: HunkDecision;
}

export interface ReviewFileSummary {
  path: string;
  /** True when the file does not exist on disk yet. */
  isNewFile: boolean;
  /** Bumped whenever the proposed text changes (an edit), so cached contents can be refreshed. */
  contentRevision: number;
  hunks: HunkView[];
}

export interface ReviewSummary {
  id: string;
  client: ClientInfo;
  /** Short title: the tab name a CLI gave, else the file name. */
  title: string;
  description?: string;
  createdAt: number;
  state: ReviewState;
  /** Why it ended, when it did not end by a person's accept: a reject reason, "client disconnected"... */
  reason?: string;
  decidedAt?: number;
  files: ReviewFileSummary[];
}

export interface ReviewFileContent {
  path: string;
  contentRevision: number;
  baseText: string;
  proposedText: string;
}

export interface AppSnapshot {
  reviews: ReviewSummary[];
  clients: ClientInfo[];
  workspaceFolders: string[];
}

export interface AppApi {
  getSnapshot(): Promise<AppSnapshot>;
  getReviewContent(reviewId: string): Promise<ReviewFileContent[]>;
  decideHunks(
    reviewId: string,
    fileIndex: number,
    hunkIndexes: number[],
    decision: HunkDecision,
  ): Promise<void>;
  decideAll(reviewId: string, decision: HunkDecision): Promise<void>;
  editProposal(reviewId: string, fileIndex: number, proposedText: string): Promise<void>;
  submit(reviewId: string): Promise<void>;
  reject(reviewId: string, reason?: string): Promise<void>;
  /** Called with every new snapshot; returns an unsubscribe function. */
  onSnapshot(listener: (snapshot: AppSnapshot) => void): () => void;
}

export type AppApiMethod =
  'getSnapshot' | 'getReviewContent' | 'decideHunks' | 'decideAll' | 'editProposal' | 'submit' | 'reject';

/** The minimal surface a carrier provides; `createAppApi` builds the typed `AppApi` on top of it. */
export interface AppApiCarrier {
  call(method: AppApiMethod, params: unknown): Promise<unknown>;
  onSnapshot(listener: (snapshot: AppSnapshot) => void): () => void;
}

export function createAppApi(carrier: AppApiCarrier): AppApi {
  const call = <T>(method: AppApiMethod, params: unknown): Promise<T> =>
    carrier.call(method, params) as Promise<T>;
  return {
    getSnapshot: () => call('getSnapshot', {}),
    getReviewContent: (id) => call('getReviewContent', { reviewId: id }),
    decideHunks: (id, file, hunkIndexes, d) =>
      call('decideHunks', { reviewId: id, fileIndex: file, hunkIndexes, decision: d }),
    decideAll: (id, d) => call('decideAll', { reviewId: id, decision: d }),
    editProposal: (id, file, proposedText) =>
      call('editProposal', { reviewId: id, fileIndex: file, proposedText }),
    submit: (id) => call('submit', { reviewId: id }),
    reject: (id, reason) =>
      call('reject', reason === undefined ? { reviewId: id } : { reviewId: id, reason }),
    onSnapshot: (listener) => carrier.onSnapshot(listener),
  };
}

/** Messages on the headless WebSocket (/api). */
export type HeadlessClientMessage = { id: number; method: AppApiMethod; params: unknown };
export type HeadlessServerMessage =
  | { id: number; result: unknown }
  | { id: number; error: { message: string } }
  | { event: 'snapshot'; snapshot: AppSnapshot };

/** Name of the global the Electron preload exposes. */
export const PRELOAD_GLOBAL = 'difftrayCarrier';
