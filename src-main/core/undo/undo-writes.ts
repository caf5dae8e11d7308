/**
 * "Undo changes on disk": puts back what a review's writes replaced, from the undo journal
 * (undo-journal.ts), through core's one writer (disk/file-writer.ts: confined to the workspace at the moment
 * of writing, never through a symlink, only if the file still is what was checked).
 *
 * A file is put back only if it still holds exactly what DiffTray wrote (its sha256; absent if DiffTray
 * deleted it). A file changed since is left alone and offered instead as a new pending review from
 * "DiffTray": base = the file now, proposal = the undo (what DiffTray wrote -> what was there before)
 * merged three-way onto it, so the person reviews the undo like any change.
 *
 * The journal lets go of a file's saved text only once it is put back (restored, or its merge accepted
 * and written). A restore that fails (a link swapped in, a folder made read-only, the file changed while
 * it was written) says why and leaves the undo to be tried again; once every file is back, a second undo
 * says it was undone already.
 */
import type { ClientInfo, UndoWritesResult } from '../../../shared/app-api';
import { messageOf } from '../../../shared/error-message';
import { merge3 } from '../../../shared/merge3';
import type { FileWriter } from '../disk/file-writer';
import type { ClientRegistry } from '../clients/client-registry';
import { hashBytes, readConfinedSnapshot, type DiskSnapshot } from '../disk/disk-snapshot';
import type { ReviewQueue } from '../review/review-queue';
import type { ReviewOutcome } from '../review/review-record';
import type { ProposedFile } from '../review/review-file';
import type { UndoEntry, UndoJournal } from './undo-journal';
import { foldersNow, type FolderList } from '../workspace/workspace-folders';

/** Refused as a whole: nothing to undo, or already undone. */
export class UndoWritesError extends Error {}

const ABSENT: DiskSnapshot = { exists: false };
const CLIENT_NAME = 'DiffTray';
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A file's writes within one review, folded: what it was first, what DiffTray left last. */
interface FileUndo {
  path: string;
  previous: UndoEntry['previous'];
  writtenHash: string | null;
  writtenText: string | null;
}

interface Merge {
  undo: FileUndo;
  file: ProposedFile;
}

export class WriteUndo {
  private client: ClientInfo | undefined;
  /** Sets being undone now: a second click while the first runs is refused, not merged onto the first. */
  private readonly underway = new Set<string>();
  /** Sets whose undo waits as a merge review (by its id): undone again, they would be merged twice. */
  private readonly awaitingMerge = new Map<string, string>();

  constructor(
    private readonly journal: UndoJournal,
    private readonly files: FileWriter,
    private readonly queue: ReviewQueue,
    private readonly clients: ClientRegistry,
    private readonly workspaceFolders: FolderList,
  ) {}

  /** `id`: a review id of this run, or an UndoableWrites id (a set of an earlier run). */
  async undo(id: string): Promise<UndoWritesResult> {
    const setId = this.journal.hasEntries(this.journal.setIdOf(id)) ? this.journal.setIdOf(id) : id;
    if (this.journal.isSpent(setId) || this.journal.isSpent(this.journal.setIdOf(id))) {
      throw new UndoWritesError('The changes on disk of this review were already undone');
    }
    if (!this.journal.hasEntries(setId)) {
      throw new UndoWritesError('DiffTray keeps no changes on disk of this review to undo');
    }
    if (this.underway.has(setId)) throw new UndoWritesError('This review is being undone already');
    const waiting = this.awaitingMerge.get(setId);
    if (waiting !== undefined) {
      throw new UndoWritesError(
        `The undo of this review waits as review ${waiting} in the queue: accept or reject it first`,
      );
    }
    this.underway.add(setId);
    try {
      return await this.undoSet(setId, await this.readEntries(setId));
    } finally {
      this.underway.delete(setId);
    }
  }

  /** The saved texts, read back from the journal; one that cannot be is said, and nothing is written. */
  private async readEntries(setId: string): Promise<UndoEntry[]> {
    try {
      return await this.journal.entriesOf(setId);
    } catch (error) {
      throw new UndoWritesError(messageOf(error), { cause: error });
    }
  }

  private async undoSet(setId: string, entries: readonly UndoEntry[]): Promise<UndoWritesResult> {
    const result: UndoWritesResult = { restored: [], changedSince: [], failed: [] };
    const merges: Merge[] = [];
    for (const undo of foldByFile(entries)) {
      await this.undoFile(undo, result, merges);
    }
    // Only what is back is let go: what failed keeps its saved text, to be tried again.
    await this.journal.release(setId, result.restored);
    if (merges.length > 0) {
      try {
        result.mergeReviewId = this.putUpMerge(setId, this.nameOf(setId, entries[0]!.reviewId), merges);
      } catch (error) {
        // Reviews from DiffTray paused, or too many waiting: the files stay as they are, and it is said.
        const reason = `changed since; the merge could not be put up: ${messageOf(error)}`;
        for (const { undo } of merges) result.failed.push({ path: undo.path, reason });
      }
    }
    return result;
  }

