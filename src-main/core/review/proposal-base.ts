/** Reads the on-disk side of a new proposal, refusing what cannot be reviewed at all. */
import { MAX_FILE_BYTES, readConfinedSnapshot, type DiskSnapshot } from '../disk/disk-snapshot';
import { PathOutsideWorkspaceError } from '../workspace/workspace-paths';
import { messageOf } from '../../../shared/error-message';

export class UnreviewableFileError extends Error {}

/**
 * Text files are diffed; binary (or non-UTF-8) files are reviewed as a whole; files over the size
 * limit and things that are not regular files are refused with a clear message. `filePath` is the real
 * path the caller checked (resolveInsideWorkspace); it is read only if still inside `workspaceFolders`.
 */
export async function readProposalBase(
  filePath: string,
  workspaceFolders: readonly string[],
  maxBytes = MAX_FILE_BYTES,
): Promise<DiskSnapshot> {
  let snapshot: DiskSnapshot;
  try {
    snapshot = await readConfinedSnapshot(filePath, workspaceFolders, maxBytes);
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError) throw error;
    throw new UnreviewableFileError(messageOf(error));
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
