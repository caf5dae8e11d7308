/**
 * The undo journal: for each file DiffTray changed for a review, what it was before (its bytes and
 * permission bits, or no file) and the sha256 of what DiffTray left (null: it deleted the file), so the
 * person can take a review's writes back later (undo-writes.ts).
 *
 * One small JSON file per write in `<DIFFTRAY_HOME>/undo/` (folder 0700, files 0600), read back at start,
 * so it outlives restarts; in memory only which file of which set (the texts are read back when undone).
 * Review ids restart with each run (r1, r2...), so writes are grouped by a set id that adds this run's
 * own id. Bounded by bytes and by age (pruned hourly as well as on each write):
 * the oldest sets go first, whole. A file's entries stay until it is put back, so a failed undo can be
 * tried again; the set is spent once every file of it was put back. Files that are not regular files (a
 * symlink put there) or that do not parse are ignored, with a line in the log; never followed or read
 * through.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { messageOf } from '../../../shared/error-message';
import { UNDO_JOURNAL_MAX_AGE_MS, UNDO_JOURNAL_MAX_BYTES } from '../limits';
import { readRegularFile, readRegularFileAsync } from '../disk/regular-file';

/** What the file was before DiffTray wrote it. */
export type PreviousState = { exists: false } | { exists: true; bytes: Buffer; mode: number };

export interface UndoEntry {
  setId: string;
  reviewId: string;
  path: string;
  at: number;
  previous: PreviousState;
  /** sha256 of the bytes DiffTray left; null: DiffTray deleted the file. */
  writtenHash: string | null;
  /** The text DiffTray left (null: none), for merging an undo onto later edits (three-way). */
  writtenText: string | null;
}

/** One review's journaled writes, as the app lists them. */
export interface UndoSet {
  setId: string;
  reviewId: string;
  /** Written in this run of DiffTray: the review is still in History under `reviewId`. */
  thisRun: boolean;
  writtenAt: number;
  files: string[];
  /** Already undone (a second undo says so). */
  spent: boolean;
}

export interface UndoJournalOptions {
  maxBytes?: number;
  maxAgeMs?: number;
  now?: () => number;
  log?: (message: string) => void;
  /** How often sets past the age limit are dropped while nothing is written (default: hourly). */
  pruneEveryMs?: number;
}

const UNDO_JOURNAL_PRUNE_EVERY_MS = 60 * 60 * 1000;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const entryFile = z.object({
  v: z.literal(1),
  setId: z.string().min(1).max(400),
  reviewId: z.string().min(1).max(200),
  at: z.number().int().nonnegative(),
  spent: z.literal(true).optional(),
  path: z.string().min(1).optional(),
  previous: z
    .union([
      z.object({ exists: z.literal(false) }),
      z.object({ exists: z.literal(true), mode: z.number().int().min(0).max(0o7777), base64: z.string() }),
    ])
    .optional(),
  writtenHash: sha256.nullable().optional(),
  writtenText: z.string().nullable().optional(),
});
type EntryFile = z.infer<typeof entryFile>;

/** What is kept in memory of a write: which file of which set, not its texts. */
type EntryHead = Pick<UndoEntry, 'setId' | 'reviewId' | 'path' | 'at'>;

interface Stored {
  file: string;
  bytes: number;
  entry?: EntryHead;
  /**
   * The texts, only for a journal kept in memory (no folder). With a folder they are read back from the
   * entry's file when undone: kept here, up to the whole budget would stay on the heap besides History.
   */
  inMemory?: UndoEntry;
  /** A tombstone: the set was undone. */
  spent?: { setId: string; reviewId: string; at: number };
}

export class UndoJournal {
  /** This run's id: a set id is `<run>-<review id>`. */
  readonly runId = randomBytes(4).toString('hex');
  private readonly stored: Stored[] = [];
  private written = 0;
  private readonly listeners = new Set<() => void>();
  private readonly maxBytes: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private readonly log: (message: string) => void;

  private readonly dir: string | undefined;
  /** Ages sets out while DiffTray runs, not only when it writes (unref'd: it keeps nothing alive). */
  private readonly pruner: NodeJS.Timeout;

  /** `dir` undefined: kept in memory only (unit tests of other parts). */
  constructor(dir: string | undefined, options: UndoJournalOptions = {}) {
    this.maxBytes = options.maxBytes ?? UNDO_JOURNAL_MAX_BYTES;
    this.maxAgeMs = options.maxAgeMs ?? UNDO_JOURNAL_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    this.dir = dir && this.usableFolder(dir) ? dir : undefined;
    if (this.dir) {
      this.load(this.dir);
      this.prune();
    }
    this.pruner = setInterval(() => this.prune(), options.pruneEveryMs ?? UNDO_JOURNAL_PRUNE_EVERY_MS);
    this.pruner.unref();
  }