  private async undoFile(undo: FileUndo, result: UndoWritesResult, merges: Merge[]): Promise<void> {
    let now: DiskSnapshot;
    try {
      now = await readConfinedSnapshot(undo.path, foldersNow(this.workspaceFolders));
    } catch (error) {
      result.failed.push({ path: undo.path, reason: messageOf(error) });
      return;
    }
    const previousText = textOf(undo.previous);
    if (previousText === undefined) {
      result.failed.push({ path: undo.path, reason: 'its previous content is not text' });
      return;
    }
    if (!stillWritten(now, undo.writtenHash)) {
      result.changedSince.push(undo.path);
      const merge = mergeOnto(undo, now, previousText);
      if (merge) merges.push(merge);
      else result.failed.push({ path: undo.path, reason: 'changed since and no longer text: not merged' });
      return;
    }
    const target: DiskSnapshot = undo.previous.exists
      ? { exists: true, kind: 'text', text: previousText }
      : ABSENT;
    const written = await this.files.apply({
      path: undo.path,
      expected: now,
      target,
      ...(undo.previous.exists && { mode: undo.previous.mode }),
    });
    if (written.status === 'applied') result.restored.push(undo.path);
    else result.failed.push({ path: undo.path, reason: written.reason });
  }

  /** How the merge review names the review undone: its title while it is in History. */
  private nameOf(setId: string, reviewId: string): string {
    const title = setId === this.journal.setIdOf(reviewId) ? this.queue.find(reviewId)?.title : undefined;
    return title !== undefined ? `"${title}"` : `review ${reviewId} (before DiffTray restarted)`;
  }

  /** The files changed since, as one pending review the person decides; accepted, it is written. */
  private putUpMerge(setId: string, undone: string, merges: readonly Merge[]): string {
    this.client ??= this.clients.connect(CLIENT_NAME, 'difftray', () => {
      const client = this.client;
      this.client = undefined;
      if (client) {
        this.queue.cancelWhere((request) => request.client.id === client.id, 'disconnected');
        this.clients.disconnect(client.id);
      }
    });
    const added = this.queue.add({
      client: this.client,
      title: `Undo of ${undone}, onto changes made since`,
      description:
        `These files changed on disk after DiffTray wrote them for ${undone}, so undo left them ` +
        'alone. The proposal takes back what DiffTray wrote and keeps the later edits (a three-way merge); ' +
        'accept to write it, reject to leave the files as they are.',
      files: merges.map(({ file }) => file),
    });
    this.awaitingMerge.set(setId, added.id);
    void added.outcome
      .then((outcome) => this.settleMerge(setId, added.id, merges, outcome))
      .catch((error: unknown) => this.queue.addNote(added.id, `Not written: ${messageOf(error)}`))
      .finally(() => this.awaitingMerge.delete(setId));
    return added.id;
  }

  /** Accepted: each file written is put back, and let go from the journal; otherwise the undo stays. */
  private async settleMerge(
    setId: string,
    id: string,
    merges: readonly Merge[],
    outcome: ReviewOutcome,
  ): Promise<void> {
    if (outcome.kind !== 'accepted') return;
    const back: string[] = [];
    for (let index = 0; index < merges.length; index++) {
      const { undo } = merges[index]!;
      const final = outcome.files[index]!;
      if (!final.changed) continue;
      const target: DiskSnapshot =
        !undo.previous.exists && final.finalText === ''
          ? ABSENT
          : { exists: true, kind: 'text', text: final.finalText };
      const written = await this.files.apply({
        path: undo.path,
        expected: final.expectedOnDisk,
        target,
        reviewId: id,
      });
      if (written.status === 'applied') back.push(undo.path);
      else this.queue.addNote(id, `${undo.path}: not written (${written.reason}); its undo stays available`);
    }
    await this.journal.release(setId, back);
  }
}

function foldByFile(entries: readonly UndoEntry[]): FileUndo[] {
  const byPath = new Map<string, FileUndo>();
  for (const entry of entries) {
    const known = byPath.get(entry.path);
    byPath.set(entry.path, {
      path: entry.path,
      previous: known ? known.previous : entry.previous,
      writtenHash: entry.writtenHash,
      writtenText: entry.writtenText,
    });
  }
  return [...byPath.values()];
}

function textOf(previous: UndoEntry['previous']): string | undefined {
  if (!previous.exists) return '';
  try {
    return utf8.decode(previous.bytes);
  } catch {
    return undefined;
  }
}

/** Whether the file holds exactly what DiffTray left: those bytes, or (it deleted it) no file. */
function stillWritten(now: DiskSnapshot, writtenHash: string | null): boolean {
  if (writtenHash === null) return !now.exists;
  if (!now.exists) return false;
  if (now.kind === 'text') return hashBytes(Buffer.from(now.text, 'utf8')) === writtenHash;
  return now.why !== 'too large' && now.hash === writtenHash;
}

/** The undo (written -> previous) merged onto the file as it is now; none if the file is not text now. */
function mergeOnto(undo: FileUndo, now: DiskSnapshot, previousText: string): Merge | undefined {
  if (now.exists && now.kind !== 'text') return undefined;
  const nowText = now.exists ? now.text : '';
  const merged = merge3(undo.writtenText ?? '', nowText, previousText);
  return { undo, file: { path: undo.path, base: now, proposedText: merged.text } };
}
