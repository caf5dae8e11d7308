/**
 * What is on disk at a path, in the one form every comparison uses: absent, text, or opaque bytes
 * (binary, not UTF-8, or too large to review) known by their hash.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  read,
  readSync,
  type BigIntStats,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConfinedDirectory, namingFolder } from './confined-directory';
import { MAX_FILE_BYTES } from '../limits';
import { PathOutsideWorkspaceError } from '../workspace/workspace-paths';
import { messageOf } from '../../../shared/error-message';

export { MAX_FILE_BYTES };

export type DiskSnapshot =
  | { exists: false }
  | { exists: true; kind: 'text'; text: string }
  | { exists: true; kind: 'opaque'; hash: string; size: number; why: 'binary' | 'not UTF-8' | 'too large' };

/** What an entry that is not a regular file turned out to be, as a caller sorts refusals. */
export type UnreadableEntry = 'symlink' | 'folder' | 'special';

export class UnreadableFileError extends Error {
  constructor(
    message: string,
    /** Set when the entry is not a regular file: what it is instead. */
    readonly entry?: UnreadableEntry,
  ) {
    super(message);
  }
}

/**
 * How a file looked when its snapshot was read, from the descriptor the bytes were read through, and
 * when that read started. While all five fields stay the same the content has not changed, unless the
 * file was written again within the same timestamp tick as the read: see `isRacilyClean`.
 */
export interface FileSignature {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  readStartedNs: bigint;
}

/**
 * Timestamps this close to the start of a read (or later) cannot vouch for it, as git treats racy index
 * entries: a write in the same tick as the read leaves them as they were. The margin covers the coarsest
 * common timestamps (FAT's 2 s, HFS+'s 1 s), the kernel's coarse clock, and a little clock skew of network
 * file systems. A file changed this recently is simply read again.
 */
export const RACY_WINDOW_NS = 3_000_000_000n;

/** Signatures live beside the snapshots, not in them: snapshots are data (compared, sent, kept in history). */
const signatures = new WeakMap<DiskSnapshot, FileSignature>();

/** The signature a snapshot was read with; none for one made from text (a test, a client's own base). */
export function signatureOf(snapshot: DiskSnapshot): FileSignature | undefined {
  return signatures.get(snapshot);
}

/** Whether the file may have been written again, unseen by its timestamps, right after the read began. */
export function isRacilyClean(signature: FileSignature): boolean {
  const threshold = signature.readStartedNs - RACY_WINDOW_NS;
  return signature.mtimeNs >= threshold || signature.ctimeNs >= threshold;
}

/** Whether `stats` show the very file `known` was read from, unchanged, and its read can vouch for that. */
function isStillKnown(known: DiskSnapshot, stats: BigIntStats): boolean {
  const signature = signatures.get(known);
  return signature !== undefined && sameFile(signature, stats) && !isRacilyClean(signature);
}

function sameFile(a: FileSignature, b: Omit<FileSignature, 'readStartedNs'>): boolean {
  return (
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs
  );
}

let readObserver: ((path: string) => void) | undefined;

/** Tests count the file contents actually read through this; `undefined` stops it. Nothing else sets it. */
export function observeFileReads(observer: ((path: string) => void) | undefined): void {
  readObserver = observer;
}

/** The observer set in this thread, if any (the context pool forwards its workers' reads to it). */
export function fileReadObserver(): ((path: string) => void) | undefined {
  return readObserver;
}

/** A NUL byte in the first 8 KiB is how git and most editors tell binary from text. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  // A Buffer's indexOf is memchr: tens of times faster than a loop over the bytes.
  return Buffer.from(bytes.buffer, bytes.byteOffset, end).indexOf(0) !== -1;
}

// fatal: text that is not UTF-8 would come back altered on write; ignoreBOM: keep a BOM as text.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * What is at `filePath` now. Only a regular file is read: the entry is looked at (lstat) before it is
 * opened, a symlink in the final name is refused (O_NOFOLLOW), and the open cannot block (O_NONBLOCK: a
 * FIFO swapped in at the last moment is opened without waiting for a writer, then refused by fstat).
 * At most `maxBytes` + 1 bytes are read, however much the file grows meanwhile.
 *
 * `known`, a snapshot read before, is returned as it is, unread and unopened, when the entry's lstat shows
 * the signature it was read with and that signature is not racily clean: the entry is still looked at.
 * When the file is read and holds what `known` holds, `known` is returned too, with the new signature.
 */
export async function readDiskSnapshot(
  filePath: string,
  maxBytes = MAX_FILE_BYTES,
  known?: DiskSnapshot,
): Promise<DiskSnapshot> {
  return readEntry(filePath, filePath, maxBytes, known ?? 'look first');
}

