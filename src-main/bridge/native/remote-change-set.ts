/**
 * A paired client's change set: its files are on its own host, so they are reviewed as the texts it sends
 * and nothing of this machine's disk is read. Each file must come with `before` and `after` (a patch
 * needs the files it applies to, which are not here: `difftray review` on the client's host turns its
 * patch into such texts itself). Paths are the client's, shown as it gave them (joined to its `base_dir`
 * when relative) and never resolved here.
 */
import path from 'node:path';
import { ErrorCode, NATIVE_MAX_FILE_BYTES, type RequestPayload } from '../../../shared/native-protocol';
import type { DiskSnapshot } from '../../core/disk/disk-snapshot';
import { ChangeSetError, tooLarge, type PlannedFile } from './change-set';

const ABSENT: DiskSnapshot = { exists: false };

export function planRemoteChangeSet(
  payload: RequestPayload<'propose_change_set'>,
  maxBytes = NATIVE_MAX_FILE_BYTES,
): PlannedFile[] {
  if (payload.patch !== undefined || payload.files === undefined) {
    throw new ChangeSetError(
      ErrorCode.INVALID_PAYLOAD,
      'A paired client sends "files" with "before" and "after" texts, not a patch: its files are not on this machine (difftray review does this for you)',
    );
  }
  const seen = new Set<string>();
  return payload.files.map((file): PlannedFile => {
    if (file.path.includes('\0'))
      throw new ChangeSetError(ErrorCode.INVALID_PAYLOAD, 'A path contains a NUL character');
    if (file.before === undefined) {
      throw new ChangeSetError(
        ErrorCode.INVALID_PAYLOAD,
        `${file.path}: a paired client must give "before" (null for a new file): DiffTray cannot read its disk`,
        { path: file.path },
      );
    }
    const shown = remotePath(file.path, payload.base_dir);
    if (seen.has(shown)) {
      throw new ChangeSetError(ErrorCode.INVALID_PAYLOAD, `${file.path} appears twice in the change set`, {
        path: file.path,
      });
    }
    seen.add(shown);
    const { before, after } = file;
    if ([before, after].some((t) => t != null && Buffer.byteLength(t, 'utf8') > maxBytes)) {
      return tooLarge(file.path, maxBytes);
    }
    const base: DiskSnapshot =
      before === null || before === '' ? ABSENT : { exists: true, kind: 'text', text: before };
    if ((after ?? '') === (before ?? '') && (after === null) === (before === null || before === '')) {
      return { kind: 'unchanged', path: file.path, real: shown, text: after ?? undefined };
    }
    return {
      kind: 'review',
      path: file.path,
      real: shown,
      // The client says which side its disk holds; here there is only the old side and the new text.
      disk: 'old_side',
      base,
      proposedText: after ?? '',
      deletes: after === null,
    };
  });
}

/** The client's path as shown: as given when absolute, else under its base_dir (its own separators kept). */
function remotePath(given: string, baseDir: string | undefined): string {
  if (isAbsoluteAnywhere(given) || baseDir === undefined) return given;
  const separator = baseDir.includes('\\') && !baseDir.includes('/') ? '\\' : '/';
  return `${baseDir.replace(/[\\/]+$/, '')}${separator}${given}`;
}

function isAbsoluteAnywhere(file: string): boolean {
  return path.posix.isAbsolute(file) || path.win32.isAbsolute(file);
}
