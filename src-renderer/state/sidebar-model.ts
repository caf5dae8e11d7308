/**
 * Pure views for the sidebar: the queue grouped by client session, the history of ended reviews, and
 * the connected clients. Nothing here reads the store or the DOM, so all of it is unit-tested.
 */
import type { AppSnapshot, ClientInfo, ReviewItem } from '../../shared/app-api';
import { describeProtocol, isClientProtocol } from '../../shared/protocols';
import { pendingReviews, reviewStateLabel } from '../review/review-model';
import { revertWords } from '../review/revert-words';

/** The pending reviews of one session (one client connection, ClientInfo.id), oldest first. */
export interface QueueGroup {
  /** The client as it is now (status, connected) when the snapshot still lists it. */
  client: ClientInfo;
  reviews: ReviewItem[];
}

/** The client's latest info from the snapshot, else the copy the review carries. */
function latestClient(snapshot: AppSnapshot, client: ClientInfo): ClientInfo {
  return snapshot.clients.find((other) => other.id === client.id) ?? client;
}

/**
 * Pending reviews grouped by session. Groups are ordered by their oldest review, so a new arrival
 * joins its group (or starts a new group at the end) and never reorders what is already listed.
 */
export function groupQueue(snapshot: AppSnapshot | null): QueueGroup[] {
  if (!snapshot) return [];
  const groups = new Map<string, QueueGroup>();
  // pendingReviews is oldest first, so each group's first review is its oldest and the map's
  // insertion order is the order of the groups' oldest reviews.
  for (const review of pendingReviews(snapshot)) {
    const group = groups.get(review.client.id);
    if (group) group.reviews.push(review);
    else groups.set(review.client.id, { client: latestClient(snapshot, review.client), reviews: [review] });
  }
  return [...groups.values()];
}

/** The queue in the order it is shown: group by group. `]` and `[` walk this order. */
export function queueOrder(snapshot: AppSnapshot | null): ReviewItem[] {
  return groupQueue(snapshot).flatMap((group) => group.reviews);
}

/** "Claude Code 2.1.0" */
export function clientLabel(client: Pick<ClientInfo, 'name' | 'version'>): string {
  return client.version ? `${client.name} ${client.version}` : client.name;
}

/** "Claude Code 2.1.0 — 3 pending" */
export function groupHeading(group: QueueGroup): string {
  return `${clientLabel(group.client)} — ${group.reviews.length} pending`;
}

/** "Claude Code: running tests…", or undefined when the client sent no status. */
export function statusLine(client: ClientInfo): string | undefined {
  const text = client.status?.text.trim();
  return text ? `${client.name}: ${text}` : undefined;
}

/** When a review ended; reviews from before decidedAt existed fall back to their arrival. */
export function endedAt(review: ReviewItem): number {
  return review.decidedAt ?? review.createdAt;
}

/** Every ended review, most recently ended first (ties: most recently arrived first). */
export function historyEntries(snapshot: AppSnapshot | null): ReviewItem[] {
  if (!snapshot) return [];
  return snapshot.reviews
    .filter((review) => review.state !== 'pending')
    .sort((a, b) => endedAt(b) - endedAt(a) || b.createdAt - a.createdAt);
}

/**
 * True for a review the person accepted only in part: some file, hunk or line of it was rejected (an
 * undecided one went in as accepted).
 */
export function partlyAccepted(review: ReviewItem): boolean {
  return (
    review.state === 'accepted' &&
    review.files.some((file) => file.fileDecision === 'rejected' || file.fileDecision === 'mixed')
  );
}

/**
 * History's words for how a review ended: "Partially accepted" when part of it was rejected. For a change
 * already on disk, what the rejection did there, as main says it happened: "Rejected — reverted",
 * "Partially reverted", "Rejected — not reverted (changed on disk)", "Rejected — left to the agent".
 */
export function historyStateLabel(review: ReviewItem): string {
  const disk = review.state === 'rejected' || review.state === 'accepted' ? revertWords(review) : undefined;
  if (review.state === 'rejected') return disk ? `Rejected — ${disk}` : 'Rejected';
  if (disk === 'reverted') return 'Partially reverted';
  if (disk) return `Partially accepted — ${disk}`;
  return partlyAccepted(review) ? 'Partially accepted' : reviewStateLabel[review.state];
}

/** A tab's count as it fits on the tab row: "99+" past 99 (each panel's heading has the exact number). */
export function tabCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * An agent connected to DiffTray, as Connections lists it; not DiffTray's own client (the merge review
 * an undo puts up), which no agent is behind and nobody could disconnect.
 */
function isAgent(client: ClientInfo): boolean {
  return !isClientProtocol(client.protocol) || !describeProtocol(client.protocol).difftrayItself;
}

/** Connected agents, longest connected first. */
export function connectedClients(snapshot: AppSnapshot | null): ClientInfo[] {
  if (!snapshot) return [];
  return snapshot.clients
    .filter((client) => client.connected && isAgent(client))
    .sort((a, b) => a.connectedAt - b.connectedAt);
}

/**
 * The accessible name of each client's Disconnect button: "Disconnect Claude Code", made unique with
 * the pid (or the connection order) when two connected clients share a name.
 */
export function disconnectLabels(clients: readonly ClientInfo[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const client of clients) counts.set(client.name, (counts.get(client.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  const labels = new Map<string, string>();
  for (const client of clients) {
    const nth = (seen.get(client.name) ?? 0) + 1;
    seen.set(client.name, nth);
    const shared = (counts.get(client.name) ?? 0) > 1;
    const suffix = !shared ? '' : client.pid !== undefined ? ` (pid ${client.pid})` : ` (${nth})`;
    labels.set(client.id, `Disconnect ${client.name}${suffix}`);
  }
  return labels;
}

/**
 * Status lines that are new in `next` (a client sent a status since `previous`), for the live region.
 * The first snapshot is a baseline: statuses sent before the window opened are shown, not read out.
 */
export function newStatusLines(previous: AppSnapshot | null, next: AppSnapshot): string[] {
  if (!previous) return [];
  const lines: string[] = [];
  for (const client of next.clients) {
    if (!client.connected || !client.status) continue;
    const before = previous.clients.find((other) => other.id === client.id)?.status;
    if (before && before.at === client.status.at && before.text === client.status.text) continue;
    const line = statusLine(client);
    if (line) lines.push(line);
  }
  return lines;
}
