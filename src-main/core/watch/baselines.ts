/**
 * Per file of a watched folder, the text its changes are reviewed against: the last text the person
 * accepted; before any, in a git work tree the index text, elsewhere the snapshot taken when watching
 * began. Kept bounded by bytes: the least recently set texts go first, and a file whose text went (or
 * never fit) has an unknown baseline, said so rather than guessed.
 */
import path from 'node:path';
import type { ConfinedDirectory } from '../disk/confined-directory';
import { readSnapshotIn, type DiskSnapshot } from '../disk/disk-snapshot';
import { describeBytes, utf8ByteLength, WATCH_BASELINE_MAX_BYTES } from '../limits';
import type { GitIndex, IndexText } from './git-index';
import { openInWatchedFolder } from './watch-folders';

export type Baseline = { known: true; snapshot: DiskSnapshot } | { known: false; why: string };

const ABSENT: DiskSnapshot = { exists: false };

/** From this many index texts needed at once, they are read in one batch (see prefetch). */
const PREFETCH_FROM = 4;

export class Baselines {
  /** Texts (or "no file") set by the start snapshot or an outcome; a Map keeps the order they were set. */
  private readonly texts = new Map<string, string | null>();
  private bytes = 0;
  /** Files that existed when watching began (their first baseline comes from git or the snapshot). */
  private readonly existedAtStart = new Map<string, number>();
  /** Files another client's accepted review left empty: deleted or emptied, either is their baseline. */
  private readonly emptyOrAbsent = new Set<string>();
  /** Files whose text was let go or never fit, with why. */
  private readonly lost = new Map<string, string>();
  /** Index texts read ahead for the current burst, each taken by its first get(). */
  private prefetched = new Map<string, IndexText>();

  constructor(
    private readonly git: GitIndex | undefined,
    private readonly maxBytes = WATCH_BASELINE_MAX_BYTES,
  ) {}

  /** A file found by the walk at start, with its size then; its text is read by snapshotStart. */
  noteFound(file: string, size: number): void {
    this.existedAtStart.set(file, size);
  }

  /**
   * The start snapshot, once the walk is done: the text of every file found, or in a git work tree of
   * those git does not track (the index has no text for them), while the budget lasts. Read as every
   * other read is, inside `root` at the moment of reading: a file swapped meanwhile for a link or a
   * FIFO is not read, and its baseline stays unknown. Each folder is opened and checked once.
   */
  async snapshotStart(root: string): Promise<void> {
    const untracked = this.git ? new Set(await this.git.untracked(root)) : undefined;
    const byFolder = new Map<string, string[]>();
    for (const file of this.existedAtStart.keys()) {
      if (this.texts.has(file) || (untracked && !untracked.has(file))) continue;
      const folder = path.dirname(file);
      const files = byFolder.get(folder);
      if (files) files.push(file);
      else byFolder.set(folder, [file]);
    }
    for (const [folder, files] of byFolder) {
      let directory: ConfinedDirectory;
      try {
        directory = await openInWatchedFolder(folder, root);
      } catch {
        continue; // Gone, or no longer inside the folder watched: nothing known.
      }
      try {
        for (const file of files) await this.snapshot(directory, file);
      } finally {
        await directory.close();
      }
    }
  }

  private async snapshot(directory: ConfinedDirectory, file: string): Promise<void> {
    if (this.bytes + this.existedAtStart.get(file)! > this.maxBytes) {
      this.lost.set(file, `not in the start snapshot (its ${describeBytes(this.maxBytes)} were full)`);
      return;
    }
    try {
      const snapshot = await readSnapshotIn(directory, path.basename(file));
      // Binary or not UTF-8: not text DiffTray reviews.
      if (snapshot.exists && snapshot.kind === 'text') this.set(file, snapshot);
    } catch {
      // Not a regular file any more (a link, a FIFO swapped in), or unreadable: nothing known.
    }
  }

  /**
   * Reads at once, in a git work tree, the index texts a burst of changed `files` needs, so that get()
   * finds them without a git process per file. Replaces what an earlier burst left unread; bounded by the
   * baselines' own budget in bytes. What the batch does not answer, get() reads on its own.
   */
  async prefetch(files: readonly string[]): Promise<void> {
    this.prefetched = new Map();
    if (!this.git) return;
    const needed = files.filter((file) => !this.texts.has(file) && !this.lost.has(file));
    if (needed.length < PREFETCH_FROM) return;
    this.prefetched = await this.git.texts(needed, undefined, this.maxBytes);
  }

