/**
 * What a decision does on disk, for every client alike: keep, revert, write, delete, or hand the text
 * back for the client to write. Adapters describe each file (its base, what is on disk if the change is
 * already there, whether the proposal deletes it) and the decision; this decides the one write it
 * takes and makes it through the one writer (file-writer.ts), which checks the path and the disk at
 * the moment of writing. What comes back says what happened, in no protocol's words: each adapter
 * translates it for its wire.
 *
 * - Accepted: the composed text is written (no file, for a deletion composed to nothing). For a change
 *   the agent had already written, that puts back the rejected lines; accepted whole, the disk is only
 *   checked. A change not yet written with nothing of it accepted is left alone.
 * - Rejected: a change not yet written is left alone; one already written is reverted to the base (a
 *   file it created is removed again), only while the file still holds what was written.
 * - Cancelled: nothing is written, nothing reverted.
 * - When the client writes ('client', 'remote'), DiffTray writes nothing: an accepted file's composed
 *   text is handed back. A local client's file is checked first, as the writer would before writing
 *   (confined, a regular file, still what was reviewed), so a file swapped or edited meanwhile gets no
 *   text to write; a paired client's file is on its own host, and this machine's disk is not looked at.
 */
import type { ApplyFailureCode, ApplyRequest, FileWriter } from './file-writer';
import { hashBytes, sameContent, type DiskSnapshot } from './disk-snapshot';
import type { FinalFile } from '../review/review-file';

/**
 * Who writes the accepted text. 'difftray': DiffTray, through its writer; 'client': the local client,
 * handed the text; 'remote': a paired client, whose files are on its own host.
 */
export type WhoWrites = 'difftray' | 'client' | 'remote';

/** One file of a decided review, as its disk policy needs it. */
export interface DiskFile {
  /** The file's real path. */
  path: string;
  /** The file before the change: what a revert puts back. */
  base: DiskSnapshot;
  /** What the change left on disk, when it is already there (an agent wrote it); absent: disk holds base. */
  written?: DiskSnapshot;
  /** The proposed side is no file: accepted, a change composed to nothing deletes the file. */
  deletes: boolean;
  /** Folders the file must also lie in at the moment of writing (see ApplyRequest.within). */
  within?: readonly string[];
}

/** The person's decision on one file; `composed` is what its accepted decisions make of it. */
export type FileDecision =
  | { kind: 'accepted'; composed: Pick<FinalFile, 'expectedOnDisk' | 'changed' | 'finalText'> }
  | { kind: 'rejected' }
  | { kind: 'cancelled' };

export type FileSettlement =
  /** Nothing on disk was touched: rejected before it was written, cancelled, or nothing of it accepted. */
  | { kind: 'left'; why: 'rejected' | 'cancelled' | 'nothing accepted' }
  /** The client writes this (null: no file); DiffTray wrote nothing. */
  | { kind: 'handed'; text: string | null }
  /**
   * Accepted, and the file now is `target` (only checked when it already was). `changed` false: nothing
   * of an already written change was accepted, so `target` is its base. `reverted`: rejected lines of
   * an already written change were put back.
   */
  | { kind: 'written'; target: DiskSnapshot; changed: boolean; reverted: boolean }
  /** Rejected: a change already written was put back to its base. */
  | { kind: 'reverted'; target: DiskSnapshot }
  /** The writer refused or failed: the file was left as it was. */
  | {
      kind: 'failed';
      during: 'writing' | 'reverting' | 'checking';
      status: 'conflict' | 'refused' | 'error';
      code: ApplyFailureCode;
      reason: string;
    };

export interface SettleOptions {
  /** The review the write carries out: journaled for undo. */
  reviewId?: string;
  /** Told what the file is about to become, just before DiffTray writes it (watch mode's baselines). */
  beforeWrite?: (target: DiskSnapshot) => void;
}

const ABSENT: DiskSnapshot = { exists: false };

