/**
 * `propose_change_set`: plans the change set against the disk, answers at once with each file's status,
 * and puts the reviewable files up for review; the result is pushed (`change_set_result`) to whichever
 * connection holds the session when the person decides.
 */
import { randomUUID } from 'node:crypto';
import type { ChangeSetResult, ProposeResponse, RequestPayload } from '../../../../shared/native-protocol';
import type { ProposedFile, ReviewOutcome } from '../../../core/review/review-queue';
import {
  ChangeSetError,
  planChangeSet,
  type PlannedFile,
  type ReviewedFile,
  type SkippedFile,
} from '../change-set';
import { changeSetResult, diskFileOf, type Writer } from '../outcome';
import { noteEditDecided } from './turn-review';
import { planRemoteChangeSet } from '../remote-change-set';
import type { ReviewRecord, Session } from '../sessions';
import {
  defineCommand,
  RequestError,
  type CommandContext,
  type NativeServices,
  type PairedIdentity,
} from './command';
import { stackOf } from '../../../../shared/error-message';

type ProposePayload = RequestPayload<'propose_change_set'>;

export const proposeChangeSet = defineCommand('propose_change_set', async (payload, context) => {
  const { port } = context.services;
  const { paired } = context.connection;
  let planned: PlannedFile[];
  try {
    planned = paired
      ? planRemoteChangeSet(payload)
      : await planChangeSet(payload, { workspaceFolders: port.workspaceFolders });
  } catch (error) {
    if (error instanceof ChangeSetError) throw new RequestError(error.code, error.message, error.details);
    throw error;
  }
  const { connection } = context;
  const session = connection.session;
  // The socket closed while the files were read: the client never learns of this review; add none.
  if (connection.closed || !session) return;
  const reviewed = planned.filter((entry): entry is ReviewedFile => entry.kind === 'review');
  const skipped = planned.filter((entry) => entry.kind === 'skipped');
  const files = planned.map(fileStatus);
  if (reviewed.length === 0 && skipped.length > 0) {
    const first = skipped[0]!;
    throw new RequestError(
      first.code,
      `Nothing to review: ${skipped.map((entry) => `${entry.path}: ${entry.reason}`).join('; ')}`,
      { files },
    );
  }
  // A paired client's files are on its host: it always writes them itself.
  const writer: Writer = paired ? 'remote' : (payload.writer ?? 'difftray');
  const proposal: Proposal = { payload, planned, files, session, writer, paired };
  if (reviewed.length === 0) await settleUnchanged(proposal, context);
  else proposeForReview(proposal, reviewed, context);
});

interface Proposal {
  payload: ProposePayload;
  planned: PlannedFile[];
  /** The answer's `files`: each planned file's status. */
  files: ProposeResponse['files'];
  session: Session;
  writer: Writer;
  paired: PairedIdentity | undefined;
}

/** Every file already is as proposed: answered at once, with nothing to review. */
async function settleUnchanged(
  { payload, planned, files, session, writer }: Proposal,
  { services, respond }: CommandContext,
): Promise<void> {
  const id = `noop-${randomUUID()}`;
  const record: ReviewRecord = {
    id,
    title: payload.title,
    createdAt: Date.now(),
    request: undefined,
    planned,
  };
  session.reviews.set(id, record);
  respond({ review_id: id, files } satisfies ProposeResponse);
  const accepted: ReviewOutcome = { kind: 'accepted', files: [] };
  const settled = await services.port.settleReview(id, accepted, [], writer);
  const result = changeSetResult(id, planned, accepted, settled);
  services.sessions.deliver(session, record, { command: 'change_set_result', payload: result });
}

function proposeForReview(
  { payload, planned, files, session, writer, paired }: Proposal,
  reviewed: readonly ReviewedFile[],
  context: CommandContext,
): void {
  const { id } = putUpForReview(
    {
      session,
      title: payload.title,
      description: describe(payload, planned, writer),
      planned,
      reviewed,
      writer,
      ...(paired && { remote: { clientName: paired.name } }),
      onSettled: (_result, outcome) =>
        noteEditDecided(session, reviewed, outcome, context.services.port.turns),
    },
    context.services,
  );
  context.respond({ review_id: id, files } satisfies ProposeResponse);
}