  /** Made if missing; a symlink (or anything but a folder) in its place is not used: nothing is kept. */
  private usableFolder(dir: string): boolean {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (!lstatSync(dir).isDirectory()) {
      this.log(`difftray: ${dir} is not a folder; what DiffTray writes is not kept for undo`);
      return false;
    }
    chmodSync(dir, 0o700);
    return true;
  }

  /** The set id of a review of this run. */
  setIdOf(reviewId: string): string {
    return `${this.runId}-${reviewId}`;
  }

  /** Called after each change to what can be undone; returns the way to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Journals one write of `reviewId`'s (after it succeeded). */
  async record(
    reviewId: string,
    file: string,
    previous: PreviousState,
    written: { hash: string; text: string } | null,
  ): Promise<void> {
    const setId = this.setIdOf(reviewId);
    const writtenHash = written?.hash ?? null;
    const writtenText = written?.text ?? null;
    const at = this.now();
    const entry: UndoEntry = { setId, reviewId, path: file, at, previous, writtenHash, writtenText };
    const body: EntryFile = {
      v: 1,
      setId,
      reviewId,
      at: entry.at,
      path: file,
      previous: previous.exists
        ? { exists: true, mode: previous.mode, base64: previous.bytes.toString('base64') }
        : { exists: false },
      writtenHash,
      writtenText,
    };
    const text = JSON.stringify(body);
    // Bytes as stored: a text of many non-ASCII characters takes more than its length.
    const size = Buffer.byteLength(text, 'utf8');
    if (size > this.maxBytes) {
      this.log(`difftray: ${file} is too large to keep for undo; its write cannot be undone`);
      return;
    }
    const name = this.nameAt(at);
    await this.writeEntry(name, text);
    const head: EntryHead = { setId, reviewId, path: file, at };
    this.stored.push({ file: name, bytes: size, entry: head, ...(!this.dir && { inMemory: entry }) });
    this.prune();
    this.changed();
  }

  /** Every set that can be undone or was, newest first. */
  sets(): UndoSet[] {
    const bySet = new Map<string, UndoSet & { order: number }>();
    this.stored.forEach(({ entry, spent }, order) => {
      const head = entry ?? spent!;
      const set = bySet.get(head.setId) ?? {
        setId: head.setId,
        reviewId: head.reviewId,
        thisRun: head.setId === this.setIdOf(head.reviewId),
        writtenAt: 0,
        files: [],
        spent: false,
        order,
      };
      set.writtenAt = Math.max(set.writtenAt, head.at);
      set.order = order;
      if (spent) set.spent = true;
      if (entry && !set.files.includes(entry.path)) set.files.push(entry.path);
      bySet.set(head.setId, set);
    });
    // Newest first; at the same millisecond, the one written later.
    return [...bySet.values()]
      .sort((a, b) => b.writtenAt - a.writtenAt || b.order - a.order)
      .map(({ order: _order, ...set }) => set);
  }

  /** Whether the set has writes still to undo. */
  hasEntries(setId: string): boolean {
    return this.stored.some(({ entry }) => entry?.setId === setId);
  }

  /**
   * The set's writes with their texts, oldest first (read back from their files); none if it was undone
   * or dropped. Throws when an entry's file can no longer be read as written (removed, replaced).
   */
  async entriesOf(setId: string): Promise<UndoEntry[]> {
    const ofSet = this.stored.filter(({ entry }) => entry?.setId === setId);
    const entries: UndoEntry[] = [];
    for (const stored of ofSet) entries.push(stored.inMemory ?? (await this.readBack(stored)));
    return entries.sort((a, b) => a.at - b.at);
  }

  private async readBack(stored: Stored): Promise<UndoEntry> {
    const file = path.join(this.dir!, stored.file);
    try {
      const text = await readRegularFileAsync(file, { noFollow: true, maxBytes: Number.MAX_SAFE_INTEGER });
      const entry = fromFile(stored.file, 0, entryFile.parse(JSON.parse(text))).entry;
      if (!entry || entry.setId !== stored.entry!.setId || entry.path !== stored.entry!.path) {
        throw new Error('it no longer holds the write it held');
      }
      return entry;
    } catch (error) {
      throw new Error(
        `The saved text of ${stored.entry!.path} could not be read back from ${file}: ${messageOf(error)}`,
        { cause: error },
      );
    }
  }

  isSpent(setId: string): boolean {
    return this.stored.some(({ spent }) => spent?.setId === setId);
  }

