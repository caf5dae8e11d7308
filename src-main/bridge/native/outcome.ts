/**
 * From a review's outcome to the disk and to the `change_set_result` a client receives.
 *
 * DiffTray writes native change sets itself, file by file, through core's one writer (core/apply-outcome.ts:
 * confined to the workspace at the moment of writing, only if the file still holds what was reviewed,
 * temp file + rename, permission bits kept); a file changed meanwhile is reported as a conflict and left
 * alone.
 *
 * - Accepted: each file gets the text composed from the person's decisions. For a change the agent had
 *   already written, that puts back the rejected hunks; with everything accepted nothing is written
 *   (the disk is only checked). A deletion (a diff to /dev/null, `after: null`) accepted whole deletes
 *   the file; accepted in part, the file keeps the accepted lines.
 * - Rejected (or every hunk rejected): files not yet written stay as they are; a change the agent had
 *   already written is reverted to the diff's old side (a file it created is removed again).
 * - Cancelled (the client went away, cancel_review): nothing is written, nothing reverted.
 */
import type { ReviewFileSummary, ReviewSummary } from '../../../shared/app-api';
import { combinedState } from '../../../shared/line-decisions';
import type { ApplyFailureCode, ApplyResult, FileApplier } from '../../core/apply-outcome';
import { hashBytes, sameContent, type DiskSnapshot } from '../../core/disk-snapshot';
import type { FinalFile, ReviewOutcome } from '../../core/review-queue';
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

const ABSENT: DiskSnapshot = { exists: false };

/**
 * Who writes the accepted text (propose_change_set's `writer`). 'remote': a paired client, whose files
 * are on its own host; as 'client', but nothing here is even looked at (remote-change-set.ts).
 */
export type Writer = 'difftray' | 'client' | 'remote';

/**
 * Carries out `outcome` on disk and describes it, file by file, in the order the client gave them.
 * With `writer: 'client'` nothing is written or reverted: each accepted file carries `final_text`.
 */
export async function settleChangeSet(
  files: FileApplier,
  reviewId: string,
  planned: readonly PlannedFile[],
  outcome: ReviewOutcome,
  summary: ReviewSummary | undefined,
  writer: Writer = 'difftray',
): Promise<ChangeSetResult> {
  const kind = outcome.kind === 'superseded' ? 'cancelled' : outcome.kind;
  const reason =
    outcome.kind === 'rejected' || outcome.kind === 'cancelled'
      ? outcome.reason
      : outcome.kind === 'superseded'
        ? 'superseded'
        : undefined;
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
    const hunks = hunkResults(summary?.files[index], kind, entry.patchHunks);
    const common = { path: entry.path, disk: entry.disk, hunks };
    if (outcome.kind === 'accepted') {
      const final = outcome.files[index];
      if (!final) throw new Error(`No decided text for ${entry.path}`);
      const settled =
        writer === 'difftray'
          ? await settleAccepted(files, entry, final, reviewId)
          : await handOver(files, entry, final, writer);
      results.push({ ...common, ...settled });
    } else if (outcome.kind === 'rejected' && writer !== 'difftray') {
      results.push({ ...common, status: 'rejected', reason: reason ?? 'rejected' });
    } else if (outcome.kind === 'rejected') {
      results.push({ ...common, ...(await settleRejected(files, entry, reason, reviewId)) });
    } else {
      const note = entry.disk === 'new_side' ? "; the agent's change is still on disk" : '';
      results.push({ ...common, status: 'rejected', reason: `cancelled: ${reason ?? 'cancelled'}${note}` });
    }
  }
  return {
    review_id: reviewId,
    status: changeSetStatus(kind, results),
    ...(reason !== undefined && { reason }),
    ...(outcome.kind === 'accepted' && outcome.note !== undefined && { note: outcome.note }),
    files: results,
  };
}

type Settled = Pick<
  FileResult,
  'status' | 'reason' | 'code' | 'applied_hash' | 'deleted' | 'reverted' | 'final_text'
>;

/**
 * The client writes: it gets the composed text (null: delete the file), and DiffTray touches nothing.
 * A local client's file is checked at the moment of handing over, as the writer checks before writing
 * (confined to the workspace, a regular file, still what was reviewed): a symlink or FIFO swapped in
 * meanwhile, or an edit made on disk, gets no text to write. A paired client's file is on its own host:
 * this machine's disk is not involved.
 */
async function handOver(
  files: FileApplier,
  file: ReviewedFile,
  final: FinalFile,
  writer: 'client' | 'remote',
): Promise<Settled> {
  if (!final.changed) return { status: 'rejected', reason: 'every hunk rejected' };
  if (writer === 'client') {
    const checked = await putOnDisk(files, file.real, final.expectedOnDisk, final.expectedOnDisk);
    if (checked !== 'ok') return checked;
  }
  const deletes = file.deletes && final.finalText === '';
  return { status: 'accepted', final_text: deletes ? null : final.finalText };
}

async function settleAccepted(
  files: FileApplier,
  file: ReviewedFile,
  final: FinalFile,
  reviewId: string,
): Promise<Settled> {
  const expected = final.expectedOnDisk;
  if (!final.changed && file.disk === 'old_side')
    return { status: 'rejected', reason: 'every hunk rejected' };
  const target: DiskSnapshot = !final.changed
    ? file.base
    : file.deletes && final.finalText === ''
      ? ABSENT
      : { exists: true, kind: 'text', text: final.finalText };
  const written = await putOnDisk(files, file.real, expected, target, reviewId);
  if (written !== 'ok') return written;
  const reverted = file.disk === 'new_side' && !sameContent(target, expected);
  return {
    status: final.changed ? 'applied' : 'rejected',
    ...(!final.changed && { reason: 'every hunk rejected' }),
    ...describeTarget(target),
    ...(reverted && { reverted: true }),
  };
}

async function settleRejected(
  files: FileApplier,
  file: ReviewedFile,
  reason: string | undefined,
  reviewId: string,
): Promise<Settled> {
  const why = reason ?? 'rejected';
  if (file.disk === 'old_side') return { status: 'rejected', reason: why };
  const written = await putOnDisk(files, file.real, file.onDisk!, file.base, reviewId);
  if (written !== 'ok') {
    return { ...written, reason: `${why}; not reverted: ${written.reason}` };
  }
  return { status: 'rejected', reason: why, ...describeTarget(file.base), reverted: true };
}

function describeTarget(target: DiskSnapshot): Pick<FileResult, 'applied_hash' | 'deleted'> {
  if (!target.exists) return { deleted: true };
  return target.kind === 'text' ? { applied_hash: hashBytes(Buffer.from(target.text, 'utf8')) } : {};
}

/**
 * Makes the file `target` if it still is `expected`: written, deleted, or (already so) only checked.
 * With `reviewId`, what is written is journaled for undo.
 */
async function putOnDisk(
  files: FileApplier,
  file: string,
  expected: DiskSnapshot,
  target: DiskSnapshot,
  reviewId?: string,
): Promise<'ok' | (Settled & { status: 'conflict' | 'error' })> {
  const result: ApplyResult = await files.apply({
    path: file,
    expected,
    target,
    ...(reviewId !== undefined && { reviewId }),
  });
  if (result.status === 'applied') return 'ok';
  if (result.status === 'conflict') {
    return {
      status: 'conflict',
      code: ErrorCode.CONFLICT,
      reason: 'changed on disk since it was reviewed; not written',
    };
  }
  return { status: 'error', code: nativeErrorCode(result.code), reason: result.reason };
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
