/**
 * A decided review carried out on disk in one call: its outcome turned into a decision per file, each
 * file settled by the disk policy (disk-policy.ts) in order, what the writer refused and whether a change
 * already on disk was reverted noted in History, and the review's summary (its hunks with their
 * decisions) read once it ended. The adapter that asked gets it all back to translate for its client;
 * it never goes back to the queue or the writer itself.
 */
import type { ReviewSummary } from '../../../shared/app-api';
import type { FileWriter } from '../disk/file-writer';
import {
  revertOf,
  settleFile,
  type DiskFile,
  type FileDecision,
  type FileSettlement,
  type WhoWrites,
} from '../disk/disk-policy';
import type { ReviewOutcome, ReviewQueue } from './review-queue';

/** A file of the review, and the name its client gave it (History's notes use it). */
export type NamedDiskFile = DiskFile & { name: string };

export interface SettledReview {
  /** The review as decided, with every hunk; undefined once it is gone from History. */
  summary: ReviewSummary | undefined;
  /** One per file, in the review's order. */
  files: FileSettlement[];
}

/** The decision on the review's file at `index`. */
export function decisionOf(outcome: ReviewOutcome, index: number, name: string): FileDecision {
  if (outcome.kind === 'rejected') return { kind: 'rejected' };
  if (outcome.kind !== 'accepted') return { kind: 'cancelled' };
  const composed = outcome.files[index];
  if (!composed) throw new Error(`No decided text for ${name}`);
  return { kind: 'accepted', composed };
}

/** Why the review ended without being accepted: its reason, 'superseded', or none. */
export function outcomeReason(outcome: ReviewOutcome): string | undefined {
  if (outcome.kind === 'rejected' || outcome.kind === 'cancelled') return outcome.reason;
  return outcome.kind === 'superseded' ? 'superseded' : undefined;
}

/**
 * Why a file was not written, as the client and History are told: a file changed meanwhile in the same
 * words whatever the writer saw; a revert that failed after the review's own reason.
 */
export function failureReason(failed: FileSettlement & { kind: 'failed' }, outcome: ReviewOutcome): string {
  const why =
    failed.status === 'conflict' ? 'changed on disk since it was reviewed; not written' : failed.reason;
  if (failed.during !== 'reverting') return why;
  return `${outcomeReason(outcome) ?? 'rejected'}; not reverted: ${why}`;
}

/**
 * Carries out review `id`'s `outcome` on `files` (the review's files, in its order) as `who` writes;
 * each file refused or failed gets a note in History, and each already-written file what became of its
 * revert.
 */
export async function settleReview(
  core: { queue: Pick<ReviewQueue, 'find' | 'addNote' | 'noteRevert'>; writer: FileWriter },
  id: string,
  outcome: ReviewOutcome,
  files: readonly NamedDiskFile[],
  who: WhoWrites,
): Promise<SettledReview> {
  const summary = core.queue.find(id);
  const settled: FileSettlement[] = [];
  for (const [index, file] of files.entries()) {
    const decision = decisionOf(outcome, index, file.name);
    const result = await settleFile(core.writer, file, decision, who, { reviewId: id });
    if (result.kind === 'failed') core.queue.addNote(id, `${file.name}: ${failureReason(result, outcome)}`);
    const revert = revertOf(file, decision, result);
    if (revert) core.queue.noteRevert(id, file.path, revert);
    settled.push(result);
  }
  return { summary, files: settled };
}
