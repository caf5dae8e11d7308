/**
 * `difftray review` against a paired DiffTray on another machine: that DiffTray cannot read this host's
 * files, so the patch is turned into full texts here (each file judged against this host's disk, as the
 * app does locally), sent with `before` and `after`, and the decided texts DiffTray answers are written
 * here, by this process:
 * - accepted: the composed text (`final_text`) is written, only if the file still holds what was read;
 * - rejected, for a change already on disk: the old side is put back (a created file removed);
 * - a file that matches neither side is a conflict, reported and not sent.
 *
 * Files are read and written with core's own guards, as the app reads and writes its workspace's: only
 * a regular file is read (a FIFO or device is left out, never opened to wait on), and the answer is
 * written by FileWriter into the folder the file was read in, as it was then: a symlink swapped in at
 * its name, or a folder on its way swapped for a link, while the review waits is not written through.
 */
import path from 'node:path';
import type { ChangeSetResult, FileResult } from '../../shared/native-protocol';
import { judgeDisk, neitherSideReason, parseUnifiedDiff } from '../../shared/unified-diff';
import { FileWriter } from '../core/disk/file-writer';
import { describeTarget, settleFile, type DiskFile, type FileDecision } from '../core/disk/disk-policy';
import { readDiskSnapshot, type DiskSnapshot } from '../core/disk/disk-snapshot';
import { isInside, resolveRealPath } from '../core/workspace/workspace-paths';
import { isProcessAlive } from '../core/clients/process-info';
import { recoverLeftovers, WriteJournal } from '../core/undo/write-journal';
import { messageOf } from '../../shared/error-message';

/** One file sent for review, and what this host's disk held when it was read. */
export interface RemoteFile {
  /** As in the patch (what is printed). */
  shown: string;
  /** Absolute, on this host (what is sent, and what DiffTray's answer names). */
  file: string;
  /** Its real path when it was read: where the answer is written. */
  real: string;
  side: 'old' | 'new';
  before: string | null;
  after: string | null;
  /** The file as read. */
  disk: DiskSnapshot;
}

export interface RemotePlan {
  files: RemoteFile[];
  /** Files left out, one printable line each (conflicts, binary, unreadable). */
  leftOut: string[];
}

/**
 * The patch's files under `baseDir` (the folder the review runs in: the git top level or the current
 * folder). This host has no workspace, so that folder is the boundary a local DiffTray's workspace would
 * be: a path that leaves it (`../`, absolute elsewhere, or through a link pointing out) is left out.
 */
export async function planRemoteReview(patch: string, baseDir: string): Promise<RemotePlan> {
  const files: RemoteFile[] = [];
  const leftOut: string[] = [];
  const boundary = resolveRealPath(path.resolve(baseDir));
  for (const entry of parseUnifiedDiff(patch)) {
    if (entry.binary) {
      leftOut.push(`${'error'.padEnd(8)} ${entry.path}: a binary change; DiffTray reviews text`);
      continue;
    }
    if (entry.hunks.length === 0 && entry.oldExists && entry.newExists) continue;
    const file = path.resolve(baseDir, entry.path);
    let real: string;
    let disk: DiskSnapshot;
    try {
      real = resolveRealPath(file);
      if (!isInside(boundary, real)) {
        leftOut.push(`${'error'.padEnd(8)} ${entry.path}: outside ${boundary}, the folder of this review`);
        continue;
      }
      disk = await readDiskSnapshot(real);
    } catch (error) {
      leftOut.push(`${'error'.padEnd(8)} ${entry.path}: ${messageOf(error)}`);
      continue;
    }
    if (disk.exists && disk.kind !== 'text') {
      leftOut.push(`${'error'.padEnd(8)} ${entry.path}: ${disk.why}; DiffTray reviews text`);
      continue;
    }
    const judged = judgeDisk(entry, disk.exists ? disk.text : undefined);
    if (judged.side === 'neither') {
      leftOut.push(`${'conflict'.padEnd(8)} ${entry.path}: ${neitherSideReason(judged)}`);
      continue;
    }
    files.push({
      shown: entry.path,
      file,
      real,
      side: judged.side,
      before: judged.oldText ?? null,
      after: judged.newText ?? null,
      disk,
    });
  }
  return { files, leftOut };
}

/**
 * Writes what DiffTray decided, file by file; the result is rewritten to say what happened here. Each
 * write is noted in `journalDir` (this host's `~/.difftray/writes`) while its temp file exists, and what
 * an earlier run killed mid-write left there is cleaned up first, as the app does at start.
 */
export async function applyRemoteResult(
  plan: RemotePlan,
  result: ChangeSetResult,
  journalDir: string,
  log: (message: string) => void,
): Promise<ChangeSetResult> {
  const byPath = new Map(plan.files.map((file) => [file.file, file]));
  await recoverLeftovers(journalDir, isProcessAlive, log);
  // This host has no workspace: each file is bound to the folder it was read in (`within` below).
  const roots = [...new Set(plan.files.map((file) => path.parse(file.real).root))];
  const applier = new FileWriter(roots, new WriteJournal(journalDir));
  const files: FileResult[] = [];
  for (const answer of result.files) files.push(await applyFile(applier, byPath.get(answer.path), answer));
  return { ...result, files };
}

async function applyFile(
  applier: FileWriter,
  sent: RemoteFile | undefined,
  answer: FileResult,
): Promise<FileResult> {
  if (!sent) return answer;
  const shown = { ...answer, path: sent.shown };
  const decision = decisionOf(answer, sent);
  if (!decision) return shown;
  // This host has no workspace: the answer is written only into the folder the file was read in.
  const file: DiskFile = {
    path: sent.real,
    base: sent.before === null ? { exists: false } : { exists: true, kind: 'text', text: sent.before },
    deletes: decision.kind === 'accepted' && answer.final_text === null,
    within: [path.dirname(sent.real)],
    ...(sent.side === 'new' && { written: sent.disk }),
  };
  const settled = await settleFile(applier, file, decision, 'difftray');
  switch (settled.kind) {
    case 'written': {
      const { final_text: _final, ...rest } = shown;
      return {
        ...rest,
        status: 'applied',
        ...describeTarget(settled.target),
        ...(settled.reverted && { reverted: true }),
      };
    }
    case 'reverted':
      return { ...shown, reverted: true };
    case 'failed': {
      const reason =
        settled.during === 'reverting' ? `rejected; not reverted: ${settled.reason}` : settled.reason;
      return { ...shown, status: 'conflict', reason };
    }
    default:
      return shown;
  }
}

/**
 * What DiffTray decided on a file, as this host's disk policy takes it: accepted with the text to
 * write (null: no file), rejected; none for a cancelled review (nothing is reverted) or another answer.
 */
function decisionOf(answer: FileResult, sent: RemoteFile): FileDecision | undefined {
  if (answer.status === 'accepted' && answer.final_text !== undefined) {
    // A text is handed back only for a change, and only if the file still holds what was read here.
    const composed = { changed: true, finalText: answer.final_text ?? '', expectedOnDisk: sent.disk };
    return { kind: 'accepted', composed };
  }
  if (answer.status === 'rejected' && !answer.reason?.startsWith('cancelled')) return { kind: 'rejected' };
  return undefined;
}
