/**
 * `difftray review` against a paired DiffTray on another machine: that DiffTray cannot read this host's
 * files, so the patch is turned into full texts here (each file judged against this host's disk, as the
 * app does locally), sent with `before` and `after`, and the decided texts DiffTray answers are written
 * here, by this process:
 * - accepted: the composed text (`final_text`) is written, only if the file still holds what was read;
 * - rejected, for a change already on disk: the old side is put back (a created file removed);
 * - a file that matches neither side is a conflict, reported and not sent.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChangeSetResult, FileResult } from '../../shared/native-protocol';
import { judgeDisk, parseUnifiedDiff } from '../../shared/unified-diff';
import { CliError } from './errors';

/** One file sent for review, and what this host's disk held when it was read. */
export interface RemoteFile {
  /** As in the patch (what is printed). */
  shown: string;
  /** Absolute, on this host (what is sent, and where the answer is written). */
  file: string;
  side: 'old' | 'new';
  before: string | null;
  after: string | null;
  /** The file as read (null: no file). */
  disk: string | null;
}

export interface RemotePlan {
  files: RemoteFile[];
  /** Files left out, one printable line each (conflicts, binary, unreadable). */
  leftOut: string[];
}

export function planRemoteReview(patch: string, baseDir: string): RemotePlan {
  const files: RemoteFile[] = [];
  const leftOut: string[] = [];
  for (const entry of parseUnifiedDiff(patch)) {
    if (entry.binary) {
      leftOut.push(`${'error'.padEnd(8)} ${entry.path}: a binary change; DiffTray reviews text`);
      continue;
    }
    if (entry.hunks.length === 0 && entry.oldExists && entry.newExists) continue;
    const file = path.resolve(baseDir, entry.path);
    let disk: string | null;
    try {
      disk = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        leftOut.push(`${'error'.padEnd(8)} ${entry.path}: ${(error as Error).message}`);
        continue;
      }
      disk = null;
    }
    const judged = judgeDisk(entry, disk ?? undefined);
    if (judged.side === 'neither') {
      const why = judged.why === 'missing' ? 'not found on disk' : 'changed on disk since the diff was made';
      leftOut.push(`${'conflict'.padEnd(8)} ${entry.path}: ${why}`);
      continue;
    }
    files.push({
      shown: entry.path,
      file,
      side: judged.side,
      before: judged.oldText ?? null,
      after: judged.newText ?? null,
      disk,
    });
  }
  return { files, leftOut };
}

/** Writes what DiffTray decided, file by file; the result is rewritten to say what happened here. */
export function applyRemoteResult(plan: RemotePlan, result: ChangeSetResult): ChangeSetResult {
  const byPath = new Map(plan.files.map((file) => [file.file, file]));
  const files = result.files.map((answer): FileResult => {
    const sent = byPath.get(answer.path);
    if (!sent) return answer;
    const shown = { ...answer, path: sent.shown };
    if (answer.status === 'accepted' && answer.final_text !== undefined) {
      const written = putIfUnchanged(sent, answer.final_text);
      if (written) return { ...shown, status: 'conflict', reason: written };
      const { final_text: _final, ...rest } = shown;
      return {
        ...rest,
        status: 'applied',
        ...(answer.final_text === null ? { deleted: true } : { applied_hash: sha256(answer.final_text) }),
        ...(sent.side === 'new' && answer.final_text !== sent.after && { reverted: true }),
      };
    }
    if (answer.status === 'rejected' && sent.side === 'new' && !answer.reason?.startsWith('cancelled')) {
      const reverted = putIfUnchanged(sent, sent.before);
      if (reverted) return { ...shown, status: 'conflict', reason: `rejected; not reverted: ${reverted}` };
      return { ...shown, reverted: true };
    }
    return shown;
  });
  return { ...result, files };
}

/** Makes the file `text` (null: no file) if it still holds what was read; else says why not. */
function putIfUnchanged(sent: RemoteFile, text: string | null): string | undefined {
  let now: string | null;
  try {
    now = readFileSync(sent.file, 'utf8');
  } catch {
    now = null;
  }
  if (now !== sent.disk) return 'changed on disk since it was reviewed; not written';
  try {
    if (text === null) rmSync(sent.file, { force: true });
    else {
      mkdirSync(path.dirname(sent.file), { recursive: true });
      writeFileSync(sent.file, text);
    }
  } catch (error) {
    return `could not be written: ${(error as Error).message}`;
  }
  return undefined;
}

export function requireFiles(plan: RemotePlan): void {
  if (plan.files.length === 0) {
    throw new CliError(`nothing to review: ${plan.leftOut.map((line) => line.trim()).join('; ')}`);
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
