/** Reads the on-disk side of a new proposal, refusing what cannot be reviewed at all. */
import { MAX_FILE_BYTES, readDiskSnapshot, type DiskSnapshot } from './disk-snapshot';

export class UnreviewableFileError extends Error {}

/**
 * Text files are diffed; binary (or non-UTF-8) files are reviewed as a whole; files over the size
 * limit and things that are not regular files are refused with a clear message.
 */
export async function readProposalBase(filePath: string, maxBytes = MAX_FILE_BYTES): Promise<DiskSnapshot> {
  let snapshot: DiskSnapshot;
  try {
    snapshot = await readDiskSnapshot(filePath, maxBytes);
  } catch (error) {
    throw new UnreviewableFileError((error as Error).message);
  }
  if (snapshot.exists && snapshot.kind === 'opaque' && snapshot.why === 'too large') {
    throw new UnreviewableFileError(`File is larger than the ${formatSize(maxBytes)} limit: ${filePath}`);
  }
  return snapshot;
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}