  /**
   * The baseline of `file` now. `disk`, the text on disk, says which line endings a git index text is
   * checked out with: git keeps LF in the index and may write CRLF (core.autocrlf, eol=crlf), and a
   * baseline that differs from the file in every line ending would review, and on reject rewrite, every line.
   */
  async get(file: string, disk?: DiskSnapshot): Promise<Baseline> {
    const text = this.texts.get(file);
    if (text === '' && disk?.exists === false && this.emptyOrAbsent.has(file)) {
      return { known: true, snapshot: ABSENT };
    }
    if (text !== undefined) {
      return { known: true, snapshot: text === null ? ABSENT : { exists: true, kind: 'text', text } };
    }
    const lost = this.lost.get(file);
    if (lost !== undefined) return { known: false, why: lost };
    if (this.git) {
      const indexed = this.takePrefetched(file) ?? (await this.git.text(file));
      if (indexed.kind === 'text')
        return {
          known: true,
          snapshot: { exists: true, kind: 'text', text: checkedOut(indexed.text, disk) },
        };
      if (indexed.kind === 'unknown') return { known: false, why: indexed.why };
      if (this.existedAtStart.has(file)) return { known: false, why: 'untracked by git when watching began' };
      return { known: true, snapshot: ABSENT };
    }
    // Found at start but not read (binary, unreadable): nothing known; not found at start: a new file.
    return this.existedAtStart.has(file)
      ? { known: false, why: 'not readable as text when watching began' }
      : { known: true, snapshot: ABSENT };
  }

  /** The person's decision: `snapshot` (text or no file) is the baseline from now on. */
  set(file: string, snapshot: DiskSnapshot): void {
    this.forget(file);
    this.prefetched.delete(file);
    this.lost.delete(file);
    if (snapshot.exists && snapshot.kind !== 'text') {
      this.lost.set(file, 'not text');
      return;
    }
    const text = snapshot.exists ? snapshot.text : null;
    const size = text === null ? 0 : utf8ByteLength(text);
    if (size > this.maxBytes) {
      this.lost.set(file, `larger than the ${describeBytes(this.maxBytes)} kept for baselines`);
      return;
    }
    this.texts.set(file, text);
    this.bytes += size;
    for (const oldest of this.texts.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.forget(oldest);
      this.lost.set(oldest, `let go: the ${describeBytes(this.maxBytes)} kept for baselines were full`);
    }
  }

  /**
   * Another client's review accepted `text` for the file. An accepted deletion composes to '' as well,
   * and only that client knows which it was (Claude Code, say, deletes nothing through DiffTray): an empty
   * file and no file both stand as accepted.
   */
  setAccepted(file: string, text: string): void {
    this.set(file, { exists: true, kind: 'text', text });
    if (text === '') this.emptyOrAbsent.add(file);
  }

  /** Every file with a baseline of its own (found at start, or decided since): deleted ones included. */
  knownFiles(): Set<string> {
    return new Set([...this.existedAtStart.keys(), ...this.texts.keys(), ...this.lost.keys()]);
  }

  /** UTF-8 bytes of the texts kept. */
  get keptBytes(): number {
    return this.bytes;
  }

  private takePrefetched(file: string): IndexText | undefined {
    const indexed = this.prefetched.get(file);
    this.prefetched.delete(file);
    return indexed;
  }

  private forget(file: string): void {
    this.emptyOrAbsent.delete(file);
    const text = this.texts.get(file);
    if (text === undefined) return;
    this.texts.delete(file);
    if (text !== null) this.bytes -= utf8ByteLength(text);
  }
}

/** The index text with CRLF line endings when the file on disk has them and the index text has none. */
function checkedOut(indexText: string, disk: DiskSnapshot | undefined): string {
  const diskText = disk?.exists && disk.kind === 'text' ? disk.text : undefined;
  if (diskText === undefined || !diskText.includes('\r\n') || indexText.includes('\r')) return indexText;
  return indexText.replace(/\n/g, '\r\n');
}