/** What goes up for review from a native session, and how its result goes back. */
export interface NativeReview {
  session: Session;
  title: string;
  description: string | undefined;
  planned: PlannedFile[];
  reviewed: readonly ReviewedFile[];
  writer: Writer;
  remote?: { clientName: string };
  /** Told the result once the decision was carried out on disk, before the client is. */
  onSettled?: (result: ChangeSetResult, outcome: ReviewOutcome) => void;
}

/**
 * Puts `reviewed` up for review as the session's client; when the person decides, core carries it out
 * on disk and the `change_set_result` is delivered to whichever connection holds the session.
 */
export function putUpForReview(review: NativeReview, services: NativeServices): { id: string } {
  const { session, planned, reviewed, writer } = review;
  const { port, sessions, log } = services;
  // A session is listed under Connections while a connection holds it, as this one does.
  if (!session.agent) throw new Error(`native: session ${session.id} has no client entry`);
  const { id, outcome, request } = session.agent.propose({
    title: review.title,
    ...(review.description !== undefined && { description: review.description }),
    files: reviewed.map((entry) => toProposedFile(entry, writer)),
    ...(review.remote && { remote: review.remote }),
  });
  const record: ReviewRecord = { id, title: review.title, createdAt: Date.now(), request, planned };
  session.reviews.set(id, record);
  const settling = outcome
    .then(async (result) => {
      // Carried out on disk by core in one call (what failed is noted in History there), then told.
      const settled = await port.settleReview(id, result, reviewed.map(diskFileOf), writer);
      const payload = changeSetResult(id, planned, result, settled);
      review.onSettled?.(payload, result);
      sessions.deliver(session, record, { command: 'change_set_result', payload });
    })
    .catch((error: unknown) => log(`native: failed to settle review ${id}: ${stackOf(error)}`));
  // Tracked from the moment the review ends: closing waits for what is being written.
  void outcome.then(() => sessions.track(settling));
  return { id };
}

function fileStatus(entry: PlannedFile): ProposeResponse['files'][number] {
  switch (entry.kind) {
    case 'review':
      return { path: entry.path, status: 'pending', disk: entry.disk };
    case 'unchanged':
      return { path: entry.path, status: 'pending', disk: 'old_side', reason: 'already as proposed' };
    case 'skipped':
      return {
        path: entry.path,
        status: entry.status,
        disk: entry.disk,
        reason: entry.reason,
        code: entry.code,
      };
  }
}

function toProposedFile(entry: ReviewedFile, writer: Writer): ProposedFile {
  return {
    path: entry.real,
    base: entry.base,
    proposedText: entry.proposedText,
    ...(entry.onDisk && { onDisk: entry.onDisk }),
    ...(entry.otherBase && { otherBase: entry.otherBase }),
    // DiffTray writes nothing of this client's: a change it already wrote is its own to put back.
    ...(writer !== 'difftray' && { clientWrites: true }),
  };
}

/** The review's description: rationale, acceptance criteria, and what the person should know about the files. */
function describe(
  payload: ProposePayload,
  planned: readonly PlannedFile[],
  writer: Writer,
): string | undefined {
  const parts: string[] = [];
  if (payload.rationale?.trim()) parts.push(payload.rationale.trim());
  const criteria = (payload.acceptance_criteria ?? []).map((c) => c.trim()).filter(Boolean);
  if (criteria.length > 0) parts.push(`Acceptance criteria:\n${criteria.map((c) => `- ${c}`).join('\n')}`);
  const written = planned.filter((entry) => entry.kind === 'review' && entry.disk === 'new_side');
  if (written.length > 0) {
    // A client that writes its own files puts back what it wrote: DiffTray reverts nothing of it.
    const rejected =
      writer === 'difftray' ? 'rejected hunks are reverted on disk' : 'the agent is told what was rejected';
    parts.push(`Already written by the agent (${rejected}): ${written.map((e) => e.path).join(', ')}`);
  }
  const deleted = planned.filter((entry) => entry.kind === 'review' && entry.deletes);
  if (deleted.length > 0) {
    parts.push(
      `Deleted by this change (accepted whole, the file is removed): ${deleted.map((e) => e.path).join(', ')}`,
    );
  }
  const left = planned.filter((entry): entry is SkippedFile => entry.kind === 'skipped');
  if (left.length > 0) parts.push(`Left out: ${left.map((e) => `${e.path} (${e.reason})`).join(', ')}`);
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}
