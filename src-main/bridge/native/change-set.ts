/**
 * From a `propose_change_set` request to what goes up for review: each file's old and new sides,
 * judged against the disk.
 *
 * - Disk holds the old side: an ordinary proposal (DiffTray writes the decided text on accept).
 * - Disk holds the new side: the agent already wrote it (`git diff | difftray review`). It is reviewed
 *   after the fact: base = old side, proposal = the disk, and on submit DiffTray writes the decided text,
 *   which puts back whatever was rejected.
 * - Neither: a conflict. The file is reported at once and not put up for review.
 *
 * Refusals of the whole request (nothing is queued): a malformed patch (2005), a path outside the
 * workspace (3001), an invalid combination of fields (2004). Problems of one file (binary, too large,
 * not a regular file) leave that file out with status 'error'.
 */
import path from 'node:path';
import type { StructuredPatchHunk } from 'diff';
import { readConfinedSnapshot, type DiskSnapshot } from '../../core/disk/disk-snapshot';
import type { OtherBase } from '../../core/review/review-file';
import {
  joinUnresolved,
  PathOutsideWorkspaceError,
  resolveInsideWorkspace,
} from '../../core/workspace/workspace-paths';
import {
  ErrorCode,
  NATIVE_MAX_FILE_BYTES,
  NATIVE_MAX_FILES_PER_CHANGE_SET,
  type RequestPayload,
} from '../../../shared/native-protocol';
import {
  judgeDisk,
  neitherSideReason,
  MalformedPatchError,
  parseUnifiedDiff,
  type PatchFile,
} from '../../../shared/unified-diff';
import { messageOf } from '../../../shared/error-message';

/** A refusal of the whole request. */
export class ChangeSetError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** A file up for review. */
export interface ReviewedFile {
  kind: 'review';
  /** As the client named it. */
  path: string;
  /** Real absolute path, inside the workspace. */
  real: string;
  disk: 'old_side' | 'new_side';
  /** The old side. */
  base: DiskSnapshot;
  /** The new side ('' when the new side is "no file"). */
  proposedText: string;
  /** The new side as found on disk, when the change is already written. */
  onDisk?: DiskSnapshot;
  /** The new side is "no file": a fully accepted proposal deletes the file. */
  deletes: boolean;
  /** This file's hunks in the patch, to name the patch hunk of each DiffTray hunk in the result. */
  patchHunks?: StructuredPatchHunk[];
  /** A turn review's other starting point for this file, shown read-only (review-file.ts OtherBase). */
  otherBase?: OtherBase;
}

/** Nothing to review: the disk already holds what is proposed, and nothing says it was otherwise. */
export interface UnchangedFile {
  kind: 'unchanged';
  path: string;
  real: string;
  /** undefined: the file does not exist (and is not meant to). */
  text: string | undefined;
}

/** Left out of the review. */
export interface SkippedFile {
  kind: 'skipped';
  path: string;
  status: 'conflict' | 'error';
  code: ErrorCode;
  reason: string;
  disk: 'neither' | 'old_side' | 'new_side';
}

export type PlannedFile = ReviewedFile | UnchangedFile | SkippedFile;

export interface PlanOptions {
  workspaceFolders: readonly string[];
  maxFileBytes?: number;
}

type Payload = RequestPayload<'propose_change_set'>;

const ABSENT: DiskSnapshot = { exists: false };
const text = (value: string): DiskSnapshot => ({ exists: true, kind: 'text', text: value });

