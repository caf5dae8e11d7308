/**
 * Per file of a watched folder, the text its changes are reviewed against: the last text the person
 * accepted; before any, in a git work tree the index text, elsewhere the snapshot taken when watching
 * began. Kept bounded by bytes: the least recently set texts go first, and a file whose text went (or
 * never fit) has an unknown baseline, said so rather than guessed.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { looksBinary, type DiskSnapshot } from '../disk-snapshot';
import { describeBytes, utf8ByteLength, WATCH_BASELINE_MAX_BYTES } from '../limits';
import type { GitIndex } from './git-index';

export type Baseline = { known: true; snapshot: DiskSnapshot } | { known: false; why: string };

const ABSENT: DiskSnapshot = { exists: false };
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class Baselines {
  /** Texts (or "no file") set by the start snapshot or an outcome; a Map keeps the order they were set. */
  private readonly texts = new Map<string, string | null>();
  private bytes = 0;
  /** Files that existed when watching began (their first baseline comes from git or the snapshot). */
  private readonly existedAtStart = new Set<string>();
  /** Files whose text was let go or never fit, with why. */
  private readonly lost = new Map<string, string>();

  constructor(
    private readonly git: GitIndex | undefined,
    private readonly maxBytes = WATCH_BASELINE_MAX_BYTES,
  ) {}

  /** A file found by the walk at start: outside git its text is the snapshot, while the budget lasts. */
  noteFound(file: string, size: number): void {
    this.existedAtStart.add(file);
    if (!this.git) this.snapshot(file, size);
  }

  /**
   * In a git work tree, the files git does not track get the start snapshot too (the index has no text
   * for them): asked of git once, after the walk.
   */
  async snapshotUntracked(folder: string): Promise<void> {
    const untracked = await this.git?.untracked(folder);
    for (const file of untracked ?? []) {
      if (!this.existedAtStart.has(file) || this.texts.has(file)) continue;
      const size = lstatSync(file, { throwIfNoEntry: false })?.size;
      if (size !== undefined) this.snapshot(file, size);
    }
  }

  private snapshot(file: string, size: number): void {
    if (this.bytes + size > this.maxBytes) {
      this.lost.set(file, `not in the start snapshot (its ${describeBytes(this.maxBytes)} were full)`);
      return;
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      return;
    }
    if (looksBinary(bytes)) return;
    try {
      this.set(file, { exists: true, kind: 'text', text: utf8.decode(bytes) });
    } catch {
      // Not UTF-8: not text DiffTray reviews.
    }
  }

  /**
   * The baseline of `file` now. `disk`, the text on disk, says which line endings a git index text is
   * checked out with: git keeps LF in the index and may write CRLF (core.autocrlf, eol=crlf), and a
   * baseline that differs from the file in every line ending would review, and on reject rewrite, every line.
   */
  async get(file: string, disk?: DiskSnapshot): Promise<Baseline> {
    const text = this.texts.get(file);
    if (text !== undefined) {
      return { known: true, snapshot: text === null ? ABSENT : { exists: true, kind: 'text', text } };
    }
    const lost = this.lost.get(file);
    if (lost !== undefined) return { known: false, why: lost };
    if (this.git) {
      const indexed = await this.git.text(file);
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

  /** UTF-8 bytes of the texts kept. */
  get keptBytes(): number {
    return this.bytes;
  }

  private forget(file: string): void {
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