  /**
   * The set's `paths` were put back: their entries are let go. Only once every file of the set is put
   * back is the set spent (a tombstone says so until it ages out); until then the rest stays to be undone.
   */
  async release(setId: string, paths: readonly string[]): Promise<void> {
    const ofSet = this.stored.filter(({ entry }) => entry?.setId === setId);
    const leaving = ofSet.filter(({ entry }) => paths.includes(entry!.path));
    const reviewId = ofSet[0]?.entry?.reviewId;
    if (reviewId === undefined || leaving.length === 0) return;
    if (leaving.length === ofSet.length) {
      const at = this.now();
      const text = JSON.stringify({ v: 1, setId, reviewId, at, spent: true } satisfies EntryFile);
      const name = this.nameAt(at);
      await this.writeEntry(name, text);
      this.stored.push({
        file: name,
        bytes: Buffer.byteLength(text, 'utf8'),
        spent: { setId, reviewId, at },
      });
    }
    this.remove(leaving);
    this.changed();
  }

  /** Stops the pruning timer (DiffTray closing). */
  close(): void {
    clearInterval(this.pruner);
  }

  /** `<time>-<count>-<random>.json`: sorted by name, the order they were written in. */
  private nameAt(at: number): string {
    const count = String(this.written++).padStart(9, '0');
    return `${at}-${count}-${randomBytes(4).toString('hex')}.json`;
  }

  private async writeEntry(name: string, text: string): Promise<void> {
    if (!this.dir) return;
    // wx: never through an entry that is already there (a symlink planted under a fresh name).
    await writeFile(path.join(this.dir, name), text, { mode: 0o600, flag: 'wx' });
  }

  /** Drops sets past the age limit, then the oldest sets until the bytes fit. */
  prune(): void {
    const cutoff = this.now() - this.maxAgeMs;
    const byAge = this.sets().reverse();
    let total = this.stored.reduce((sum, stored) => sum + stored.bytes, 0);
    const dropped: Stored[] = [];
    for (const set of byAge) {
      if (set.writtenAt >= cutoff && total <= this.maxBytes) break;
      const leaving = this.stored.filter((s) => (s.entry ?? s.spent)!.setId === set.setId);
      total -= leaving.reduce((sum, stored) => sum + stored.bytes, 0);
      dropped.push(...leaving);
    }
    if (dropped.length > 0) {
      this.remove(dropped);
      this.changed();
    }
  }

  private remove(leaving: readonly Stored[]): void {
    for (const stored of leaving) {
      const index = this.stored.indexOf(stored);
      if (index !== -1) this.stored.splice(index, 1);
      if (this.dir) rmSync(path.join(this.dir, stored.file), { force: true });
    }
  }

  private load(dir: string): void {
    // Sorted by name: the order they were written in (nameAt).
    const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    names.sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b));
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        const text = readEntryText(file);
        const parsed = entryFile.parse(JSON.parse(text));
        const { entry, ...read } = fromFile(name, Buffer.byteLength(text, 'utf8'), parsed);
        // Only where it is and what it is of: the texts are read back when undone (readBack).
        this.stored.push({ ...read, ...(entry && { entry: headOf(entry) }) });
      } catch (error) {
        this.log(`difftray: ignored ${file} in the undo journal: ${messageOf(error)}`);
      }
    }
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

function headOf({ setId, reviewId, path: file, at }: UndoEntry): EntryHead {
  return { setId, reviewId, path: file, at };
}

/** An entry's file as read: a tombstone, or a write with its texts. */
function fromFile(
  name: string,
  bytes: number,
  parsed: EntryFile,
): Pick<Stored, 'file' | 'bytes' | 'spent'> & { entry?: UndoEntry } {
  const { setId, reviewId, at } = parsed;
  if (parsed.spent) return { file: name, bytes, spent: { setId, reviewId, at } };
  const { path: file, previous: kept, writtenHash, writtenText } = parsed;
  if (file === undefined || kept === undefined || writtenHash === undefined || writtenText === undefined) {
    throw new Error('an entry without its path, previous state or what was written');
  }
  if ((writtenHash === null) !== (writtenText === null)) throw new Error('a written hash without its text');
  if (!path.isAbsolute(file)) throw new Error('a relative path');
  const previous: PreviousState = kept.exists
    ? { exists: true, mode: kept.mode, bytes: Buffer.from(kept.base64, 'base64') }
    : { exists: false };
  return {
    file: name,
    bytes,
    entry: { setId, reviewId, at, path: file, previous, writtenHash, writtenText },
  };
}

/** The file's text, only if it is a regular file: a symlink is refused (O_NOFOLLOW), never followed. */
function readEntryText(file: string): string {
  // An entry holds whole texts (each up to the file limit): no smaller cap than the journal's own bounds.
  return readRegularFile(file, { noFollow: true, maxBytes: Number.MAX_SAFE_INTEGER });
}