export async function planChangeSet(payload: Payload, options: PlanOptions): Promise<PlannedFile[]> {
  const baseDir = payload.base_dir ?? options.workspaceFolders[0];
  if (baseDir === undefined) throw new ChangeSetError(ErrorCode.INTERNAL, 'DiffTray has no workspace folder');
  if (!path.isAbsolute(baseDir)) {
    throw new ChangeSetError(ErrorCode.INVALID_PAYLOAD, `base_dir must be an absolute path: ${baseDir}`);
  }
  const maxBytes = options.maxFileBytes ?? NATIVE_MAX_FILE_BYTES;
  const context: Context = { baseDir, folders: options.workspaceFolders, maxBytes, seen: new Set() };
  const planned: PlannedFile[] = [];
  if (payload.patch !== undefined) {
    let files: PatchFile[];
    try {
      files = parseUnifiedDiff(payload.patch);
    } catch (error) {
      if (error instanceof MalformedPatchError)
        throw new ChangeSetError(ErrorCode.MALFORMED_PATCH, error.message);
      throw error;
    }
    if (files.length > NATIVE_MAX_FILES_PER_CHANGE_SET) {
      throw new ChangeSetError(
        ErrorCode.INVALID_PAYLOAD,
        `The patch has ${files.length} files; at most ${NATIVE_MAX_FILES_PER_CHANGE_SET} per change set`,
      );
    }
    // Resolve every path first: one path outside the workspace refuses the whole change set.
    const resolved = files.map((file) => ({ file, real: resolvePath(file.path, context) }));
    for (const { file, real } of resolved) {
      const entry = await planPatchFile(file, real, context);
      if (entry) planned.push(entry);
    }
    if (planned.length === 0) {
      throw new ChangeSetError(ErrorCode.MALFORMED_PATCH, 'The patch changes no text (only file modes)');
    }
  } else {
    const resolved = payload.files!.map((file) => ({ file, real: resolvePath(file.path, context) }));
    for (const { file, real } of resolved) planned.push(await planFullTextFile(file, real, context));
  }
  return planned;
}

interface Context {
  baseDir: string;
  folders: readonly string[];
  maxBytes: number;
  seen: Set<string>;
}

function resolvePath(given: string, context: Context): string {
  if (given.includes('\0'))
    throw new ChangeSetError(ErrorCode.INVALID_PAYLOAD, 'A path contains a NUL character');
  // Not path.resolve: a `..` must climb from where a symlinked folder really is, as the kernel would.
  const absolute = joinUnresolved(context.baseDir, given);
  let real: string;
  try {
    real = resolveInsideWorkspace(absolute, context.folders);
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError) {
      throw new ChangeSetError(
        ErrorCode.OUTSIDE_WORKSPACE,
        `${given} is outside DiffTray's workspace folders (${context.folders.join(', ')})`,
        { path: given },
      );
    }
    throw error;
  }
  if (context.seen.has(real)) {
    throw new ChangeSetError(ErrorCode.INVALID_PAYLOAD, `${given} appears twice in the change set`, {
      path: given,
    });
  }
  context.seen.add(real);
  return real;
}

type Disk =
  { ok: true; snapshot: DiskSnapshot; text: string | undefined } | { ok: false; skipped: SkippedFile };

async function readDisk(given: string, real: string, context: Context): Promise<Disk> {
  let snapshot: DiskSnapshot;
  try {
    snapshot = await readConfinedSnapshot(real, context.folders, context.maxBytes);
  } catch (error) {
    return { ok: false, skipped: skipped(given, 'error', ErrorCode.NOT_FOUND, messageOf(error)) };
  }
  if (snapshot.exists && snapshot.kind === 'opaque') {
    return snapshot.why === 'too large'
      ? { ok: false, skipped: tooLarge(given, context.maxBytes) }
      : {
          ok: false,
          skipped: skipped(
            given,
            'error',
            ErrorCode.BINARY_FILE,
            `the file on disk is ${snapshot.why}; DiffTray reviews text`,
          ),
        };
  }
  return { ok: true, snapshot, text: snapshot.exists ? snapshot.text : undefined };
}

