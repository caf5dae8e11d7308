/**
 * A settled review in the native protocol's words: the `change_set_result` a client receives.
 *
 * What the decision did on disk is core's (core/disk/disk-policy.ts, carried out by core/review/settle-review.ts);
 * this says it file by file, in the order the client gave them, with each file's hunks and decisions.
 * Files refused before review and files that already were as proposed are answered as planned.
 */
import type { ReviewFileSummary } from '../../../shared/app-api';
import { combinedState } from '../../../shared/line-decisions';
import type { ApplyFailureCode } from '../../core/disk/file-writer';
import {
  describeTarget,
  type DiskFile,
  type FileSettlement,
  type WhoWrites,
} from '../../core/disk/disk-policy';
import { hashBytes } from '../../core/disk/disk-snapshot';
import type { ReviewOutcome } from '../../core/review/review-queue';
import {
  failureReason,
  outcomeReason,
  type NamedDiskFile,
  type SettledReview,
} from '../../core/review/settle-review';
import type { PlannedFile, ReviewedFile } from './change-set';
import {
  ErrorCode,
  type ChangeSetResult,
  type ChangeSetStatus,
  type FileResult,
  type HunkResult,
  type HunkResultDecision,
} from '../../../shared/native-protocol';
import { patchHunkAt } from '../../../shared/unified-diff';

/**
 * Who writes the accepted text (propose_change_set's `writer`). 'remote': a paired client, whose files
 * are on its own host; as 'client', but nothing here is even looked at (remote-change-set.ts).
 */
export type Writer = WhoWrites;

/** A reviewed file as the disk policy sees it: written already when the disk held the new side. */
export function diskFileOf(file: ReviewedFile): NamedDiskFile {
  const disk: DiskFile = {
    path: file.real,
    base: file.base,
    deletes: file.deletes,
    ...(file.disk === 'new_side' && file.onDisk && { written: file.onDisk }),
  };
  return { ...disk, name: file.path };
}

/**
 * The result for `planned`, whose reviewed files were settled as `settled` says (in their order).
 */
export function changeSetResult(
  reviewId: string,
  planned: readonly PlannedFile[],
  outcome: ReviewOutcome,
  settled: SettledReview,
): ChangeSetResult {
  const kind = outcome.kind === 'superseded' ? 'cancelled' : outcome.kind;
  const reason = outcomeReason(outcome);
  const results: FileResult[] = [];
  let reviewIndex = 0;
  for (const entry of planned) {
    if (entry.kind === 'skipped') {
      results.push({
        path: entry.path,
        status: entry.status,
        code: entry.code,
        reason: entry.reason,
        disk: entry.disk,
        hunks: [],
      });
      continue;
    }
    if (entry.kind === 'unchanged') {
      results.push({
        path: entry.path,
        status: 'applied',
        reason: 'already as proposed',
        ...(entry.text === undefined
          ? { deleted: true }
          : { applied_hash: hashBytes(Buffer.from(entry.text, 'utf8')) }),
        disk: 'old_side',
        hunks: [],
      });
      continue;
    }
    const index = reviewIndex++;
    const settlement = settled.files[index];
    if (!settlement) throw new Error(`No settled result for ${entry.path}`);
    const hunks = hunkResults(settled.summary?.files[index], kind, entry.patchHunks);
    results.push({ path: entry.path, disk: entry.disk, hunks, ...fileResult(entry, settlement, outcome) });
  }
  return {
    review_id: reviewId,
    status: changeSetStatus(kind, results),
    ...(reason !== undefined && { reason }),
    ...(outcome.kind === 'accepted' && outcome.note !== undefined && { note: outcome.note }),
    ...commentsOf(outcome, planned),
    files: results,
  };
}

/** The outcome's comments, each naming its file as the client did (core names it by its real path). */
function commentsOf(
  outcome: ReviewOutcome,
  planned: readonly PlannedFile[],
): Pick<ChangeSetResult, 'comments'> {
  if ((outcome.kind !== 'accepted' && outcome.kind !== 'rejected') || !outcome.comments) return {};
  const given = new Map<string, string>();
  for (const entry of planned) if (entry.kind === 'review') given.set(entry.real, entry.path);
  return {
    comments: outcome.comments.map((comment) => ({
      ...comment,
      path: given.get(comment.path) ?? comment.path,
    })),
  };
}

