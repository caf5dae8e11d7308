/**
 * The one place DiffTray changes files on disk: every write, delete and revert that Clio, native change
 * sets and the `difftray` command ask for comes through `FileWriter.apply`, and gets back a result for
 * its adapter to translate into its own protocol.
 *
 * At the moment of use, for each file: its directory is opened and checked to be inside a workspace
 * folder (confined-directory.ts), the final name must be a regular file or absent (never a symlink,
 * FIFO, device or folder), the file must still hold what the decision was made against, and only then is
 * it replaced (temp file + rename in that same directory) or deleted (moved aside, checked, removed).
 * The check and the write use the same opened directory, so they are about the same file.
 *
 * A write made for a review (`reviewId`) is then kept in the undo journal (undo-journal.ts): what the file
 * was, its permission bits, and what was written, so "Undo changes on disk" can put it back later.
 */
import path from 'node:path';
import { ConfinedDirectory, namingFolder, UnsafeEntryError } from './confined-directory';
import {
  checkUnchanged,
  deleteFileIfUnchanged,
  FileChangedError,
  replaceFileIfUnchanged,
} from './confined-write';
import { hashBytes, sameContent, type DiskSnapshot } from './disk-snapshot';
import type { PreviousState, UndoJournal } from '../undo/undo-journal';
import { isInside, PathOutsideWorkspaceError } from '../workspace/workspace-paths';
import type { WriteJournal } from '../undo/write-journal';
import { foldersNow, type FolderList } from '../workspace/workspace-folders';
import { messageOf } from '../../../shared/error-message';

export interface ApplyRequest {
  /** The file's real path, as resolved when it was proposed. */
  path: string;
  /** What the file must still be (absent, or this content) for the change to go ahead. */
  expected: DiskSnapshot;
  /** What the file is to become: absent (deleted) or text. Equal to `expected`: only checked. */
  target: DiskSnapshot;
  /**
   * Folders (real paths, compared as written) the file must also lie in at the moment of writing, narrower than the
   * workspace: watch mode's folder, so that a folder in it swapped for a link to elsewhere in the
   * workspace is not written through. The workspace bounds it either way.
   */
  within?: readonly string[];
  /** The review the write carries out: what it changes is journaled for undo (undo-journal.ts). */
  reviewId?: string;
  /** Permission bits to give the file (an undo putting back what it had); else an existing file's are kept. */
  mode?: number;
}

export type ApplyFailureCode =
  'changed_on_disk' | 'outside_workspace' | 'not_regular_file' | 'not_text' | 'write_failed';

export type ApplyResult =
  | {
      status: 'applied';
      /** sha256 of the text now on disk, for a text target. */
      applied_hash?: string;
      /** The file is now absent. */
      deleted?: true;
      /** Nothing had to change: the file already was the target. */
      unchanged?: true;
    }
  | { status: 'conflict' | 'refused' | 'error'; code: ApplyFailureCode; reason: string };

export class FileWriter {
  private readonly appliedListeners = new Set<(file: string, written: DiskSnapshot) => void>();

  constructor(
    /** Read at each write: the person may change them while a review waits. */
    private readonly workspaceFolders: FolderList,
    private readonly journal: WriteJournal,
    /** Where a review's writes are kept for undo; none: nothing is (unit tests of other parts). */
    private readonly undo?: UndoJournal,
    private readonly log: (message: string) => void = () => {},
  ) {}

  async apply(request: ApplyRequest): Promise<ApplyResult> {
    try {
      const result = await this.carryOut(request);
      if (result.status === 'applied' && !result.unchanged) {
        for (const listener of this.appliedListeners) listener(request.path, request.target);
      }
      return result;
    } catch (error) {
      return failure(error, path.dirname(request.path));
    }
  }