async function planPatchFile(
  file: PatchFile,
  real: string,
  context: Context,
): Promise<PlannedFile | undefined> {
  if (file.binary) {
    return skipped(file.path, 'error', ErrorCode.BINARY_FILE, 'a binary change; DiffTray reviews text');
  }
  // A mode change (chmod) and nothing else: there is no text to review.
  if (file.hunks.length === 0 && file.oldExists && file.newExists) return undefined;
  const disk = await readDisk(file.path, real, context);
  if (!disk.ok) return disk.skipped;
  const judged = judgeDisk(file, disk.text);
  if (judged.side === 'neither') {
    const code = judged.why === 'missing' ? ErrorCode.NOT_FOUND : ErrorCode.CONFLICT;
    return skipped(file.path, 'conflict', code, neitherSideReason(judged));
  }
  const proposedText = judged.newText ?? '';
  if (Buffer.byteLength(proposedText, 'utf8') > context.maxBytes)
    return tooLarge(file.path, context.maxBytes);
  // On the old side the disk holds the base itself: its snapshot, read once, is the one the disk check reuses.
  const base =
    judged.side === 'old' ? disk.snapshot : judged.oldText === undefined ? ABSENT : text(judged.oldText);
  return {
    kind: 'review',
    path: file.path,
    real,
    disk: judged.side === 'old' ? 'old_side' : 'new_side',
    base,
    proposedText,
    ...(judged.side === 'new' && { onDisk: disk.snapshot }),
    deletes: judged.newText === undefined,
    patchHunks: file.hunks,
  };
}

async function planFullTextFile(
  file: { path: string; before?: string | null | undefined; after: string | null },
  real: string,
  context: Context,
): Promise<PlannedFile> {
  const { before, after } = file;
  if (after !== null && Buffer.byteLength(after, 'utf8') > context.maxBytes)
    return tooLarge(file.path, context.maxBytes);
  const disk = await readDisk(file.path, real, context);
  if (!disk.ok) return disk.skipped;
  const onDisk = disk.text;
  const unchanged: UnchangedFile = { kind: 'unchanged', path: file.path, real, text: onDisk };
  const review = (side: 'old_side' | 'new_side', base: DiskSnapshot): ReviewedFile => ({
    kind: 'review',
    path: file.path,
    real,
    disk: side,
    base,
    proposedText: after ?? '',
    ...(side === 'new_side' && { onDisk: disk.snapshot }),
    deletes: after === null,
  });
  if (before === undefined) {
    // Proposed against whatever is on disk now.
    if (after === null ? onDisk === undefined : onDisk === after) return unchanged;
    return review('old_side', disk.snapshot);
  }
  // "" for a file that does not exist is taken as "no file": clients often cannot say null.
  const isBefore =
    before === null || before === '' ? onDisk === undefined || onDisk === before : onDisk === before;
  const isAfter = after === null ? onDisk === undefined : onDisk === after;
  if (before === after || (before === null && after === null)) {
    return isBefore
      ? unchanged
      : skipped(file.path, 'conflict', ErrorCode.CONFLICT, 'changed on disk since the change was made');
  }
  if (isBefore) return review('old_side', disk.snapshot);
  if (isAfter) return review('new_side', before === null ? ABSENT : text(before));
  return skipped(
    file.path,
    'conflict',
    onDisk === undefined ? ErrorCode.NOT_FOUND : ErrorCode.CONFLICT,
    onDisk === undefined ? 'not found on disk' : 'changed on disk since the change was made',
  );
}

function skipped(
  given: string,
  status: SkippedFile['status'],
  code: ErrorCode,
  reason: string,
  disk: SkippedFile['disk'] = 'neither',
): SkippedFile {
  return { kind: 'skipped', path: given, status, code, reason, disk };
}

/** A file whose text is over `maxBytes`: left out of the review, with the limit said in MB. */
export function tooLarge(given: string, maxBytes: number): SkippedFile {
  return skipped(
    given,
    'error',
    ErrorCode.FILE_TOO_LARGE,
    `larger than the ${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MB limit`,
  );
}
