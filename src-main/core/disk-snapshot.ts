/**
 * What is on disk at a path, in the one form every comparison uses: absent, text, or opaque bytes
 * (binary, not UTF-8, or too large to review) known by their hash.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export type DiskSnapshot =
  | { exists: false }
  | { exists: true; kind: 'text'; text: string }
  | { exists: true; kind: 'opaque'; hash: string; size: number; why: 'binary' | 'not UTF-8' | 'too large' };

export class UnreadableFileError extends Error {}

/** A NUL byte in the first 8 KiB is how git and most editors tell binary from text. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

// fatal: text that is not UTF-8 would come back altered on write; ignoreBOM: keep a BOM as text.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function readDiskSnapshot(filePath: string, maxBytes = MAX_FILE_BYTES): Promise<DiskSnapshot> {
  let handle;
  try {
    handle = await open(filePath, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false };
    throw new UnreadableFileError(`Cannot read ${filePath}: ${(error as Error).message}`);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new UnreadableFileError(`Not a regular file: ${filePath}`);
    if (stats.size > maxBytes) {
      // Not read whole: size and mtime stand in for the content, enough to notice a change.
      const hash = createHash('sha256').update(`${stats.size}:${stats.mtimeMs}`).digest('hex');
      return { exists: true, kind: 'opaque', hash, size: stats.size, why: 'too large' };
    }
    const bytes = await handle.readFile();
    if (looksBinary(bytes))
      return { exists: true, kind: 'opaque', hash: hashBytes(bytes), size: bytes.length, why: 'binary' };
    try {
      return { exists: true, kind: 'text', text: utf8.decode(bytes) };
    } catch {
      return { exists: true, kind: 'opaque', hash: hashBytes(bytes), size: bytes.length, why: 'not UTF-8' };
    }
  } finally {
    await handle.close();
  }
}

/** Whether two snapshots show the same file content. */
export function sameContent(a: DiskSnapshot, b: DiskSnapshot): boolean {
  if (!a.exists || !b.exists) return a.exists === b.exists;
  if (a.kind === 'text' && b.kind === 'text') return a.text === b.text;
  if (a.kind === 'opaque' && b.kind === 'opaque') return a.hash === b.hash;
  return false;
}