  /**
   * Called after each file DiffTray changed, with what it now holds: watch mode must never review
   * DiffTray's own writes, whoever asked for them (a review, an undo).
   */
  onApplied(listener: (file: string, written: DiskSnapshot) => void): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  private async carryOut(request: ApplyRequest): Promise<ApplyResult> {
    const { path: file, expected, target, within, mode } = request;
    const unchanged = sameContent(target, expected);
    if (!unchanged && target.exists && target.kind !== 'text') {
      return { status: 'refused', code: 'not_text', reason: 'DiffTray writes text files only' };
    }
    // Opened once, and every step below goes through it. A new file's missing folders are created, each
    // inside the one before (confined as they are made).
    const directory = await this.openDirectory(path.dirname(file), !unchanged && !expected.exists);
    if (!directory) {
      // No folder, so no file: fine only if none was expected (then none is wanted either).
      if (!expected.exists) return { status: 'applied', deleted: true, unchanged: true };
      throw new FileChangedError(`${file} was deleted on disk since it was reviewed`);
    }
    // Judged by the directory actually opened (its kernel name) against the folders' names as given,
    // never resolved again (the folder itself may be a link by now); after the workspace's own check, so
    // a narrower folder that was deleted is still made again, inside the workspace.
    if (within && !within.some((folder) => isInside(folder, directory.realPath))) {
      await directory.close();
      throw new PathOutsideWorkspaceError(
        `${path.dirname(file)} now leads to ${directory.realPath}, outside ${within.join(', ')}`,
      );
    }
    const name = path.basename(file);
    let previousMode: number | undefined;
    try {
      if (unchanged) await checkUnchanged(directory, name, expected);
      else if (!target.exists)
        previousMode = await deleteFileIfUnchanged(directory, name, expected, this.journal);
      else if (target.kind === 'text')
        previousMode = await replaceFileIfUnchanged(
          directory,
          name,
          expected,
          target.text,
          this.journal,
          mode,
        );
    } finally {
      await directory.close();
    }
    const result = describe(target);
    if (unchanged) return { ...result, unchanged: true };
    if (request.reviewId !== undefined)
      await this.journalWrite(request.reviewId, file, expected, target, previousMode, result);
    return result;
  }

  /** Keeps what the file was, for undo; a write is never failed by its journal. */
  private async journalWrite(
    reviewId: string,
    file: string,
    expected: DiskSnapshot,
    target: DiskSnapshot,
    previousMode: number | undefined,
    result: ApplyResult & { status: 'applied' },
  ): Promise<void> {
    if (!this.undo) return;
    let previous: PreviousState;
    if (!expected.exists || previousMode === undefined) previous = { exists: false };
    else if (expected.kind === 'text')
      previous = { exists: true, bytes: Buffer.from(expected.text, 'utf8'), mode: previousMode };
    else {
      this.log(`difftray: ${file} was ${expected.why}; its previous content is not kept for undo`);
      return;
    }
    const written =
      result.applied_hash !== undefined && target.exists && target.kind === 'text'
        ? { hash: result.applied_hash, text: target.text }
        : null;
    try {
      await this.undo.record(reviewId, file, previous, written);
    } catch (error) {
      this.log(`difftray: could not keep ${file} for undo: ${messageOf(error)}`);
    }
  }

  /** The folder, open and checked; undefined if it does not exist (and is not to be created). */
  private async openDirectory(dir: string, create: boolean): Promise<ConfinedDirectory | undefined> {
    try {
      return create
        ? await ConfinedDirectory.openCreating(dir, foldersNow(this.workspaceFolders))
        : await ConfinedDirectory.open(dir, foldersNow(this.workspaceFolders));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}

function describe(target: DiskSnapshot): ApplyResult & { status: 'applied' } {
  if (!target.exists) return { status: 'applied', deleted: true };
  return target.kind === 'text'
    ? { status: 'applied', applied_hash: hashBytes(Buffer.from(target.text, 'utf8')) }
    : { status: 'applied' };
}

function failure(error: unknown, dir: string): ApplyResult {
  const reason = namingFolder(messageOf(error), dir);
  if (error instanceof FileChangedError) return { status: 'conflict', code: 'changed_on_disk', reason };
  if (error instanceof PathOutsideWorkspaceError)
    return { status: 'refused', code: 'outside_workspace', reason };
  if (error instanceof UnsafeEntryError) return { status: 'refused', code: 'not_regular_file', reason };
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
    return {
      status: 'conflict',
      code: 'changed_on_disk',
      reason: `${reason} (it was moved or deleted meanwhile)`,
    };
  }
  return { status: 'error', code: 'write_failed', reason: `could not write: ${reason}` };
}