/** Carries out `decision` on `file` as `who` writes, and says what happened. */
export async function settleFile(
  files: FileWriter,
  file: DiskFile,
  decision: FileDecision,
  who: WhoWrites,
  options: SettleOptions = {},
): Promise<FileSettlement> {
  if (decision.kind === 'cancelled') return { kind: 'left', why: 'cancelled' };
  if (decision.kind === 'rejected') {
    if (who !== 'difftray' || !file.written) return { kind: 'left', why: 'rejected' };
    const failed = await put(files, file, file.written, file.base, 'reverting', options);
    return failed ?? { kind: 'reverted', target: file.base };
  }
  const { composed } = decision;
  if (who !== 'difftray') {
    if (!composed.changed) return { kind: 'left', why: 'nothing accepted' };
    if (who === 'client') {
      // Only checked (the target is what is there): nothing is written, nor journaled.
      const expected = composed.expectedOnDisk;
      const failed = await put(files, file, expected, expected, 'checking', {});
      if (failed) return failed;
    }
    return { kind: 'handed', text: file.deletes && composed.finalText === '' ? null : composed.finalText };
  }
  if (!composed.changed && !file.written) return { kind: 'left', why: 'nothing accepted' };
  const target = composedTarget(file, composed);
  const expected = composed.expectedOnDisk;
  const failed = await put(files, file, expected, target, 'writing', options);
  if (failed) return failed;
  const reverted = file.written !== undefined && !sameContent(target, expected);
  return { kind: 'written', target, changed: composed.changed, reverted };
}

/**
 * What became of the rejected part of a change already on disk, as History says it (ReviewFileInfo's
 * `revert`): put back, or not (a conflict: the file changed since it was reviewed; or a failure).
 * Undefined when nothing of it was DiffTray's to put back: not written before the review, cancelled,
 * accepted whole, or the client writes it.
 */
export function revertOf(
  file: DiskFile,
  decision: FileDecision,
  settled: FileSettlement,
): 'reverted' | 'conflict' | 'failed' | undefined {
  if (!file.written) return undefined;
  if (settled.kind === 'reverted' || (settled.kind === 'written' && settled.reverted)) return 'reverted';
  // A check for a client that writes (during 'checking') was never a revert.
  if (settled.kind !== 'failed' || settled.during === 'checking') return undefined;
  if (!revertWanted(file, decision)) return undefined;
  return settled.status === 'conflict' ? 'conflict' : 'failed';
}

/** Whether the decision puts back something of a change already written: rejected, or accepted in part. */
function revertWanted(file: DiskFile, decision: FileDecision): boolean {
  if (decision.kind !== 'accepted') return decision.kind === 'rejected';
  const { composed } = decision;
  return !sameContent(composedTarget(file, composed), composed.expectedOnDisk);
}

/** What an accepted file becomes: its base when nothing changed, no file for a deletion, else the text. */
function composedTarget(file: DiskFile, composed: Pick<FinalFile, 'changed' | 'finalText'>): DiskSnapshot {
  if (!composed.changed) return file.base;
  if (file.deletes && composed.finalText === '') return ABSENT;
  return { exists: true, kind: 'text', text: composed.finalText };
}

/** Makes the file `target` if it still is `expected`; undefined when done, else why not. */
async function put(
  files: FileWriter,
  file: DiskFile,
  expected: DiskSnapshot,
  target: DiskSnapshot,
  during: 'writing' | 'reverting' | 'checking',
  { reviewId, beforeWrite }: SettleOptions,
): Promise<(FileSettlement & { kind: 'failed' }) | undefined> {
  beforeWrite?.(target);
  const request: ApplyRequest = {
    path: file.path,
    expected,
    target,
    ...(file.within && { within: file.within }),
    ...(reviewId !== undefined && { reviewId }),
  };
  const result = await files.apply(request);
  if (result.status === 'applied') return undefined;
  return { kind: 'failed', during, status: result.status, code: result.code, reason: result.reason };
}

/** The sha256 of a text target, or that it is deleted: how clients are told what is now on disk. */
export function describeTarget(target: DiskSnapshot): { applied_hash?: string; deleted?: true } {
  if (!target.exists) return { deleted: true };
  return target.kind === 'text' ? { applied_hash: hashBytes(Buffer.from(target.text, 'utf8')) } : {};
}