type Settled = Pick<
  FileResult,
  'status' | 'reason' | 'code' | 'applied_hash' | 'deleted' | 'reverted' | 'final_text'
>;

/** One reviewed file's status, as the disk policy settled it. */
function fileResult(entry: ReviewedFile, settlement: FileSettlement, outcome: ReviewOutcome): Settled {
  const reason = outcomeReason(outcome) ?? outcome.kind;
  switch (settlement.kind) {
    case 'left':
      if (settlement.why === 'nothing accepted') return { status: 'rejected', reason: 'every hunk rejected' };
      if (settlement.why === 'rejected') return { status: 'rejected', reason };
      return {
        status: 'rejected',
        reason: `cancelled: ${reason}${entry.disk === 'new_side' ? "; the agent's change is still on disk" : ''}`,
      };
    case 'handed':
      return { status: 'accepted', final_text: settlement.text };
    case 'written':
      return {
        status: settlement.changed ? 'applied' : 'rejected',
        ...(!settlement.changed && { reason: 'every hunk rejected' }),
        ...describeTarget(settlement.target),
        ...(settlement.reverted && { reverted: true }),
      };
    case 'reverted':
      return { status: 'rejected', reason, ...describeTarget(settlement.target), reverted: true };
    case 'failed':
      return {
        status: settlement.status === 'conflict' ? 'conflict' : 'error',
        code: settlement.status === 'conflict' ? ErrorCode.CONFLICT : nativeErrorCode(settlement.code),
        reason: failureReason(settlement, outcome),
      };
  }
}

/** The numbered native code for a change the core refused or could not make. */
function nativeErrorCode(code: ApplyFailureCode): ErrorCode {
  if (code === 'outside_workspace') return ErrorCode.OUTSIDE_WORKSPACE;
  if (code === 'not_text') return ErrorCode.BINARY_FILE;
  return ErrorCode.WRITE_FAILED;
}

/**
 * The hunks of one file with their decisions. Lines left undecided at submit count as accepted (that is
 * what submit composes); a rejected or cancelled review rejects every hunk.
 */
export function hunkResults(
  file: ReviewFileSummary | undefined,
  kind: 'accepted' | 'rejected' | 'cancelled',
  patchHunks?: Parameters<typeof patchHunkAt>[0],
): HunkResult[] {
  if (!file) return [];
  return file.hunks.map((hunk) => {
    let decision: HunkResultDecision;
    if (kind !== 'accepted') decision = 'rejected';
    else if (hunk.decision === 'mixed' && hunk.lines) {
      const lines = [...hunk.lines.removed, ...hunk.lines.added].map((d) =>
        d === 'pending' ? 'accepted' : d,
      );
      decision = combinedState(lines) as HunkResultDecision;
    } else decision = hunk.decision === 'rejected' ? 'rejected' : 'accepted';
    const patchHunk = patchHunks ? patchHunkAt(patchHunks, hunk.baseStart, hunk.baseEnd) : undefined;
    return {
      index: hunk.index,
      base_start: hunk.baseStart,
      base_end: hunk.baseEnd,
      proposed_start: hunk.proposedStart,
      proposed_end: hunk.proposedEnd,
      decision,
      ...(patchHunk !== undefined && { patch_hunk: patchHunk }),
    };
  });
}

/**
 * accepted: every file applied with every hunk; rejected: nothing applied; partially_accepted: the rest
 * (some hunks or files rejected, or files left out as conflicts).
 */
export function changeSetStatus(
  kind: 'accepted' | 'rejected' | 'cancelled',
  files: readonly FileResult[],
): ChangeSetStatus {
  if (kind !== 'accepted') return kind;
  const taken = (file: FileResult) => file.status === 'applied' || file.status === 'accepted';
  if (!files.some(taken)) return 'rejected';
  const whole = files.every(
    (file) => taken(file) && file.hunks.every((hunk) => hunk.decision === 'accepted'),
  );
  return whole ? 'accepted' : 'partially_accepted';
}