/** A snapshot read before; or, with none, whether the entry is looked at (lstat) before it is opened. */
type Known = DiskSnapshot | 'look first' | 'listed as a file';

/**
 * The looks at the entry (lstat, open, fstat, close) are direct system calls, not trips through libuv's
 * thread pool: each takes microseconds and a pool trip tens of times that, and every proposal, watch look
 * and submit makes them; the path was just walked with lstatSync anyway (workspace-paths.ts). Reading
 * the content, which grows with the file, goes through the pool unless it is small (SYNC_READ_BYTES).
 */
async function readEntry(
  filePath: string,
  displayPath: string,
  maxBytes: number,
  known: Known,
): Promise<DiskSnapshot> {
  const readStartedNs = BigInt(Date.now()) * 1_000_000n;
  let seen: BigIntStats | undefined;
  if (known !== 'listed as a file') {
    const looked = lookAt(filePath);
    if (!looked) return { exists: false };
    seen = looked;
    // The entry's own stats are those of the file an open would give: with nothing to read, none is opened.
    if (known !== 'look first' && isStillKnown(known, seen)) return known;
  }
  let fd: number;
  try {
    fd = openSync(filePath, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { exists: false };
    if (code === 'ELOOP') {
      throw new UnreadableFileError(`A symbolic link, not a regular file: ${filePath}`, 'symlink');
    }
    // A socket cannot be opened (ENXIO): say what it is, as the look before the open would have.
    if (!seen) lookAt(filePath);
    throw new UnreadableFileError(`Cannot read ${filePath}: ${messageOf(error)}`);
  }
  try {
    const stats = fstatSync(fd, { bigint: true });
    if (!stats.isFile()) {
      const what = seen ? 'Replaced while being read' : `${describeEntry(stats)}, not a regular file`;
      throw new UnreadableFileError(`${what}, not read: ${filePath}`, entryOf(stats));
    }
    if (seen && (stats.ino !== seen.ino || stats.dev !== seen.dev)) {
      throw new UnreadableFileError(`Replaced while being read, not read: ${filePath}`);
    }
    readObserver?.(displayPath);
    const read = await readContent(fd, stats, maxBytes);
    // A walk's reads are used once, for their text, and never compared again: no signature is kept
    // (thousands of WeakMap entries made every garbage collection of a search slower).
    if (known === 'listed as a file') return read;
    // Read again, same content: `known` stands for it, now under this read's signature, so its text is
    // kept once however often the file is read (a file written just before its proposal is read again).
    const snapshot = typeof known === 'object' && sameContent(known, read) ? known : read;
    signatures.set(snapshot, {
      dev: stats.dev,
      ino: stats.ino,
      size: stats.size,
      mtimeNs: stats.mtimeNs,
      ctimeNs: stats.ctimeNs,
      readStartedNs,
    });
    return snapshot;
  } finally {
    closeSync(fd);
  }
}

/** The entry's lstat; undefined if there is none; UnreadableFileError if it is not a regular file. */
function lookAt(filePath: string): BigIntStats | undefined {
  let seen: BigIntStats;
  try {
    seen = lstatSync(filePath, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UnreadableFileError(`Cannot read ${filePath}: ${messageOf(error)}`);
  }
  if (!seen.isFile()) {
    throw new UnreadableFileError(`${describeEntry(seen)}, not a regular file: ${filePath}`, entryOf(seen));
  }
  return seen;
}

async function readContent(fd: number, stats: BigIntStats, maxBytes: number): Promise<DiskSnapshot> {
  if (stats.size > BigInt(maxBytes)) return tooLarge(stats);
  const bytes = await readUpTo(fd, maxBytes + 1, Number(stats.size));
  if (bytes.length > maxBytes) return tooLarge(fstatSync(fd, { bigint: true }));
  if (looksBinary(bytes))
    return { exists: true, kind: 'opaque', hash: hashBytes(bytes), size: bytes.length, why: 'binary' };
  try {
    return { exists: true, kind: 'text', text: utf8.decode(bytes) };
  } catch {
    return { exists: true, kind: 'opaque', hash: hashBytes(bytes), size: bytes.length, why: 'not UTF-8' };
  }
}

/**
 * `readDiskSnapshot` of a real path, inside the workspace at the moment of reading: its folder is opened
 * and checked first (confined-directory.ts), and the file read through that folder. A folder that does
 * not exist means the file does not either.
 */
export async function readConfinedSnapshot(
  realPath: string,
  folders: readonly string[],
  maxBytes = MAX_FILE_BYTES,
  known?: DiskSnapshot,
): Promise<DiskSnapshot> {
  let directory: ConfinedDirectory;
  try {
    directory = await ConfinedDirectory.open(path.dirname(realPath), folders);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false };
    if (error instanceof PathOutsideWorkspaceError) throw error;
    throw new UnreadableFileError(`Cannot read ${realPath}: ${messageOf(error)}`);
  }
  try {
    return await readSnapshotIn(directory, path.basename(realPath), maxBytes, known);
  } finally {
    await directory.close();
  }
}

/** `readDiskSnapshot` of `name` in an open, checked directory; messages name the real path. */
export async function readSnapshotIn(
  directory: ConfinedDirectory,
  name: string,
  maxBytes = MAX_FILE_BYTES,
  known?: DiskSnapshot,
): Promise<DiskSnapshot> {
  return readIn(directory, name, maxBytes, known ?? 'look first');
}

/**
 * `readSnapshotIn` of a name the directory's listing (readdir's entry types) just gave as a regular
 * file: that listing was the look before the open, so there is no lstat of its own. The open still
 * refuses a link (O_NOFOLLOW) and cannot block (O_NONBLOCK), and fstat of the descriptor, the very file
 * read, must show a regular file: whatever was swapped in since the listing is refused as before.
 * The snapshot has no signature (signatureOf): it is read for its text once.
 */
export async function readListedFileIn(
  directory: ConfinedDirectory,
  name: string,
  maxBytes: number,
): Promise<DiskSnapshot> {
  return readIn(directory, name, maxBytes, 'listed as a file');
}

async function readIn(
  directory: ConfinedDirectory,
  name: string,
  maxBytes: number,
  known: Known,
): Promise<DiskSnapshot> {
  try {
    return await readEntry(await directory.entry(name), directory.display(name), maxBytes, known);
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    throw new UnreadableFileError(namingFolder(error.message, directory.realPath), error.entry);
  }
}

// O_NOCTTY: a terminal swapped in for a file must not become the process's controlling terminal.
const READ_FLAGS =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

function tooLarge(stats: BigIntStats): DiskSnapshot {
  // Not read whole: size and timestamps stand in for the content, enough to notice a change.
  const hash = createHash('sha256').update(`${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`).digest('hex');
  return { exists: true, kind: 'opaque', hash, size: Number(stats.size), why: 'too large' };
}

/** Bytes read per chunk once a file turns out larger than its size said (it grew while being read). */
const GROWTH_CHUNK_BYTES = 1024 * 1024;

/** A read this small is done at once: a trip through the thread pool would cost more than the read. */
const SYNC_READ_BYTES = 64 * 1024;

const readAsync = promisify(read);

/**
 * Reads up to `limit` bytes from the start. The first read asks for the size fstat gave plus one byte,
 * so a file that did not grow is read in one call into a buffer of its own size; a read that comes back
 * short once `size` bytes are in is the end of the file. Otherwise reading goes on to the end or `limit`.
 */
async function readUpTo(fd: number, limit: number, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  let ask = Math.min(limit, size + 1);
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(ask);
    const bytesRead =
      ask <= SYNC_READ_BYTES
        ? readSync(fd, chunk, 0, ask, total)
        : (await readAsync(fd, chunk, 0, ask, total)).bytesRead;
    if (bytesRead === 0) break;
    chunks.push(bytesRead === ask ? chunk : chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (bytesRead < ask && total >= size) break;
    ask = Math.min(limit - total, GROWTH_CHUNK_BYTES);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

/** What kind of entry it is, for an error message a person can act on. */
export function describeEntry(stats: Stats | BigIntStats): string {
  if (stats.isSymbolicLink()) return 'A symbolic link';
  if (stats.isDirectory()) return 'A folder';
  if (stats.isFIFO()) return 'A named pipe (FIFO)';
  if (stats.isSocket()) return 'A socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'A device';
  return 'An unusual entry';
}

function entryOf(stats: BigIntStats): UnreadableEntry {
  if (stats.isSymbolicLink()) return 'symlink';
  return stats.isDirectory() ? 'folder' : 'special';
}

/** Whether two snapshots show the same file content. */
export function sameContent(a: DiskSnapshot, b: DiskSnapshot): boolean {
  if (!a.exists || !b.exists) return a.exists === b.exists;
  if (a.kind === 'text' && b.kind === 'text') return a.text === b.text;
  if (a.kind === 'opaque' && b.kind === 'opaque') return a.hash === b.hash;
  return false;
}
