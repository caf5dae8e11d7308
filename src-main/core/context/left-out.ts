/**
 * What a context answer left out and why: the first CONTEXT_MAX_LISTED_SKIPS files one by one, all of
 * them counted by reason, so an answer stays bounded however much was left out.
 */
import type { LeftOut, SkipReason, SkippedFile } from '../../../shared/native-context';
import { CONTEXT_MAX_FILE_BYTES, CONTEXT_MAX_LISTED_SKIPS, describeBytes } from '../../../shared/limits';
import { readListedFileIn, UnreadableFileError, type DiskSnapshot } from '../disk/disk-snapshot';
import type { WalkItem } from './confined-walk';

export class LeftOutList {
  private readonly skipped: SkippedFile[] = [];
  private readonly counts: Partial<Record<SkipReason, number>> = {};
  truncated = false;

  add(path: string, reason: SkipReason, note: string): void {
    this.counts[reason] = (this.counts[reason] ?? 0) + 1;
    if (reason === 'walk_limit' || reason === 'total_bytes' || reason === 'file_count') this.truncated = true;
    if (this.skipped.length < CONTEXT_MAX_LISTED_SKIPS) this.skipped.push({ path, reason, note });
  }

  result(): LeftOut {
    return { skipped: this.skipped, skippedCounts: this.counts, truncated: this.truncated };
  }
}

/**
 * A walked file's text, or undefined with the reason noted: binary, not UTF-8, over
 * CONTEXT_MAX_FILE_BYTES, or not a regular file any more when read (a link or FIFO swapped in).
 */
export async function readWalkedText(
  item: Extract<WalkItem, { kind: 'file' }>,
  leftOut: LeftOutList,
): Promise<string | undefined> {
  let snapshot: DiskSnapshot;
  try {
    snapshot = await readListedFileIn(item.directory, item.name, CONTEXT_MAX_FILE_BYTES);
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    // Swapped in after the folder was listed: a link is refused by its name, anything else by fstat.
    const reason =
      error.entry === 'symlink' ? 'symlink' : error.entry === 'special' ? 'special_file' : 'unreadable';
    leftOut.add(item.path, reason, error.message);
    return undefined;
  }
  if (!snapshot.exists) {
    leftOut.add(item.path, 'unreadable', 'gone before it was read');
    return undefined;
  }
  if (snapshot.kind === 'text') return snapshot.text;
  if (snapshot.why === 'too large') {
    const note = `${describeSize(snapshot.size)}, over the ${describeBytes(CONTEXT_MAX_FILE_BYTES)} limit`;
    leftOut.add(item.path, 'too_large', note);
  } else if (snapshot.why === 'binary') leftOut.add(item.path, 'binary', 'binary file, not read as text');
  else leftOut.add(item.path, 'not_utf8', 'not UTF-8 text');
  return undefined;
}

function describeSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${bytes} bytes`;
}
